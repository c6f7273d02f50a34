"""Hand-built Let's Kill! states for golden and rule tests, and small drivers."""

from __future__ import annotations

from typing import Any

from games.core import SYSTEM_SEAT
from games.lets_kill.cards import CARDS, LETS_KILL_DECK, VICTIMS_DECK
from games.lets_kill.engine import ENGINE, begin
from games.lets_kill.models import CloseWindow, Incident, LetsKillState, LocationInPlay, Respond


def build(*, hands: list[list[str]], lk_top: list[str] = (), victims_top: list[str] = (),  # type: ignore[assignment]
          locations: dict[str, list[str]] | None = None, town: list[str] = (),  # type: ignore[assignment]
          surprises: dict[str, str] | None = None, incidents: list[Incident] = (),  # type: ignore[assignment]
          active: int = 0, start: bool = True, **extra: Any) -> LetsKillState:
    """A state with exactly these zones; every other card fills the decks below ``lk_top`` / ``victims_top`` (in
    id order, Victims before Locations). ``start``: run the agenda to the first decision of ``active``'s turn."""
    players = len(hands)
    locations = locations or {}
    surprises = surprises or {}
    used = {c for h in hands for c in h} | set(lk_top) | set(victims_top) | set(locations) | set(town)
    used |= {v for vs in locations.values() for v in vs} | set(surprises.values())
    for inc in incidents:
        used |= {inc.weapon, *inc.victims, *inc.surprises.values(), *inc.attached}
        used |= {c for c in (inc.location, inc.media) if c}
    known: list[list[str]] = [[] for _ in range(players)]
    state = LetsKillState(
        seed=7, seats=[f"p{i}" for i in range(players)],
        lk_deck=[*lk_top, *(c for c in LETS_KILL_DECK if c not in used)],
        victims_deck=[*victims_top, *sorted((c for c in VICTIMS_DECK if c not in used), key=lambda c: c[0] != "V")],
        hands=[list(h) for h in hands],
        locations=[LocationInPlay(card=k, victims=list(v)) for k, v in locations.items()],
        town=list(town), surprises=dict(surprises), known=known, skips=[0] * players,
        incidents=[i.model_copy(deep=True) for i in incidents],
        next_incident=max([i.id for i in incidents], default=0) + 1, first=active, active=active, **extra)
    return begin(state) if start else state


def act(state: LetsKillState, seat: int, action: Any) -> LetsKillState:
    return ENGINE.apply(state, seat, action).state


def answer_window(state: LetsKillState, **answers: Respond) -> LetsKillState:
    """Everyone named answers (``s1=Respond(...)``), then the clock closes the window (the rest pass)."""
    assert state.pending is not None and state.pending.kind == "window", state.pending
    for key, response in answers.items():
        state = act(state, int(key[1:]), response)
    if state.pending is not None and state.pending.kind == "window":
        state = act(state, SYSTEM_SEAT, CloseWindow())
    return state


def card_total(state: LetsKillState) -> tuple[int, int]:
    """How many Let's Kill and Victims-deck cards the state holds in all zones (must be 55 + 55)."""
    cards = [*state.lk_deck, *state.lk_discard, *state.victims_deck, *state.victims_discard, *state.town,
             *(c for h in state.hands for c in h), *state.surprises.values(), *state.limbo]
    cards += [c for loc in state.locations for c in (loc.card, *loc.victims)]
    if state.whacking is not None:
        cards += list(state.whacking.revealed.values())
    for inc in state.incidents:
        cards += [inc.weapon, *inc.victims, *inc.surprises.values(), *inc.attached]
        cards += [c for c in (inc.location, inc.media) if c]
    assert len(cards) == len(set(cards)), sorted(c for c in cards if cards.count(c) > 1)
    lk = sum(1 for c in cards if CARDS[c].deck == "lets_kill")
    return lk, len(cards) - lk


def ready(hands: list[list[str]], **kwargs: Any) -> LetsKillState:
    """Seat 0's Step 2: Step 1 drew V04 Mimi the Mime (always out on the town) and the window closed."""
    return answer_window(build(hands=hands, victims_top=["V04", *kwargs.pop("victims_top", [])], **kwargs))
