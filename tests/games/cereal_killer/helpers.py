"""Builders shared by the Cereal Killer tests: fresh games and hand-placed positions."""

from __future__ import annotations

from typing import Any

from games.cereal_killer import ENGINE
from games.cereal_killer.models import CerealOptions, CerealState, HunterTurn
from games.core import SeatInfo, Step


def new_game(players: int = 2, seed: int = 7, **options: Any) -> CerealState:
    """A fresh game (City A for 2 players; Recurring Killer, City A + Suburbs A, for 3 unless told)."""
    return ENGINE.setup(CerealOptions(**options), [SeatInfo() for _ in range(players)], seed)


def play(state: CerealState, *moves: tuple[int, Any]) -> CerealState:
    """Apply ``(seat, action)`` pairs in order and return the last state."""
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action).state
    return state


def step(state: CerealState, seat: int, action: Any) -> Step:
    return ENGINE.apply(state, seat, action)


def at(state: CerealState, **fields: Any) -> CerealState:
    """``state`` with fields replaced (a hand-set position); ``turn_steps`` starts the acting hunter's turn."""
    steps = fields.pop("turn_steps", None)
    new = state.model_copy(update=fields, deep=True)
    if steps is not None:
        seat = 1 if new.phase == "detective" else 2
        here = new.detective if seat == 1 else new.lola
        assert here is not None
        new.turn = HunterTurn(seat=seat, start=here, steps_left=steps)
    return new
