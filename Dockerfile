# Coroner: `docker build -t coroner .` then
# `docker run -e DISCORD_TOKEN=... -v coroner-data:/data coroner` (the SQLite database lives on the volume).
# The base is a build argument: scripts/check_container.py (CI) builds on one made from Debian's packages with
# `--build-arg BASE=...`; any image with Python 3.11, `pip` on PATH and `useradd` works.
# scripts/check_image.py replays these steps in a clean virtual environment (for machines with no container engine):
# keep one instruction per line and every install step a `RUN pip install ...`.
ARG BASE=python:3.11-slim
FROM ${BASE}
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY migrations ./migrations
RUN pip install --no-deps .
RUN useradd --create-home --uid 10001 coroner && mkdir /data && chown coroner /data
USER coroner
ENV DATABASE_URL=sqlite+aiosqlite:////data/coroner.db
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=30s --start-period=30s --retries=3 CMD ["coroner", "check"]
# docker stop sends SIGTERM: the bot finishes what it is doing, hands its work to the other processes and exits 0
STOPSIGNAL SIGTERM
CMD ["coroner", "run"]
