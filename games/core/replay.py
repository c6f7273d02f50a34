"""Replay: re-apply a game's logged actions to its seed and compare with the stored snapshot."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from games.core.contract import SeatInfo
from games.core.engine import Engine


def replay(
    engine: Engine,
    options: BaseModel,
    seats: list[SeatInfo],
    seed: int,
    actions: Iterable[tuple[int, dict[str, Any]]],
) -> Any:
    """Rebuild a state from ``(seat, action JSON)`` pairs in log order.

    Raises :class:`~games.core.engine.IllegalAction` if a logged action no longer applies (a corrupted log or a
    rule change that broke determinism)."""
    state = engine.setup(options, seats, seed)
    for seat, data in actions:
        state = engine.apply(state, seat, engine.parse_action(data)).state
    return state
