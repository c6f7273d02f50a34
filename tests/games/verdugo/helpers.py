"""Builders shared by the Verdugo tests: matches with injected decks and deals (edition §11.0), hand-set
execution tables (edition §11.4) and a one-line way to play actions."""

from __future__ import annotations

from typing import Any

from games.core import Event, SeatInfo
from games.verdugo import ENGINE
from games.verdugo.models import RoundState, VerdugoOptions, VerdugoState
from games.verdugo.setup import deal, open_round
from games.verdugo.treasury import treasury

NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena")
ANA, BRUNO, CARLA, DIEGO, ELENA = range(5)

#: the edition's names (§5, §6, §8) -> our card ids
CARD = {"Loyalist": "loyalist", "Saboteur": "saboteur", "Princess": "princess", "Jester": "jester",
        "Pardon": "pardon", "Fancy Hat": "hat", "Golden Chalice": "chalice", "Cheese": "cheese", "Doll": "doll",
        "Shield": "shield", "Parasite": "parasite", "Mimic": "mimic"}


def ids(text: str) -> list[str]:
    """``"Loyalist, Saboteur | Jester"`` -> ``["loyalist", "saboteur", "jester"]`` (the edition's deck notation)."""
    return [CARD[name.strip()] for name in text.replace("|", ",").split(",") if name.strip()]


def new_match(names: tuple[str, ...] = NAMES, *, executioner: int = 0, seed: int = 1, **options: Any) -> VerdugoState:
    options.setdefault("match", "open")
    return ENGINE.setup(VerdugoOptions(first_executioner=executioner, **options),
                        [SeatInfo(names=(n,)) for n in names], seed)


def rig_round(state: VerdugoState, executioner: int, *, roles: str, objects: str, scaffold: list[str],
              deal_roles: str | None = None, deal_objects: str | None = None) -> VerdugoState:
    """``state`` with its current round replaced by one opened from the given decks (edition §11 "Deck order")
    and, when given, dealt in the given order (prisoners from the Executioner's left, then the discard/centre)."""
    s = state.model_copy(deep=True)
    open_round(s, executioner, roles=ids(roles), objects=ids(objects), scaffold=scaffold, ev=[])
    if deal_roles is not None and deal_objects is not None:
        deal(s, ids(deal_roles), ids(deal_objects), [])
    return s


def redeal(state: VerdugoState, deal_roles: str, deal_objects: str) -> VerdugoState:
    """``state`` with the current round dealt again in the given order (after the safe-object loop)."""
    s = state.model_copy(deep=True)
    deal(s, ids(deal_roles), ids(deal_objects), [])
    return s


def execution_table(roles: list[str], objects: list[str], centre: str, *, crowns: list[int] | None = None,
                    rules: tuple[str, ...] = (), cheese_variant: bool = False, discarded: str = "loyalist",
                    match: str = "open") -> VerdugoState:
    """A table with the Executioner in seat 0 and prisoners 1..N-1 holding ``roles``/``objects``, already in
    the Execution phase (edition §11.4: "each case is an independent table")."""
    n = len(roles) + 1
    s = new_match(tuple(f"P{i}" for i in range(n)), cheese_variant=cheese_variant, match=match)
    if crowns is not None:
        s.crowns = list(crowns)
    r = RoundState(number=1, executioner=0, phase="execute", object_deck=[], active_roles=[*roles, discarded],
                   active_objects=[*objects, centre], scaffold_deck=[], drawn=["double_wages", "bloodlust"],
                   rules=list(rules), start_crowns=list(s.crowns))
    r.roles, r.objects = [None, *roles], [None, *objects]
    r.centre, r.discarded_role = centre, discarded
    r.shown_objects, r.shown_roles, r.seen = [None] * n, [None] * n, [[] for _ in range(n)]
    s.round = r
    return s


def play(state: VerdugoState, *moves: tuple[int, Any]) -> VerdugoState:
    """Apply ``(seat, action)`` pairs in order; returns the last state."""
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action).state
    return state


def events_of(state: VerdugoState, seat: int, action: Any) -> tuple[VerdugoState, list[Event]]:
    step = ENGINE.apply(state, seat, action)
    return step.state, step.events


def crowns(state: VerdugoState) -> tuple[list[int], int]:
    """Everyone's Crowns and the Treasury."""
    return list(state.crowns), treasury(state)
