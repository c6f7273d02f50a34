"""Same seeds, same games: a digest per game mode of seeded random games, to compare two versions of the engines.

Each game ``n`` of a mode is dealt from seed ``n`` and played as :mod:`tests.bench.bench_engines` plays it
(:func:`~tests.bench.bench_engines.random_move` from ``random.Random(n)``); after the deal and after every move the
digest takes in the state (its JSON), ``waiting``, the legal-move list of every seat (and of ``SYSTEM_SEAT``), the
engine's timeout default, the step's events and every view (public and each seat's); it also checks that no
``apply`` changed its input state (as ``tests/games/core/test_copying.py`` does over fewer games). A change that
keeps every game the same keeps every digest; run it before and after (or on two worktrees) and compare the lines.

Run: ``.venv/bin/python -m tests.bench.game_hashes [--games N] [--only GAME]`` (prints one line per mode and
player count: ``game mode players moves digest``; asserts nothing).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from games.core import SYSTEM_SEAT, Engine, IllegalAction, SeatInfo, get_engine
from tests.bench.bench_engines import MAX_MOVES, options_for, random_move

#: (game, mode, player counts) hashed
MODES = [("asesino", "tabletop", (5, 6, 10)), ("asesino", "small", (2, 3, 4)), ("asesino", "social", (8,)),
         ("cereal_killer", "classic", (2, 3)), ("lets_kill", "classic", (3, 4, 5)), ("verdugo", "classic", (5,))]


def _json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str).encode()


def _actions(engine: Engine, actions: list[Any]) -> list[Any]:
    return [engine.dump_action(action) for action in actions]


def _moment(engine: Engine, state: Any, players: int) -> bytes:
    """Everything the engine answers about ``state``, as bytes."""
    waiting = engine.waiting(state)
    timeout = engine.timeout_action(state) if engine.features.timeouts else None
    return _json({
        "state": engine.dump_state(state),
        "waiting": None if waiting is None else waiting.model_dump(mode="json"),
        "legal": {seat: _actions(engine, engine.legal_actions(state, seat))
                  for seat in [SYSTEM_SEAT, *range(players)]},
        "timeout": None if timeout is None else [timeout[0], engine.dump_action(timeout[1])],
        "views": {str(seat): engine.view(state, seat) for seat in [None, *range(players)]},
        "outcome": None if (outcome := engine.outcome(state)) is None else outcome.model_dump(mode="json"),
    })


def game_digest(engine: Engine, players: int, seed: int, digest: Any) -> int:
    """Play game ``seed`` into ``digest``; returns its moves."""
    rng = random.Random(seed)
    state = engine.setup(options_for(engine), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    digest.update(_json([e.model_dump(mode="json") for e in engine.intro(state)]))
    digest.update(_moment(engine, state, players))
    moves = 0
    for _ in range(MAX_MOVES):
        move = random_move(engine, state, rng)
        if move is None:
            break
        digest.update(_json([move[0], engine.dump_action(move[1])]))
        before = engine.dump_state(state)
        try:
            step = engine.apply(state, *move)
        except IllegalAction as refusal:
            digest.update(_json(["refused", refusal.code, refusal.params]))
            continue
        finally:
            if engine.dump_state(state) != before:
                raise AssertionError(f"{engine.game}/{engine.mode.id} seed {seed}: apply changed its input")
        state = step.state
        moves += 1
        digest.update(_json([e.model_dump(mode="json") for e in step.events]))
        digest.update(_moment(engine, state, players))
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=15, help="seeded games per mode and player count")
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args()
    for game, mode, counts in MODES:
        if args.only and game != args.only:
            continue
        engine = get_engine(game, mode)
        for players in counts:
            digest = hashlib.sha256()
            moves = sum(game_digest(engine, players, seed, digest) for seed in range(args.games))
            print(f"{game} {mode} {players} {moves} {digest.hexdigest()[:16]}", flush=True)


if __name__ == "__main__":
    main()
