"""Per-guild settings with declared defaults (Red-DiscordBot's Config style: defaults registered once, unknown
keys refused).

Stored as one column per setting in ``guild_settings`` (see :class:`bot.db.models.GuildSettings`): the columns
are typed and queryable, and a guild with no row simply gets the defaults declared here.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.base import utcnow
from bot.db.models import GuildSettings
from games.core.timezones import TimeZoneName

_HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class GuildConfig(BaseModel):
    """A guild's settings. ``extra="forbid"``: an unknown key raises ``pydantic.ValidationError``."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    language: Literal["en", "es"] = "en"
    medium_channel_id: int | None = None
    game_channel_ids: list[int] = Field(default_factory=list)  # empty: games may run in any channel
    day_length_minutes: int = Field(default=1440, ge=10, le=7 * 1440)
    day_boundary: str = "09:00"  # local "HH:MM" at which a social-mode day ends
    timezone: TimeZoneName = "UTC"  # IANA name
    turn_timeout_seconds: int = Field(default=300, ge=10, le=7 * 86400)
    response_window_seconds: int = Field(default=900, ge=10, le=7 * 86400)
    lobby_timeout_minutes: int = Field(default=30, ge=1, le=7 * 1440)
    prompt_timeout_seconds: int = Field(default=180, ge=10, le=86400)
    dead_role_id: int | None = None
    table_repost_after: int = Field(default=8, ge=1, le=100)  # messages under the table before it is re-posted
    turn_ping_seconds: int = Field(default=30, ge=5, le=86400)  # grace before "▶ your move" is posted
    social_max_days: int = Field(default=14, ge=1, le=365)  # a social game ends after this many days

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


async def get_config(session: AsyncSession, guild_id: int) -> GuildConfig:
    """The settings of ``guild_id``; the declared defaults when the guild has no row."""
    row = await session.get(GuildSettings, guild_id)
    if row is None:
        return GuildConfig()
    return GuildConfig.model_validate({name: getattr(row, name) for name in FIELDS})


async def update_config(session: AsyncSession, guild_id: int, **changes: Any) -> GuildConfig:
    """Apply ``changes`` and return the new settings (flushed; the caller commits).

    Raises ``pydantic.ValidationError`` (a ``ValueError``) for an unknown key or a bad value; nothing is written
    then."""
    current = await get_config(session, guild_id)
    config = GuildConfig.model_validate(current.model_dump() | changes)
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
