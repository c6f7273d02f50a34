"""The social-mode state (a pydantic model, JSON-safe, never mutated by ``apply``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from games.asesino.social.clock import SocialOptions
from games.asesino.social.roles import KEPT_WHEN_RECRUITED, SocialRole
from games.core.controls import Controlled
from games.core.copying import SETTLED

#: the seat that sends system actions (``EndDay``, ``ExpireJudgements``): the bot's persisted timers
SYSTEM_SEAT = -1


class SocialSeat(BaseModel):
    """One player. ``card`` is the role card dealt; ``role`` differs only for a recruited Accomplice.

    ``death``: ``crime`` (the Killer's pair) or ``maniac``; ``judged_day``: the day a judgement against this
    player stood (from then on the player is deprived of judgements)."""

    names: list[str]
    card: SocialRole
    role: SocialRole
    character: str
    alive: bool = True
    death: Literal["crime", "maniac"] | None = None
    died_day: int | None = None
    judged_day: int | None = None
    inbox: list[Annotated[dict[str, Any], SETTLED]] = Field(default_factory=list)  # entries never change


class Judgement(BaseModel):
    """An accusation. ``backers`` includes the opener; it stands at 3 backers within the window."""

    id: int
    accused: int
    opener: int
    day: int
    opened_at: AwareDatetime
    expires_at: AwareDatetime
    backers: list[int]
    status: Literal["open", "stood", "expired", "void"] = "open"


class Post(BaseModel):
    """An anonymous post to the official medium (``seat`` is secret until the end)."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    id: int
    seat: int
    character: str
    day: int
    text: str


class Published(BaseModel):
    """A Farewell Letter (``seat`` = its writer), a journalist note (``seat`` = the interviewee) or a clue from
    beyond (unsigned: ``seat`` is ``None``)."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    day: int
    kind: Literal["letter", "note", "clue"]
    seat: int | None
    text: str


class Review(BaseModel):
    """A refused Farewell Letter its writer sent to the host (``status`` pending until the host decides)."""

    id: int
    seat: int
    day: int
    text: str
    status: Literal["pending", "approved", "rejected"] = "pending"


class Today(BaseModel):
    """Per-day limits, reset when the day ends.

    ``crime``: the pair's crime is spent; ``protected``: the Doctor's pick; ``inspected``, ``maniac_kill``:
    spent; ``interview``: the Journalist's interviewee; ``note``: the draft note; ``judgements``: per-seat count
    of judgements taken part in (opening or backing); ``letters``: draft Farewell Letters by seat; ``saved``:
    players the Doctor saved today (they may write a letter); ``clues``: draft clues from beyond by seat."""

    crime: bool = False
    protected: int | None = None
    inspected: bool = False
    maniac_kill: bool = False
    interview: int | None = None
    note: str | None = None
    judgements: dict[int, int] = Field(default_factory=dict)
    letters: dict[int, str] = Field(default_factory=dict)
    saved: list[int] = Field(default_factory=list)
    clues: dict[int, str] = Field(default_factory=dict)


class TimelineEntry(BaseModel):
    """One accepted action, for the end-of-game reveal. ``detail``: ``saved``/``killed`` for attacks, ``stood``
    for the backing that made a judgement stand; ``ref``: the judgement or post number."""

    model_config = ConfigDict(frozen=True)  # never changed once stored: copies of the state share it

    day: int
    at: AwareDatetime
    seat: int
    kind: str
    target: int | None = None
    detail: str | None = None
    ref: int | None = None


class Result(BaseModel):
    reason: str
    winners: list[int]
    params: dict[str, Any] = Field(default_factory=dict)


class SocialState(Controlled):
    """Everything about one social game. ``last_protected`` is yesterday's protection (no two days running)."""

    seed: int
    options: SocialOptions
    seats: list[SocialSeat]
    day: int = 1
    day_started_at: AwareDatetime | None = None
    day_ends_at: AwareDatetime | None = None
    last_at: AwareDatetime | None = None
    killer: int
    accomplice: int | None = None
    murders: int = 0
    today: Today = Field(default_factory=Today)
    last_protected: int | None = None
    judgements: list[Judgement] = Field(default_factory=list)
    posts: list[Post] = Field(default_factory=list)
    reviews: list[Review] = Field(default_factory=list)
    published: list[Published] = Field(default_factory=list)
    timeline: list[TimelineEntry] = Field(default_factory=list)
    result: Result | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def murders_to_win(self) -> int:
        """floor(N/2), N = players at the start (rulebook "Silencing the Instinct")."""
        return len(self.seats) // 2

    def seat_with_power(self, role: SocialRole) -> int | None:
        """The seat that may use ``role``'s power, if any (a recruited Detective or Maniac has none)."""
        for index, seat in enumerate(self.seats):
            if seat.card == role and (seat.role == role or role in KEPT_WHEN_RECRUITED):
                return index
        return None
