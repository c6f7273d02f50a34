"""Options and the day clock of the social mode: time is data, never read from the wall clock.

A day is a span (``day_length_minutes``, default 24 h). When the server sets a ``boundary`` (a local clock time
such as 00:00) in a ``time_zone`` (IANA name, e.g. ``Europe/Madrid``), a day ends at the first boundary that is
at least half a day length after the day began: a game started at 23:50 with a midnight boundary plays its first
day until the *next* midnight, and DST changes give 23 h or 25 h days. Without a boundary a day simply lasts
``day_length_minutes``. Our ruling: ``editions/asesino-rulings.md`` ("Social mode", day span).
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Annotated
from zoneinfo import ZoneInfo

from pydantic import AwareDatetime, BaseModel, Field, field_validator
from pydantic_core import PydanticCustomError

from games.asesino.social.roles import SocialRole, UnknownRole, names_every_special, parse_specials, role_table
from games.core.description import SERVER_SETTING
from games.core.timezones import TimeZoneName


class SocialOptions(BaseModel):
    """Options of a social-mode game.

    ``started_at``: when day 1 starts (the adapter passes the start time; when ``None`` the clock starts with
    the first action's ``at``). ``first_day_ends_at`` overrides the computed end of day 1. ``max_days``: the game
    ends at the end of that day (README ruling "Maximum length"); ``idle_days``: a living player who has not acted
    for that many days is reminded at each day's end (every ``idle_days`` days). The day span, the judgement
    window, the time zone and the start come from the server's settings at start (``SERVER_SETTING``); the lobby
    offers ``max_days``, ``idle_days`` and ``special_roles``: the specials the host puts in play (``None``: all
    of the role table's, also when the host writes ``all``; else a list such as ``"doctor, prosecutor"``, stored as
    the role ids in the table's order; see :func:`~games.asesino.social.roles.parse_specials`). A name that is no
    special role is refused with ``asesino_social.option.unknown_role`` (``value``, ``allowed``), a list naming
    none with ``asesino_social.option.no_role`` (``allowed``).
    """

    day_length_minutes: Annotated[int, SERVER_SETTING] = Field(default=1440, ge=10, le=7 * 1440)
    judgement_window_minutes: Annotated[int, SERVER_SETTING] = Field(default=15, ge=1, le=24 * 60)
    boundary: Annotated[time | None, SERVER_SETTING] = None
    time_zone: Annotated[TimeZoneName, SERVER_SETTING] = "UTC"
    started_at: Annotated[AwareDatetime | None, SERVER_SETTING] = None
    first_day_ends_at: Annotated[AwareDatetime | None, SERVER_SETTING] = None
    max_days: int = Field(default=14, ge=1, le=365)
    idle_days: int = Field(default=2, ge=1, le=30)
    special_roles: str | None = Field(default=None, max_length=200)

    @field_validator("special_roles")
    @classmethod
    def _known_specials(cls, value: str | None) -> str | None:
        if value is None or names_every_special(value):
            return None
        allowed = ", ".join(role.value for role in role_table().specials)
        try:
            return ", ".join(role.value for role in parse_specials(value))
        except UnknownRole as exc:
            if not exc.word:
                raise PydanticCustomError("asesino_social.option.no_role", "no special role named",
                                          {"allowed": allowed}) from None
            raise PydanticCustomError("asesino_social.option.unknown_role", "{value} is no special role",
                                      {"value": exc.word[:32], "allowed": allowed}) from None

    def specials(self) -> tuple[SocialRole, ...] | None:
        """The specials in play (``None``: all of them)."""
        return None if self.special_roles is None else parse_specials(self.special_roles)


def utc(moment: datetime) -> datetime:
    """``moment`` (aware) expressed in UTC."""
    return moment.astimezone(UTC)


def day_end(start: datetime, options: SocialOptions) -> datetime:
    """When a day that began at ``start`` ends (UTC), per the module rules above."""
    length = timedelta(minutes=options.day_length_minutes)
    if options.boundary is None:
        return utc(start + length)
    zone = ZoneInfo(options.time_zone)
    earliest = start + length / 2
    day = earliest.astimezone(zone).date()
    while True:
        candidate = datetime.combine(day, options.boundary, tzinfo=zone)
        if candidate >= earliest:
            return utc(candidate)
        day += timedelta(days=1)


def next_day_start(ended_at: datetime, scheduled_end: datetime, options: SocialOptions) -> datetime:
    """When the next day begins, given the day was rolled at ``ended_at`` and was due at ``scheduled_end``.

    Ending early starts the next day at once; a late roll (the timer fired late) keeps the scheduled boundary
    so days do not drift, unless the bot missed a whole day, in which case the new day starts now."""
    if ended_at < scheduled_end:
        return utc(ended_at)
    if day_end(scheduled_end, options) <= ended_at:
        return utc(ended_at)
    return utc(scheduled_end)
