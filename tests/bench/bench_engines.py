"""Benchmark (not part of the test run): random legal moves per second of every game and mode, engine only (no
bot, no database), and the CPU time of one Cereal Killer board image.

A move is what the bot's own loop pays for on every accepted action: ``waiting`` (who must act), ``legal_actions``
of the seat that moves (its buttons) and ``apply``; the second rate adds the public ``view`` after each move (what
the table is drawn from). Seats move at random among those the game waits on; a seat the game waits on with a move
timer sometimes lets its time run out (``timeout_action``), and a real-time mode's own clock (its system seat's
legal actions) moves now and then. Time-stamped actions get a clock that moves forward. Game ``n`` of a mode is
dealt from seed ``n`` and played from ``random.Random(n)``, so a run repeats up to timing.

Run: ``.venv/bin/python -m tests.bench.bench_engines [--seconds S] [--runs N] [--only GAME] [--profile GAME/MODE]``
(prints a table of each measure's median over ``N`` runs, with their range; asserts nothing)."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from games.core import SYSTEM_SEAT, Engine, IllegalAction, SeatInfo, get_engine

#: (game, mode, players) measured; the issue's targets are per mode
MODES = [("asesino", "tabletop", 6), ("asesino", "small", 4), ("asesino", "social", 8),
         ("cereal_killer", "classic", 3), ("lets_kill", "classic", 4), ("verdugo", "classic", 5)]
#: moves per second the engines must reach (issue 20)
TARGETS = {("asesino", "social"): 5_000, ("cereal_killer", "classic"): 5_000}
DEFAULT_TARGET = 20_000
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
#: how often an awaited seat with a move timer lets it run out; how often a real-time game's clock acts
TIMEOUT_RATE = 0.1
SYSTEM_RATE = 0.05
MAX_MOVES = 5_000


def options_for(engine: Engine) -> Any:
    fields = engine.Options.model_fields
    return engine.Options.model_validate({"started_at": START.isoformat()} if "started_at" in fields else {})


def _stamped(action: Any, state: Any, rng: random.Random) -> Any:
    """``action`` stamped a few minutes after the game's last action, before the day's end (real-time modes)."""
    if "at" not in type(action).model_fields or action.type == "end_day":
        return action
    last = getattr(state, "last_at", None) or action.at
    ends = getattr(state, "day_ends_at", None)
    at = last + timedelta(minutes=rng.randint(0, 20))
    if ends is not None:
        at = min(at, ends - timedelta(seconds=1))
    return action.model_copy(update={"at": max(at, action.at)})


def random_move(engine: Engine, state: Any, rng: random.Random) -> tuple[int, Any] | None:
    """A random (seat, action) the game accepts now, or ``None`` when nobody can act."""
    waiting = engine.waiting(state)
    if waiting is None:
        return None
    if waiting.pace == "realtime" and rng.random() < SYSTEM_RATE:
        system = engine.legal_actions(state, SYSTEM_SEAT)
        if system:
            return SYSTEM_SEAT, rng.choice(system)
    timeouts = engine.features.timeouts
    if timeouts and waiting.pings and rng.random() < TIMEOUT_RATE:
        move = engine.timeout_action(state)
        if move is not None:
            return move
    seats = list(waiting.seats)
    rng.shuffle(seats)
    for seat in seats:
        legal = engine.legal_actions(state, seat)
        if legal:
            return seat, _stamped(rng.choice(legal), state, rng)
    move = engine.timeout_action(state) if timeouts else None
    if move is None and waiting.pace == "realtime":
        system = engine.legal_actions(state, SYSTEM_SEAT)
        return (SYSTEM_SEAT, system[0]) if system else None
    return move


def play_random(engine: Engine, players: int, seed: int, *, views: bool) -> int:
    """One seeded random legal game to the end; returns the moves accepted."""
    rng = random.Random(seed)
    state = engine.setup(options_for(engine), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    moves = 0
    for _ in range(MAX_MOVES):
        move = random_move(engine, state, rng)
        if move is None:
            break
        try:
            state = engine.apply(state, *move).state
        except IllegalAction:  # a placeholder the rules refuse (free text, say): the game goes on
            continue
        moves += 1
        if views:
            engine.view(state, None)
    return moves


def rate(game: str, mode: str, players: int, seconds: float, *, views: bool = False) -> float:
    """Random legal moves per second of whole seeded games, over at least ``seconds`` of CPU time."""
    engine = get_engine(game, mode)
    moves, seed, started = 0, 0, time.process_time()
    while time.process_time() - started < seconds:
        moves += play_random(engine, players, seed, views=views)
        seed += 1
    return moves / (time.process_time() - started)


def median_of(runs: int, measure: Any, *args: Any, **kwargs: Any) -> tuple[float, float, float]:
    """``(median, lowest, highest)`` of ``runs`` calls of ``measure(*args, **kwargs)``."""
    return median_of_values([measure(*args, **kwargs) for _ in range(runs)])


def median_of_values(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def _shown(value: tuple[float, float, float], digits: int = 0) -> str:
    median, low, high = value
    return f"{median:,.{digits}f}" if low == high else f"{median:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"


def board_render_ms(renders: int = 40) -> tuple[float, float]:
    """CPU milliseconds of the first Cereal Killer board image of a game (static layers not yet drawn) and the mean
    of the next ``renders`` (one per move of a random 3-player game, as the bot draws the table after each)."""
    from bot.cogs.cereal_killer.render import render_board

    engine = get_engine("cereal_killer", "classic")
    rng = random.Random(5)
    state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(3)], 5)
    states = [state]
    while len(states) <= renders:
        move = random_move(engine, state, rng)
        if move is None:
            state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(3)], len(states))
            continue
        state = engine.apply(state, *move).state
        states.append(state)
    views = [engine.view(state, None) for state in states]
    started = time.process_time()
    render_board(views[0], language="en")
    first = (time.process_time() - started) * 1000
    started = time.process_time()
    for view in views[1:]:
        render_board(view, language="en")
    return first, (time.process_time() - started) * 1000 / renders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per mode, measure and run")
    parser.add_argument("--runs", type=int, default=1, help="runs of each measure (the median is printed)")
    parser.add_argument("--only", help="one game id")
    parser.add_argument("--profile", help="GAME/MODE: print cProfile's top functions for that mode instead")
    args = parser.parse_args()
    if args.profile:
        game, mode = args.profile.split("/")
        players = next(p for g, m, p in MODES if (g, m) == (game, mode))
        get_engine(game, mode)  # the imports, outside the profile
        profiler = cProfile.Profile()
        profiler.runcall(rate, game, mode, players, args.seconds)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return
    print("| game | mode | players | random legal moves/s | with the public view | target |")
    print("|---|---|---|---|---|---|")
    for game, mode, players in MODES:
        if args.only and game != args.only:
            continue
        plain = median_of(args.runs, rate, game, mode, players, args.seconds)
        viewed = median_of(args.runs, rate, game, mode, players, args.seconds, views=True)
        target = TARGETS.get((game, mode), DEFAULT_TARGET)
        print(f"| {game} | {mode} | {players} | {_shown(plain)} | {_shown(viewed)} | {target:,} |")
    if not args.only or args.only == "cereal_killer":
        renders = [board_render_ms() for _ in range(args.runs)]  # the static layers stay drawn after the first
        then = _shown(median_of_values([r[1] for r in renders]), 1)
        print(f"\nCereal Killer board image: first {renders[0][0]:.1f} ms of CPU, then {then} ms per move (target 15)")


if __name__ == "__main__":
    main()
