"""The driver of ``coroner simulate``: a whole game of any registered mode played by computer players (each seat
plays its game's policy, :mod:`games.core.ai`), with no Discord, token or database.

Moves come from the engine contract only: who must act from ``engine.waiting``, what they may do from
``engine.legal_actions``, which of them from the seat's policy reading the seat's own view. Like the bot's timers,
a silent seat's turn sometimes runs out (its policy moves, :func:`games.core.ai.timeout_move`; armed only for a
:class:`~games.core.Waiting` that pings, see :mod:`bot.turns`), a game with a clock (``features.clock``) applies what
its ``engine.due`` gives
as the bot's timers would (:mod:`bot.cogs.asesino_social.days`), and the host answers what waits on them (a random
one of ``legal_actions(state, HOST_SEAT)``, e.g. a letter sent for review). Every player's move goes through its UI's
``complete_action`` (e.g. the social mode stamps
``at`` with the simulated clock), as :meth:`bot.ui.GameUI.play` does. Same ``(game, mode, players, seed)``, same
game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel

from bot.simulate.uis import load_uis
from bot.ui import ui_for
from games.core import HOST_SEAT, SYSTEM_SEAT, Engine, Event, SeatInfo, get_engine, rng_for
from games.core.ai import Policy, policy_for, timeout_move

#: the seats' names, in seat order (12: the largest table of any mode today)
NAMES = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fede", "Gloria", "Hugo", "Inés", "Julio", "Lola", "Mario")
#: when a simulated game starts (options with a ``started_at`` get it, as the bot gives the start time)
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
#: how often an awaited seat lets its move time out instead of playing
TIMEOUT_RATE = 0.1
#: the most minutes of the simulated clock between two moves
MAX_PAUSE_MINUTES = 60
#: a game still going after this many moves is a bug (no mode needs more than a few thousand)
MAX_MOVES = 20_000


class Stalled(RuntimeError):
    """The game waits on nobody who can act and has no default move: an engine or driver bug."""


@dataclass(frozen=True)
class Move:
    """One applied action: ``seat`` (``SYSTEM_SEAT`` for the game's clock), the action as JSON, whether it was the
    bot's move for a seat whose time ran out, the step's events and the state after it."""

    seat: int
    action: dict[str, Any]
    timed_out: bool
    events: list[Event]
    state: Any


@dataclass
class Game:
    """A simulated game: what it was set up with, the intro events, every move in order and the final state."""

    engine: Engine
    options: BaseModel
    seats: list[SeatInfo]
    seed: int
    intro: list[Event]
    state: Any
    moves: list[Move] = field(default_factory=list)


class Clock:
    """The simulated wall clock (UTC), the ``bot.clock`` of ``complete_action``."""

    def __init__(self, start: datetime) -> None:
        self.at = start

    def now(self) -> datetime:
        return self.at


def seat_infos(players: int) -> list[SeatInfo]:
    """``players`` seats named from :data:`NAMES`. Raises ``ValueError`` past its length."""
    if not 1 <= players <= len(NAMES):
        raise ValueError(f"players must be 1-{len(NAMES)}")
    return [SeatInfo(names=(name,)) for name in NAMES[:players]]


def default_options(engine: Engine) -> BaseModel:
    """The engine's default options, started at :data:`START` when the mode has a start time."""
    fields = engine.Options.model_fields
    return engine.Options.model_validate({"started_at": START.isoformat()} if "started_at" in fields else {})


def play(game: str, mode: str, players: int, seed: int, *, policies: Mapping[int, Policy] | None = None,
         timeout_rate: float = TIMEOUT_RATE, option_values: dict[str, Any] | None = None) -> Game:
    """Play ``game`` in ``mode`` with ``players`` computer seats to the end: seat ``s`` plays ``policies[s]``, by
    default the mode's policy (:func:`games.core.ai.policy_for`); an awaited seat lets its time run out with
    probability ``timeout_rate``. Raises ``KeyError`` (unknown game or mode), :class:`~games.core.IllegalAction`
    (a player count the mode refuses, or an option the table does not fit), :class:`Stalled`, pydantic's
    ``ValidationError`` (bad ``options``: check them first, :func:`bot.simulate.options.simulated_options`).
    ``option_values``: the game's options as JSON (``/newgame``'s), over its defaults."""
    load_uis()
    engine = get_engine(game, mode)
    ui = ui_for(game, mode)
    options = default_options(engine)
    if option_values:
        options = engine.Options.model_validate({**options.model_dump(mode="json"), **option_values})
    seats = seat_infos(players)
    state = engine.setup(options, seats, seed)
    result = Game(engine=engine, options=options, seats=seats, seed=seed, intro=engine.intro(state), state=state)
    rng = rng_for(seed, "simulate")
    clock = Clock(getattr(options, "started_at", None) or START)
    bot = SimpleNamespace(clock=clock)
    features = engine.features
    default = policy_for(game, mode)
    for _ in range(MAX_MOVES):
        waiting = engine.waiting(result.state)
        if waiting is None:
            return result
        clock.at += timedelta(minutes=rng.randint(1, MAX_PAUSE_MINUTES))
        due = engine.due(result.state, clock.at) if features.clock else []
        if due:
            _apply(result, SYSTEM_SEAT, due[0], timed_out=False)
            continue
        hosting = engine.legal_actions(result.state, HOST_SEAT) if features.host_actions else []
        if hosting:
            data = ui.complete_action(bot, engine.dump_action(rng.choice(hosting)))
            _apply(result, HOST_SEAT, engine.parse_action(data), timed_out=False)
            continue
        seat, legal = _someone_able(engine, result.state, waiting.seats, rng)
        if features.timeouts and waiting.pings and (seat is None or rng.random() < timeout_rate):
            move = timeout_move(engine, result.state, rng_for(seed, "timeout", len(result.moves)))
            if move is not None:
                _apply(result, move[0], move[1], timed_out=True)
                continue
        if seat is None:
            raise Stalled(f"{game}/{mode} seed {seed}: nobody can act ({waiting})")
        policy = (policies or {}).get(seat, default)
        action = policy.choose(engine.view(result.state, seat), legal, rng_for(seed, "seat", seat, len(result.moves)))
        data = ui.complete_action(bot, engine.dump_action(action))
        _apply(result, seat, engine.parse_action(data), timed_out=False)
    raise Stalled(f"{game}/{mode} seed {seed}: not over after {MAX_MOVES} moves")


def _someone_able(engine: Engine, state: Any, seats: tuple[int, ...],
                  rng: random.Random) -> tuple[int | None, list[Any]]:
    """A seat of ``seats`` picked at random among those with a legal action, and its legal actions."""
    for seat in rng.sample(seats, len(seats)):
        legal = engine.legal_actions(state, seat)
        if legal:
            return seat, legal
    return None, []


def _apply(game: Game, seat: int, action: Any, *, timed_out: bool) -> None:
    step = game.engine.apply(game.state, seat, action)
    game.state = step.state
    game.moves.append(Move(seat=seat, action=game.engine.dump_action(action), timed_out=timed_out,
                           events=list(step.events), state=step.state))
