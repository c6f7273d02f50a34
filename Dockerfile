# Coroner: `docker build -t coroner .` then
# `docker run -e DISCORD_TOKEN=... -v coroner-data:/data coroner` (the SQLite database lives on the volume).
# scripts/check_image.py replays these steps in a clean virtual environment (CI runs it): keep one instruction per
# line and every install step a `RUN pip install ...`.
FROM python:3.11-slim
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
CMD ["coroner", "run"]
