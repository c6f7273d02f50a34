"""A game's record as stored (seed, options, seats, every logged action with its time, the outcome), its JSON
export, and its replay: every step rebuilt from the seed with the events the engine gave then, and the check that
the record reaches its stored outcome and snapshot (``coroner replay``, the ``/history`` timeline)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from bot.history.verdict import options_problem, outcome_problem, refusal, seats_problem
from bot.tables import Table
from bot.tables.service import timeout_announcement
from games.core import Event, IllegalAction, SeatInfo
from games.core.seats import names_after, names_at_start

#: the version of the exported JSON's layout
FORMAT = 1


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One row of ``game_actions``: ``seq`` (from 1), ``seat`` (``SYSTEM_SEAT`` for the game's clock), the
    player's Discord id (None for the bot's moves), the action as JSON, whether it was the bot's move after a
    time limit, and when it was applied (aware UTC)."""

    seq: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    timed_out: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's full record: its table as stored (seats with their names, seed, options, language, the final
    state and outcome) with ``started_at`` and the action log in ``seq`` order."""

    table: Table
    started_at: datetime | None
    actions: tuple[LoggedAction, ...]

    def to_json(self) -> dict[str, Any]:
        """The exported record: what replays the game (game, mode, seed, options, seats in order, every action
        with its seat; ``seat`` -1 is the game's own clock; a seat's ``user_id`` is None for a computer player),
        who played each action (a Discord id as a string, None for the bot's and computer players' moves), when
        each thing happened (ISO 8601 UTC) and the stored outcome."""
        table = self.table
        return {
            "format": FORMAT, "id": table.id, "game": table.game, "mode": table.mode, "seed": table.seed,
            "options": table.options, "language": table.language,
            "seats": [{"seat": s.seat, "user_id": str(s.user_id) if s.user_id is not None else None,
                       "names": list(s.names)} for s in table.seats],
            "started_at": _iso(self.started_at), "finished_at": _iso(table.finished_at),
            "actions": [{"seq": a.seq, "seat": a.seat, "user_id": str(a.user_id) if a.user_id else None,
                         "at": _iso(a.at), "timed_out": a.timed_out, "action": a.action} for a in self.actions],
            "outcome": table.outcome.model_dump(mode="json") if table.outcome is not None else None,
        }


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


@dataclass(frozen=True, slots=True)
class ReplayedStep:
    """One step of a replayed game: the logged action (None for the deal), the events it produced (preceded by
    the time-limit announcement the players saw, for a timed-out move) and the table after it."""

    action: LoggedAction | None
    events: list[Event]
    table: Table


def replay_steps(record: GameRecord) -> list[ReplayedStep]:
    """The game step by step from its seed: the deal (``engine.intro``) then every logged action; each step's table
    has the seats' names as they were then (a seat handed to someone goes by the names it was dealt under before,
    by its new holder's after: :func:`games.core.seats.names_at_start`). Raises
    :class:`~games.core.IllegalAction` when a logged action no longer applies, ``ValueError`` for a game that never
    started (no seed)."""
    table = record.table
    if table.seed is None:
        raise ValueError(f"game {table.id} never started")
    engine = table.engine
    names = names_at_start([s.names for s in table.seats], (a.action for a in record.actions))
    state = engine.setup(engine.Options.model_validate(table.options), [SeatInfo(names=n) for n in names],
                         table.seed)
    steps = [ReplayedStep(None, engine.intro(state), _at(table, state, names))]
    for logged in record.actions:
        announce = timeout_announcement(engine, state, logged.seat) if logged.timed_out else []
        step = engine.apply(state, logged.seat, engine.parse_action(logged.action))
        state = step.state
        names = names_after(names, logged.action)
        steps.append(ReplayedStep(logged, [*announce, *step.events], _at(table, state, names)))
    return steps


def _at(table: Table, state: Any, names: list[tuple[str, ...]]) -> Table:
    seats = tuple(replace(s, names=names[s.seat]) if s.seat < len(names) else s for s in table.seats)
    return replace(table, state=state, outcome=table.engine.outcome(state), seats=seats)


def check(record: GameRecord) -> str | None:
    """None when the record replays from its seed to its stored outcome (the abandonment and the achievements
    replayed too: :func:`bot.history.verdict.outcome_problem`) and final snapshot; otherwise what went wrong, in one
    line (options the mode refuses, a seat count it is not played by, an action that no longer applies, worded in
    English; a different outcome or state)."""
    table = record.table
    if (problem := options_problem(table.engine, table.options) or seats_problem(table.engine, table.seats)):
        return problem
    try:
        final = replay_steps(record)[-1].table
    except (IllegalAction, ValidationError) as exc:
        return refusal(exc)
    except ValueError as exc:
        return str(exc)
    engine = table.engine
    assert table.seed is not None  # (replay_steps refused a game without one)
    moves = [(a.seat, a.action) for a in record.actions]
    dealt = names_at_start([s.names for s in table.seats], (a.action for a in record.actions))
    problem = outcome_problem(engine, engine.Options.model_validate(table.options),
                              [SeatInfo(names=n) for n in dealt], table.seed, moves, final.state,
                              [s.user_id for s in table.seats], table.outcome, "stored")
    if problem is not None:
        return problem
    if engine.dump_state(final.state) != engine.dump_state(table.state):
        return "the replay ends in another state than the stored snapshot"
    return None
