"""The JSON record of a simulated game (what ``coroner simulate --json`` prints) and its replay check."""

from __future__ import annotations

from typing import Any

from bot.simulate.driver import Game, seat_infos
from games.core import get_engine
from games.core.replay import replay


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
