"""``coroner simulate``: watch a whole game of any registered mode, played by seeded random-legal seats, with no
Discord, token or database (the driver: :mod:`bot.simulate.driver`; the words: :mod:`bot.simulate.transcript`).

``coroner simulate GAME [--mode M] [--players N] [--seed S] [--lang en|es] [--reveal] [--json]`` prints the public
transcript (``--reveal`` adds every private message), or with ``--json`` the game's record for replay
(:func:`record`), checked first: the printed actions must rebuild the final state from the seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from bot.simulate.driver import Game, Stalled, play, seat_infos
from bot.simulate.transcript import transcript
from games.core import IllegalAction, all_games, get_engine
from games.core.replay import replay

__all__ = ["Game", "add_parser", "play", "record", "replays", "run", "transcript"]


def record(game: Game) -> dict[str, Any]:
    """The JSON record of ``game``: game, mode, seed, options, seat names, every ``{seat, action}`` in order
    (``seat`` -1 is the game's own clock) and the outcome."""
    engine = game.engine
    outcome = engine.outcome(game.state)
    return {"game": engine.game, "mode": engine.mode.id, "seed": game.seed,
            "options": game.options.model_dump(mode="json"), "seats": [info.names[0] for info in game.seats],
            "actions": [{"seat": move.seat, "action": move.action} for move in game.moves],
            "outcome": outcome.model_dump(mode="json") if outcome is not None else None}


def replays(data: dict[str, Any], state: dict[str, Any]) -> bool:
    """Whether the record ``data`` (see :func:`record`) rebuilds ``state`` (the final state as JSON) from its
    seed. Raises ``KeyError`` (unknown mode), :class:`~games.core.IllegalAction` (an action that no longer
    applies)."""
    engine = get_engine(data["game"], data["mode"])
    rebuilt = replay(engine, engine.Options.model_validate(data["options"]), seat_infos(len(data["seats"])),
                     data["seed"], [(a["seat"], a["action"]) for a in data["actions"]])
    return engine.dump_state(rebuilt) == state


def add_parser(sub: Any) -> None:
    """Add the ``simulate`` command to the ``coroner`` subparsers ``sub``."""
    parser = sub.add_parser("simulate", help="play a whole game with random players and print it (no Discord)")
    parser.add_argument("game", help="a game id: " + ", ".join(g.id for g in all_games()))
    parser.add_argument("--mode", help="the game's mode (default: its first)")
    parser.add_argument("--players", type=int, help="how many seats (default: the mode's minimum)")
    parser.add_argument("--seed", type=int, help="the game seed (default: a random one, printed)")
    parser.add_argument("--lang", choices=("en", "es"), default="en", help="the catalogues' language")
    parser.add_argument("--reveal", action="store_true", help="also print every seat's private messages")
    parser.add_argument("--json", action="store_true", help="print the actions for replay instead")


def run(args: argparse.Namespace) -> int:
    """Run ``coroner simulate``: 0 on success, 2 with one line on stderr for bad input, 1 if the replay check
    fails."""
    found = {g.id: g for g in all_games()}
    if args.game not in found:
        return _fail(f"unknown game {args.game!r}; one of: {', '.join(found)}")
    info = found[args.game]
    modes = [m.id for m in info.modes]
    mode_id = args.mode or modes[0]
    if mode_id not in modes:
        return _fail(f"{args.game} has no mode {mode_id!r}; one of: {', '.join(modes)}")
    mode = info.mode(mode_id)
    players = mode.min_players if args.players is None else args.players
    if not mode.min_players <= players <= mode.max_players:
        return _fail(f"{args.game} {mode_id} takes {mode.min_players}-{mode.max_players} players, not {players}")
    seed = random.SystemRandom().randrange(2**31) if args.seed is None else args.seed
    try:
        game = play(args.game, mode_id, players, seed)
    except (IllegalAction, Stalled) as exc:
        return _fail(str(exc))
    if args.json:
        data = record(game)
        if not replays(data, game.engine.dump_state(game.state)):
            return _fail("the printed actions do not replay to the final state", code=1)
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print("\n".join(transcript(game, args.lang, reveal=args.reveal)))
    return 0


def _fail(message: str, code: int = 2) -> int:
    print(f"coroner: {message}", file=sys.stderr)
    return code
