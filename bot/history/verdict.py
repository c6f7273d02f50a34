"""What a replayed game must end with, as the table finished it (``coroner replay``, database and files).

The stored outcome is the engine's plus what only the table adds, and both are replayed here:

* an abandoned game (:data:`~bot.tables.model.ABANDONED`): its last logged action is a change of who plays a seat
  (:mod:`games.core.seats`) after which the computer plays every seat, replayed from the log (the seats the record
  gives no person, and those whose last change was ``seat_away``), as :func:`bot.tables.seats.abandoned_outcome`
  decided it; the engine itself gives no outcome there;
* the achievements (:mod:`bot.tables.achievements`): each seat's must be among those the game judges from the
  replay (:func:`games.core.achievements.earned`), and a seat the computer played at the end earns none. What the
  record cannot replay is left unchecked: an achievement marked ``once`` is dropped for a player who earned it in
  an earlier game.

Refusals from the rules are worded in English (:func:`refusal`), never as a raw catalogue key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.i18n import catalog
from bot.tables.model import ABANDONED
from games.core import Engine, IllegalAction, Outcome, SeatInfo
from games.core.achievements import earned
from games.core.seats import is_seat_change

Moves = Sequence[tuple[int, dict[str, Any]]]


def computer_at_end(moves: Moves, holders: Sequence[int | None]) -> set[int]:
    """The seats the computer plays after ``moves`` (``(seat, action JSON)`` in log order): those whose record
    names no person (``holders[seat]`` None: a computer player, or a seat the host gave the computer), and those
    whose last change of hands was ``seat_away`` (its person still holds it)."""
    last: dict[int, str] = {}
    for _, action in moves:
        if is_seat_change(action) and isinstance(action.get("seat"), int):
            last[action["seat"]] = action["type"]
    return {seat for seat, holder in enumerate(holders) if holder is None or last.get(seat) == "seat_away"}


def table_outcome(engine: Engine, state: Any, moves: Moves, holders: Sequence[int | None]) -> Outcome | None:
    """The outcome the table gives the game after ``moves`` reached ``state``: abandoned when the last move was a
    change of hands that left every seat to the computer, else the engine's (None: not over)."""
    if moves and is_seat_change(moves[-1][1]):
        computer = computer_at_end(moves, holders)
        return Outcome(winners=[], reason=ABANDONED) if len(computer) == len(holders) else None
    return engine.outcome(state)


def outcome_problem(engine: Engine, options: BaseModel, seats: list[SeatInfo], seed: int, moves: Moves,
                    state: Any, holders: Sequence[int | None], stored: Outcome | None, what: str) -> str | None:
    """None when ``stored`` (the record's outcome; ``what`` names it, "stored" or "recorded") is the one the
    replay ends with (:func:`table_outcome`) and its achievements are ones the replay earns; otherwise what
    differs, in one line."""
    expected = table_outcome(engine, state, moves, holders)
    plain = stored.model_copy(update={"achievements": {}}) if stored is not None else None
    if plain != expected:
        return f"the replay ends with another outcome than the {what} one"
    if stored is None or not stored.achievements:
        return None
    computer = computer_at_end(moves, holders)
    judged = earned(engine, options, seats, seed, moves)
    unearned = [f"seat {seat}: {', '.join(sorted(set(names) - set(judged.get(seat, ()))))}"
                if seat not in computer else f"seat {seat} (the computer's)"
                for seat, names in sorted(stored.achievements.items())
                if seat in computer or not set(names) <= set(judged.get(seat, ()))]
    return f"the {what} outcome has achievements the replay does not earn ({'; '.join(unearned)})" if unearned \
        else None


def options_problem(engine: Engine, options: object) -> str | None:
    """None when a record's ``options`` (as stored or exported) are valid for ``engine``'s game and mode; else why
    not, in one line naming the first wrong field: ``its options are not valid for verdugo/classic (match: Input
    should be 'open' or 'tour')``."""
    try:
        engine.Options.model_validate(options)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(map(str, error["loc"])) or "options"
        return f"its options are not valid for {engine.game}/{engine.mode.id} ({where}: {error['msg']})"
    return None


def seats_problem(engine: Engine, seats: Sequence[object]) -> str | None:
    """None when a record has as many ``seats`` as ``engine``'s mode is played by; else why not, in one line:
    ``it has 0 seats; asesino/small is played by 3 to 8``."""
    low, high = engine.mode.min_players, engine.mode.max_players
    if low <= len(seats) <= high:
        return None
    return f"it has {len(seats)} seats; {engine.game}/{engine.mode.id} is played by {low} to {high}"


def refusal(exc: IllegalAction | ValidationError) -> str:
    """Why a logged action no longer applies, in one line of English (a rule's refusal rendered from the
    catalogue, a malformed action's first validation line)."""
    if isinstance(exc, IllegalAction):
        text = catalog("en").render(exc.code, **exc.params)
    else:
        text = str(exc)
    return f"an action no longer applies: {text.splitlines()[0] if text else type(exc).__name__}"
