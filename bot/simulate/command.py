"""The ``coroner simulate`` command line (see :mod:`bot.simulate`)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from bot.errors import error_text
from bot.simulate.driver import Stalled, play
from bot.simulate.options import simulated_options
from bot.simulate.record import record, replays
from bot.simulate.transcript import transcript
from games.core import IllegalAction, all_games


def add_parser(sub: Any) -> None:
    """Add the ``simulate`` command to the ``coroner`` subparsers ``sub``."""
    parser = sub.add_parser(
        "simulate", help="play a whole game with computer players (each game's own policy) and print it (no Discord)",
        description="Play a whole game to its end with computer players, each seat choosing its moves with the "
                    "game's own computer policy (random legal moves only in a mode without one), and print it.")
    parser.add_argument("game", help="a game id, e.g. asesino or cereal_killer")
    parser.add_argument("--mode", help="the game's mode (default: its first)")
    parser.add_argument("--players", type=int, help="how many seats (default: the mode's minimum)")
    parser.add_argument("--seed", type=int, help="the game seed (default: a random one, printed)")
    parser.add_argument("--lang", choices=("en", "es"), default="en", help="the catalogues' language")
    parser.add_argument("--reveal", action="store_true", help="also print every seat's private messages")
    parser.add_argument("--json", action="store_true", help="print the actions for replay instead")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option as /newgame takes it (repeatable), e.g. --option match=open; checked "
                             "like /newgame, with the same messages")


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
    try:
        options = simulated_options(info, mode_id, args.option, args.lang)
    except Exception as exc:  # noqa: BLE001 - the refusal /newgame would give, in the chosen language
        return _fail(error_text(args.lang, exc))
    seed = random.SystemRandom().randrange(2**31) if args.seed is None else args.seed
    try:
        game = play(args.game, mode_id, players, seed, option_values=options)
    except IllegalAction as exc:  # e.g. an option the table does not fit, worded as Start words it
        return _fail(error_text(args.lang, exc))
    except Stalled as exc:
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
