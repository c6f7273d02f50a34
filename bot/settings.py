"""Process settings, read from the environment and an optional ``.env`` file (pydantic-settings)."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting of the bot process. Per-server settings live in the database (``/config``).

    ``DISCORD_TOKEN``: the bot token (required to run). ``DATABASE_URL``: SQLAlchemy async URL (SQLite file by
    default, ``postgresql+asyncpg://...`` to scale). ``DISCORD_API_BASE``: optional base URL (``http(s)://host:port``)
    of a Discord-compatible endpoint; REST and the gateway are rewired to it. ``DEV_GUILD_ID``: sync commands to this
    guild at start (instant) instead of globally. ``SHARD_COUNT``/``SHARD_IDS``: sharding (``SHARD_IDS`` as ``0,1``).
    ``LOG_LEVEL``: Python logging level name.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///coroner.db"
    discord_api_base: str | None = None
    dev_guild_id: int | None = None
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: list[int] | None = None
    log_level: str = "INFO"
    sync_commands: bool = True

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
            raise ValueError("use one of CRITICAL, ERROR, WARNING, INFO, DEBUG")
        return value.upper()

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        if self.shard_ids and self.shard_count and max(self.shard_ids) >= self.shard_count:
            raise ValueError(f"every SHARD_IDS value must be below SHARD_COUNT ({self.shard_count})")
        return self

    @field_validator("discord_api_base")
    @classmethod
    def _strip_slash(cls, value: str | None) -> str | None:
        return value.rstrip("/") if value else None
