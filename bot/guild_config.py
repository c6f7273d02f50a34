"""Per-server settings, declared once (Red-DiscordBot's Config style: defaults registered once, unknown keys refused).

:class:`GuildConfig` is the one declaration of every per-server setting: its type, default and limits. Everything
else derives from it: the ``guild_settings`` columns hold exactly its fields (tested), a guild with no row gets its
defaults, ``/config`` takes its option ranges and choices from :func:`option_range` and :func:`choices`, and a bad
value becomes a :class:`SettingRefused` that the cog words in the server's language.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args, get_origin

from annotated_types import Ge, Le
from discord import app_commands
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.base import utcnow
from bot.db.models import GuildSettings
from games.core.timezones import TimeZoneName

_HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
DAY_SECONDS = 86_400
DAY_MINUTES = 1_440


class GuildConfig(BaseModel):
    """A guild's settings: type, default and limits of each (``extra="forbid"``: unknown keys are refused)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    language: Literal["en", "es"] = "en"
    medium_channel_id: int | None = None  # the social mode's official medium
    game_channel_ids: list[int] = Field(default_factory=list)  # empty: games may run in any channel
    day_length_minutes: int = Field(default=DAY_MINUTES, ge=10, le=7 * DAY_MINUTES)
    day_boundary: str = "09:00"  # local "HH:MM" at which a social-mode day ends
    timezone: TimeZoneName = "UTC"  # IANA name
    turn_timeout_seconds: int = Field(default=300, ge=10, le=7 * DAY_SECONDS)
    response_window_seconds: int = Field(default=900, ge=10, le=7 * DAY_SECONDS)
    lobby_timeout_minutes: int = Field(default=30, ge=1, le=7 * DAY_MINUTES)
    prompt_timeout_seconds: int = Field(default=180, ge=10, le=DAY_SECONDS)
    dead_role_id: int | None = None
    lobby_role_id: int | None = None  # pinged once when a lobby opens (``/config lobbyrole``)
    table_repost_after: int = Field(default=8, ge=1, le=100)  # messages under the table before it is re-posted
    turn_ping_seconds: int = Field(default=30, ge=5, le=86400)  # grace before "▶ your move" is posted
    social_max_days: int = Field(default=14, ge=1, le=365)  # a social game ends after this many days
    timeouts_to_computer: int = Field(default=2, ge=1, le=20)  # timeouts in a row before the computer takes a seat

    @field_validator("day_boundary")
    @classmethod
    def _check_boundary(cls, value: str) -> str:
        if not _HH_MM.match(value):
            raise ValueError(f"day_boundary must be HH:MM (00:00-23:59), not {value!r}")
        return value

    def allows_channel(self, channel_id: int) -> bool:
        """Whether games may be opened in ``channel_id`` (any channel when no game channels are set)."""
        return not self.game_channel_ids or channel_id in self.game_channel_ids


FIELDS: tuple[str, ...] = tuple(GuildConfig.model_fields)


def limits(name: str) -> tuple[int, int] | None:
    """``(minimum, maximum)`` of a numeric setting, inclusive; ``None`` for a setting without limits."""
    metadata = GuildConfig.model_fields[name].metadata
    low = next((m.ge for m in metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in metadata if isinstance(m, Le)), None)
    return None if low is None or high is None else (int(low), int(high))


def option_range(name: str) -> Any:
    """The slash-command option type for a numeric setting: ``app_commands.Range[int, minimum, maximum]``."""
    bounds = limits(name)
    if bounds is None:
        raise KeyError(f"{name} has no declared limits")
    return app_commands.Range[int, bounds[0], bounds[1]]


def choices(name: str) -> tuple[str, ...]:
    """The values a ``Literal`` setting accepts (e.g. the languages); empty for any other setting."""
    annotation = GuildConfig.model_fields[name].annotation
    return tuple(get_args(annotation)) if get_origin(annotation) is Literal else ()


class SettingRefused(ValueError):
    """A value the declaration refuses. ``code`` is a catalogue key (``config.refused.<why>``), ``setting`` the
    field, ``params`` what the message needs besides the setting's name (``min``/``max``, ``choices``,
    ``value``)."""

    def __init__(self, setting: str, code: str, **params: object) -> None:
        super().__init__(f"{setting}: {code}")
        self.setting = setting
        self.code = code
        self.params = params


def refusal(exc: ValidationError, changes: dict[str, Any]) -> SettingRefused:
    """The first error of a :class:`GuildConfig` validation as a :class:`SettingRefused`."""
    error = exc.errors()[0]
    setting = str(error["loc"][0]) if error["loc"] else "?"
    if error["type"] == "extra_forbidden" or setting not in GuildConfig.model_fields:
        return SettingRefused(setting, "config.refused.unknown")
    if (bounds := limits(setting)) is not None:
        return SettingRefused(setting, "config.refused.range", min=bounds[0], max=bounds[1])
    if options := choices(setting):
        return SettingRefused(setting, "config.refused.choice", choices=", ".join(options))
    if setting == "timezone":
        return SettingRefused(setting, "config.refused.timezone", value=str(changes.get(setting, ""))[:64])
    if setting == "day_boundary":
        return SettingRefused(setting, "config.refused.boundary")
    return SettingRefused(setting, "config.refused.invalid")


async def get_config(session: AsyncSession, guild_id: int) -> GuildConfig:
    """The settings of ``guild_id``; the declared defaults when the guild has no row."""
    row = await session.get(GuildSettings, guild_id)
    if row is None:
        return GuildConfig()
    return GuildConfig.model_validate({name: getattr(row, name) for name in FIELDS})


async def update_config(session: AsyncSession, guild_id: int, **changes: Any) -> GuildConfig:
    """Apply ``changes`` and return the new settings (flushed; the caller commits).

    Raises :class:`SettingRefused` (a ``ValueError``) for an unknown key or a value outside the declaration;
    nothing is written then."""
    current = await get_config(session, guild_id)
    try:
        config = GuildConfig.model_validate(current.model_dump() | changes)
    except ValidationError as exc:
        raise refusal(exc, changes) from exc
    values = config.model_dump()
    row = await session.get(GuildSettings, guild_id)
    if row is None:
        session.add(GuildSettings(guild_id=guild_id, updated_at=utcnow(), **values))
    else:
        for name, value in values.items():
            setattr(row, name, value)
        row.updated_at = utcnow()
    await session.flush()
    return config
