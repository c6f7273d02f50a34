"""What the table service hands out: immutable snapshots of a table (:func:`to_table` makes one from the rows), an
action's result, a timer, and the refusal it raises."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import regex

from bot.lookalike import skeleton
from games.core import Engine, Event, Outcome, get_engine
from games.core.seats import ABANDONED  # the outcome reason of an abandoned game (:attr:`Table.abandoned`)

if TYPE_CHECKING:
    from bot.db.models import Game, Seat
    from bot.db.repos.games import GameRow, SeatRow



class TableError(Exception):
    """A refusal by the table service (not by the rules: those raise :class:`~games.core.IllegalAction`).

    ``code`` is a catalogue key of ``bot/i18n/locales/*/LC_MESSAGES/table.po`` (e.g. ``table.stale``,
    ``table.not_a_player``); ``params`` fill its placeholders."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A seat: its number, its Discord user (None: a computer player, see :attr:`is_ai`), the names it goes by
    (display name first), whether DMs to it get through, and whether its person is ``away`` (the computer plays
    it until they take it back, :mod:`games.core.seats`)."""

    seat: int
    user_id: int | None
    names: tuple[str, ...]
    dm_ok: bool = True
    away: bool = False

    @property
    def is_ai(self) -> bool:
        """A computer player: no Discord user, never mentioned, messaged or scored."""
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        """The computer moves for this seat: a computer player's, or a person's who is away."""
        return self.user_id is None or self.away


@dataclass(frozen=True, slots=True)
class Table:
    """A game at a table as of ``version``. ``state`` is the engine's parsed state (None until started);
    ``options`` the validated options as JSON; ``seats`` ordered by seat number."""

    id: int
    game: str
    mode: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str  # scheduled | lobby | active | finished | cancelled
    seed: int | None
    options: dict[str, Any]
    version: int
    language: str
    series_id: int | None
    lobby_message_id: int | None
    table_message_id: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    outcome: Outcome | None
    seats: tuple[TableSeat, ...]
    state: Any
    engine: Engine = field(repr=False)
    #: changes of who plays a seat since the awaited decision was offered (:attr:`decision_opened`)
    seat_steps: int = 0

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or None when they are not playing (never an AI seat)."""
        return next((s.seat for s in self.seats if s.user_id is not None and s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        """The Discord user at ``seat`` (None for an unknown seat and for an AI seat)."""
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def user_ids(self) -> list[int]:
        """The people playing, in seat order (AI seats left out)."""
        return [s.user_id for s in self.seats if s.user_id is not None]

    def has_seat(self, seat: int) -> bool:
        """Whether ``seat`` is at the table (a person's or an AI seat)."""
        return any(s.seat == seat for s in self.seats)

    def ai_seats(self) -> list[int]:
        """The seats the computer moves for (computer players, and people who are away), in order."""
        return [s.seat for s in self.seats if s.played_by_computer]

    def away_seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` when the computer plays it for them (they are away), else None."""
        return next((s.seat for s in self.seats if s.user_id == user_id and s.away), None)

    @property
    def abandoned(self) -> bool:
        """The game ended because every person at it had left their seat to the computer (no scores)."""
        return self.outcome is not None and self.outcome.reason == ABANDONED

    def seat_names(self, seat: int) -> tuple[str, ...]:
        """The names ``seat`` goes by (display name first), empty for an unknown seat."""
        return next((s.names for s in self.seats if s.seat == seat), ())

    def shown_name(self, seat: int) -> str:
        """The one name ``seat`` is shown by everywhere (table, log, menus, DMs, results, history): its display name
        (``#N`` for an unknown seat, N = seat + 1), and when another seat's display name looks the same (compared
        as a reader sees it, :func:`looks`: without case, invisible characters, compatibility forms or letters of
        other scripts that look alike) a suffix that tells them apart: `` (username)`` when the seat has a second
        name of its own no twin shares, else `` (#N)``. Two players called "Alex" are "Alex (alex_b)" and
        "Alex (#3)". A suffixed name never looks like another seat's own display name: beside a player who named
        themselves "Alex (#2)", the second Alex is "Alex (#2-2)"."""
        base = _first_name(self.seat_names(seat), seat)
        twins = [s for s in self.seats if looks(_first_name(s.names, s.seat)) == looks(base)]
        if len(twins) < 2:
            return base
        others = {looks(_first_name(s.names, s.seat)) for s in self.seats if s.seat != seat}
        taken = {looks(name) for twin in twins if twin.seat != seat for name in twin.names}
        own = next((name for name in self.seat_names(seat)[1:]
                    if looks(name) != looks(base) and looks(name) not in taken
                    and looks(f"{base} ({name})") not in others), None)
        if own:
            return f"{base} ({own})"
        tags = (f"#{seat + 1}" if n == 1 else f"#{seat + 1}-{n}" for n in range(1, len(self.seats) + 2))
        return next(shown for tag in tags if looks(shown := f"{base} ({tag})") not in others)

    @property
    def decision_opened(self) -> int:
        """The version at which the decision the game waits on now was first offered (the engine's
        :attr:`~games.core.Waiting.open_for` steps ago): its time limit, armed then, holds at every later version
        until it is made, and a control drawn for it at any version since still stands (:meth:`stands`); a change
        of who plays a seat (:attr:`seat_steps` of them since) leaves it open. The table's own version when nothing
        is awaited (a lobby, a finished game)."""
        if self.status != "active" or self.state is None:
            return self.version
        age = self.engine.decision_age(self.state)  # the host's pause and resume leave the decision open
        return self.version if age is None else self.version - age - self.seat_steps

    def stands(self, version: int) -> bool:
        """Whether a control drawn at ``version`` is for the decision the game waits on now: the same version, or
        one since that decision opened (a simultaneous decision, such as a Let's Kill! response window, stays open
        while its answers come in: each is an answer to the same decision, whichever arrived first, LK-19). Only a
        control for a decision that has closed is stale."""
        return self.decision_opened <= version <= self.version

    @property
    def paused(self) -> bool:
        """A running game its host has paused (:mod:`games.core.controls`): every timer of it is held."""
        return self.status == "active" and self.state is not None and self.engine.paused(self.state) is not None

    @property
    def is_open(self) -> bool:
        """Lobby or running: the table still occupies its channel."""
        return self.status in ("lobby", "active")


#: what shows nothing on screen (Unicode's derived property; the ``regex`` package knows it, ``re`` does not)
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


@lru_cache(maxsize=4096)
def looks(name: str) -> str:
    """How ``name`` reads on screen, to tell look-alike names apart (only to compare, never to show): characters that
    show nothing dropped (Unicode's Default_Ignorable_Code_Point: zero-width spaces, joiners, direction marks,
    variation selectors, the Hangul fillers; and the other format characters, category Cf), compatibility forms
    folded (NFKC: full-width and mathematical letters read as plain ones), letters of other scripts that look the
    same read as one (Unicode's confusables, TR39's skeleton: :func:`bot.lookalike.skeleton`, so a Cyrillic or Greek
    "а" reads as the Latin "a", "m" as "rn"), case folded before and after. ``looks("Al\\u2060ice") == looks("ALICE")
    == looks("\\u0410lice") == looks("Alice\\u3164")``."""
    visible = "".join(c for c in _INVISIBLE.sub("", name) if unicodedata.category(c) != "Cf")
    return skeleton(unicodedata.normalize("NFKC", visible).casefold()).casefold()  # (a prototype may be upper case)


def _first_name(names: tuple[str, ...], seat: int) -> str:
    return names[0] if names else f"#{seat + 1}"


@dataclass(frozen=True, slots=True)
class ActResult:
    """An accepted action: the table after it, the events it produced (already delivered) and the outcome
    when the action ended the game."""

    table: Table
    events: list[Event]
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class TimerInfo:
    """A persisted timer. Handlers compare ``version_at_schedule`` with the table's version to tell whether
    the game moved on since it was set."""

    id: int
    game_id: int
    kind: str
    due_at: datetime
    payload: dict[str, Any]
    version_at_schedule: int
    fired_at: datetime | None
    #: the process whose claim of it had run out when this one claimed it (a takeover; None: nobody's)
    taken_from: str | None = None


@dataclass(frozen=True, slots=True)
class TimerPlan:
    """A timer a step arms: ``kind`` (the handler), when it falls due (aware UTC) and its payload."""

    kind: str
    due_at: datetime
    payload: dict[str, Any] = field(default_factory=dict)


#: the timer a series round's last step arms (:meth:`bot.delivery.Delivery.timers_for`): its handler posts the
#: standings and opens the next round's lobby (:mod:`bot.cogs.lobby.series`)
ROUND_FINISHED = "series_round_finished"
#: the timer that closes a lobby nobody started in time (armed when the lobby opens; the deal disarms it)
LOBBY_EXPIRE = "lobby_expire"


def to_table(row: Game | GameRow, seats: Sequence[Seat | SeatRow], *, with_state: bool = True) -> Table:
    """A :class:`Table` snapshot of a game and its seats (ORM objects, or the rows
    :func:`bot.db.repos.games.game_with_seats` reads; state parsed by the game's engine; without
    ``with_state`` the state is left out, e.g. for a list of games, and ``row.state`` is never read)."""
    engine = get_engine(row.game, row.mode)
    return Table(
        id=row.id, game=row.game, mode=row.mode, guild_id=row.guild_id, channel_id=row.channel_id,
        host_id=row.host_id, status=row.status, seed=row.seed, options=dict(row.options), version=row.version,
        language=row.language, series_id=row.series_id, lobby_message_id=row.lobby_message_id,
        table_message_id=row.table_message_id, created_at=row.created_at, updated_at=row.updated_at,
        finished_at=row.finished_at, outcome=Outcome.model_validate(row.outcome) if row.outcome else None,
        seats=tuple(TableSeat(seat=s.seat, user_id=s.user_id, names=tuple(s.names), dm_ok=s.dm_ok, away=s.away)
                    for s in seats),
        state=engine.parse_state(row.state) if with_state and row.state is not None else None, engine=engine,
        seat_steps=row.seat_steps or 0,
    )
