"""Positions for focused checks: a real engine state at Step 2, with its zones rearranged through the public state
model (every card of both decks still exactly once; the engine's own agenda continues the turn)."""

from __future__ import annotations

from typing import Any

from games.core import SeatInfo
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import Incident, LetsKillOptions, LocationInPlay

from .cards import load


def step2_state(players: int = 4, seed: int = 11) -> Any:
    """The first Step-2 decision of a seeded match (windows closed by the clock on the way)."""
    state = ENGINE.setup(LetsKillOptions(first_player=0), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    while state.pending.kind != "play":
        seat, action = ENGINE.timeout_action(state)
        state = ENGINE.apply(state, seat, action).state
    return state


def arrange(*, hand: list[str], locations: dict[str, list[str]] | None = None, town: list[str] = (),
            surprises: dict[str, str] | None = None, incidents: list[dict[str, Any]] = (), players: int = 4,
            others: dict[int, list[str]] | None = None) -> Any:
    """Seat 0 to play, holding ``hand``; ``others``: other seats' hands (the rest get 5 plain cards each); the play
    area and Incidents exactly as given; every other card in the decks."""
    state = step2_state(players).model_copy(deep=True)
    locations, surprises = locations or {}, surprises or {}
    others = others or {}
    used = set(hand) | {c for h in others.values() for c in h} | set(town) | set(locations)
    used |= {v for vs in locations.values() for v in vs} | set(surprises.values())
    for inc in incidents:
        used |= {inc["weapon"], *inc["victims"], *inc.get("surprises", {}).values(), *filter(None, [inc.get("location"),
                                                                                                   inc.get("media")])}
    cards = load()
    spare_lk = [c for c, k in cards.items() if k.type in ("weapon", "surprise", "event") and c not in used
                and cards[c].subtype != "response" and not k.is_gun]
    rest_lk = [c for c, k in cards.items() if k.type in ("weapon", "surprise", "event") and c not in used
               and c not in spare_lk]
    state.hands = [list(hand)] + [list(others[s]) if s in others else [spare_lk.pop() for _ in range(5)]
                                  for s in range(1, players)]
    state.lk_deck, state.lk_discard = spare_lk + rest_lk, []
    state.victims_deck = [c for c, k in cards.items() if k.type in ("victim", "location") and c not in used]
    state.victims_discard = []
    state.locations = [LocationInPlay(card=k, victims=list(v)) for k, v in locations.items()]
    state.town, state.surprises = list(town), dict(surprises)
    state.known = [list(surprises.values())] + [[] for _ in range(players - 1)]
    state.placers = {v: 1 for v in [*town, *(v for vs in locations.values() for v in vs)]}
    state.incidents = [Incident(id=n + 1, **inc) for n, inc in enumerate(incidents)]
    state.next_incident = len(incidents) + 1
    state.limbo = []
    return state
