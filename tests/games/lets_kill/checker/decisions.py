"""Legality of each decision as this checker reads the rules: Step-2 plays (LK-05), responses (LK-16..21, §9.10,
§9.13) and shootout pledges (§7.7, §9.14)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .rules import (
    can_take,
    card,
    declaration_ok,
    in_play,
    incident_score,
    location,
    placement_options,
    surprise_targets,
    where,
)


def _incident(state: Any, inc_id: int | None) -> Any:
    return next((i for i in state.incidents if i.id == inc_id), None)


def play_ok(state: Any, seat: int, kinds: list[str], bonus: int, cid: str, victims: list[str],
            loc: str | None, inc_id: int | None, target: int | None) -> bool:
    """Whether playing ``cid`` with these targets is legal as the Step-2 (or extra) play."""
    if cid not in state.hands[seat]:
        return False
    c = card(cid)
    if c.type not in {k.lower() for k in kinds}:
        return False
    if c.type == "weapon":
        return declaration_ok(state, cid, victims, bonus)
    if c.type == "surprise":
        return len(victims) == 1 and victims[0] in surprise_targets(state)
    if c.subtype == "response":
        return False  # LK-05
    inc = _incident(state, inc_id)
    if c.subtype == "media":  # LK-22
        return inc is not None and inc.media is None
    if c.fx("static", "points"):  # E07 Gruesome Souvenir: one of your own Incidents
        return inc is not None and inc.owner == seat
    if steal := c.fx("on_play", "steal_incident"):  # E06 Framed!, LK-27
        return inc is not None and inc.owner != seat and incident_score(inc) <= int(steal[0].args["max_score"])
    if any(e.args["target"] == "chosen_other" for e in c.fx("on_play", "trigger_shootout")):
        return target is not None and target != seat and 0 <= target < len(state.seats)
    if move := c.fx("on_play", "move_victim"):  # E05 Free Samples, §9.10
        if len(set(victims)) != len(victims) or len(victims) > int(move[0].args["n"]):
            return False
        if not set(victims) <= set(state.town):
            return False
        return not victims or (loc is not None and any(x.card == loc for x in state.locations)
                               and can_take(state, loc, victims))
    if peek := c.fx("on_play", "peek_surprise"):  # E04 Stakeout
        return len(set(victims)) == len(victims) <= int(peek[0].args["n"]) and set(victims) <= set(state.surprises)
    return True  # Block Party, Killing Spree: always playable


def response_options(state: Any, seat: int) -> set[tuple[str | None, str | None, str | None]]:
    """(card, victim, location) answers ``seat`` may give in the open window; the pass is ``(None, None, None)``."""
    window = state.window
    if window is None or seat == window.active or seat in window.answers:
        return set()
    found: set[tuple[str | None, str | None, str | None]] = {(None, None, None)}
    for cid in set(state.hands[seat]):
        c = card(cid)
        fx = c.fx(f"response({window.type})")
        if c.subtype != "response" or not fx:
            continue
        kind = fx[0].kind
        if kind == "trigger_shootout":
            if state.whacking is None or state.whacking.shootout_target is None:
                found.add((cid, None, None))
        elif kind == "revive":
            inc = _incident(state, window.incident)
            found |= {(cid, v, None) for v in (inc.victims if inc else [])}
        elif kind == "move_victim":
            victim = window.victim
            if victim is None or victim not in in_play(state):
                continue
            here = where(state, victim)
            spots: set[str | None] = {None} | placement_options(state, victim)
            found |= {(cid, None, spot) for spot in spots - {here}}
        else:
            found.add((cid, None, None))
    return found


def pledge_options(state: Any, seat: int) -> set[frozenset[str]]:
    duel = state.shootout
    guns = [c for c in state.hands[seat] if card(c).is_gun]
    subsets = {frozenset(g) for n in range(len(guns) + 1) for g in combinations(guns, n)}
    if duel.phase == "target":
        return {s for s in subsets if not s or duel.target_total + sum(card(c).body_count for c in s)
                >= duel.posse_total}
    return subsets


def conservation(state: Any) -> list[str]:
    """Every card of both decks exactly once across the zones the state exposes (limbo: in transit)."""
    zones = [*state.lk_deck, *state.lk_discard, *state.victims_deck, *state.victims_discard, *state.town,
             *(c for h in state.hands for c in h), *state.surprises.values(), *state.limbo]
    zones += [c for loc in state.locations for c in (loc.card, *loc.victims)]
    if state.whacking is not None:
        zones += list(state.whacking.revealed.values())
    for inc in state.incidents:
        zones += [inc.weapon, *inc.victims, *inc.surprises.values(), *inc.attached,
                  *(c for c in (inc.location, inc.media) if c)]
    return zones


__all__ = ["conservation", "location", "pledge_options", "play_ok", "response_options"]
