"""Process settings, read from the environment and an optional ``.env`` file (pydantic-settings).

Every setting is declared once here, with its default and a one-line ``description``: ``coroner run --help`` and
``coroner check`` list them from this model, and a test compares the README's settings table with it.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from bot.db.check import check_url
from bot.db.session import DEFAULT_URL
from bot.startup_error import StartupError

LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
#: a bot token's shape: the bot's id in base64, a timestamp and a signature, separated by dots
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
#: the timer loop looks at the database at least this often (``TIMER_POLL_SECONDS``' default), for timers other
#: processes scheduled, claims of dead processes and steps they left unshown
#: (:meth:`bot.tables.outbox.Deliverer.sweep`)
POLL = timedelta(seconds=15)


class Settings(BaseSettings):
    """Every setting of the bot process (environment variable = field name in upper case). Per-server settings live
    in the database (``/config``, :mod:`bot.guild_config`)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="the bot token (required for run)")
    database_url: str = Field(default=DEFAULT_URL, repr=False, description=(  # it may hold a password
        "SQLAlchemy URL with an async driver: sqlite+aiosqlite:///file.db or postgresql+asyncpg://user@host/db"))
    discord_api_base: str | None = Field(default=None, description=(
        "http(s) base URL of a Discord-compatible endpoint (a rate-limit proxy, the tests' double); REST and "
        "the gateway go there"))
    dev_guild_id: int | None = Field(default=None, description="sync slash commands to this server only, at once")
    shard_count: int | None = Field(default=None, ge=1, description=(
        "total number of shards over all processes (automatic when unset)"))
    shard_ids: list[int] | None = Field(default=None, description=(
        "the shards this process runs, e.g. 0,1 (needs SHARD_COUNT)"))
    log_level: str = Field(default="INFO", description="CRITICAL, ERROR, WARNING, INFO or DEBUG (DEBUG also shows "
                                                       "the libraries' own messages)")
    sync_commands: bool = Field(default=True, description="register the slash commands with Discord at start")
    timer_poll_seconds: float = Field(default=int(POLL.total_seconds()), gt=0, le=3600, description=(
        "how often each process looks in the database for timers other processes scheduled and for timers and "
        "deliveries a dead process left (seconds)"))
    guild_ready_seconds: float = Field(default=2.0, ge=0, le=60, description=(
        "seconds each shard waits after its last server arrived (GUILD_CREATE) before it serves (discord.py's "
        "guild_ready_timeout); every start pays it once; lower it only where a shard's servers arrive at once "
        "(a test double)"))
    metrics_port: int | None = Field(default=None, ge=1, le=65535, description=(
        "serve Prometheus metrics at /metrics on this port, on every interface (off when unset)"))

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return [int(part) for part in value.replace(" ", "").split(",") if part]
            except ValueError:
                raise ValueError(f"write shard numbers separated by commas, e.g. 0,1 (not {value!r})") from None
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"use one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"use an http(s) URL such as http://127.0.0.1:8080, not {masked_url(value)!r}")
        return value.strip().rstrip("/")

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, value: str) -> str:
        check_url(value)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the total number of shards over all processes "
                             f"(e.g. SHARD_COUNT={max(self.shard_ids) + 1} SHARD_IDS="
                             f"{','.join(map(str, self.shard_ids))})")
        if self.shard_ids and self.shard_count and max(self.shard_ids) >= self.shard_count:
            raise ValueError(f"every SHARD_IDS value must be below SHARD_COUNT ({self.shard_count})")
        return self


def masked_url(value: str) -> str:
    """``value`` with the password of its ``user:password@`` part (if any) shown as ``***``; anything that is not
    a URL unchanged. For messages about a URL setting that may not even be a URL."""
    try:
        password = urlsplit(value).password
    except ValueError:  # e.g. a port that is not a number
        return value
    return value.replace(f":{password}@", ":***@", 1) if password else value


def _problem(error: Any) -> str:
    """One line about one of pydantic's validation errors."""
    message = str(error["msg"]).removeprefix("Value error, ")
    if not error["loc"]:
        return f"invalid settings: {message}"
    return f"invalid setting {str(error['loc'][0]).upper()}: {message}"


def load_settings() -> Settings:
    """The settings from the environment and ``.env``. Raises :class:`StartupError` naming the first wrong one."""
    try:
        return Settings()
    except SettingsError as exc:  # a value pydantic-settings could not even decode (e.g. malformed JSON)
        raise StartupError(f"invalid settings: {str(exc).splitlines()[0]}") from None
    except ValidationError as exc:
        raise StartupError(_problem(exc.errors()[0])) from None


def setting_problems() -> tuple[Settings, list[str], dict[str, object]]:
    """Every wrong setting at once (for ``coroner check``): the settings from the environment and ``.env`` with
    each wrong one at its default, one line per wrong one (worded as :func:`load_settings` words the first), and
    what was given for each wrong one (``{"database_url": "bogus"}``; a rule across fields names every field it
    involves), so ``check`` can show the operator's value, not the default it fell back to.
    Raises :class:`StartupError` when the environment cannot even be decoded."""
    overrides: dict[str, Any] = {}
    problems: list[str] = []
    given: dict[str, object] = {}
    for _ in range(len(Settings.model_fields) + 1):  # each round puts the fields found wrong at their default
        try:
            return Settings(**overrides), problems, given
        except SettingsError as exc:
            raise StartupError(f"invalid settings: {str(exc).splitlines()[0]}") from None
        except ValidationError as exc:
            for error in exc.errors():
                problems += [_problem(error)] if _problem(error) not in problems else []
                # a rule across fields (SHARD_IDS with SHARD_COUNT) has no field of its own: both go
                names = [str(error["loc"][0])] if error["loc"] else ["shard_ids", "shard_count"]
                for name in names:
                    if error["loc"]:
                        given.setdefault(name, error["input"])
                    elif isinstance(error["input"], dict) and name in error["input"]:
                        given.setdefault(name, error["input"][name])
                    overrides[name] = Settings.model_fields[name].default
    raise StartupError(problems[0] if problems else "invalid settings")


def token_problem(token: str) -> str | None:
    """What is wrong with the shape of ``token`` (checked offline: Discord itself says whether it is valid), in
    words for the operator, or None when it looks like a bot token: three dot-separated base64 parts, the first
    the bot's id. Never repeats the token."""
    token = token.strip()
    if not token:
        return "DISCORD_TOKEN is not set; put the bot token in the environment or in .env"
    if token.lower().startswith("bot "):
        return "DISCORD_TOKEN starts with \"Bot \"; set the token alone (the bot adds the prefix)"
    if token[:1] in "\"'" and token[-1:] == token[:1]:
        return "DISCORD_TOKEN is quoted; set the token without the quotes"
    if token.isdigit():
        return "DISCORD_TOKEN is a number (the application id?); copy the bot token from the Developer Portal (Bot)"
    if TOKEN_SHAPE.fullmatch(token):
        head = token.split(".", 1)[0]
        try:
            if base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii").isdigit():
                return None
        except (binascii.Error, UnicodeDecodeError, ValueError):
            pass
    return ("DISCORD_TOKEN does not look like a bot token (three parts separated by dots, the first the bot's id); "
            "copy it again from the Developer Portal (Bot, Reset Token), not the client secret or public key")


def value_text(value: object) -> str:
    """A setting's value as ``--help``, ``coroner check`` and the README write it: ``(none)``, ``true``/``false``,
    a list comma-separated, a number without a trailing ``.0`` (``2``, ``0.05``, ``15``), else ``str``."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return format(value, "g")
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def default_text(name: str) -> str:
    """The default of setting ``name`` as the README, ``--help`` and ``coroner check`` show it
    (:func:`value_text`)."""
    return value_text(Settings.model_fields[name].default)
