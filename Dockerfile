# Coroner: `docker build -t coroner .` then
# `docker run -e DISCORD_TOKEN=... -v coroner-data:/data coroner` (the SQLite database lives on the volume).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY migrations ./migrations
RUN pip install --no-cache-dir -e . && useradd --create-home coroner && mkdir /data && chown coroner /data
USER coroner
ENV DATABASE_URL=sqlite+aiosqlite:////data/coroner.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
CMD ["coroner", "run"]
