"""The rules as read from RB and the edition: filters, conditions, placement, targeting, scoring.

States are read through the engine's public state model only (zones: ``locations``, ``town``, ``surprises``,
``incidents``, ``hands``, decks); every rule below is this checker's own reading.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from .cards import Card, Effect, load


def card(cid: str) -> Card:
    return load()[cid]


# ------------------------------------------------------------------ filters and conditions (§2.2)

def _set(text: str) -> set[str]:
    return {x.strip() for x in text.strip("{} ").split(",") if x.strip()}


def matches(filt: str, attrs: set[str] | frozenset[str]) -> bool:
    """``victim[attr in {..}]`` / ``weapon[attr not in {..}]`` / ``none`` against a set of attributes."""
    if filt == "none":
        return False
    m = re.fullmatch(r"(?:victim|weapon)\[attr (in|not in) (\{.*\})\]", filt)
    assert m, filt
    hit = bool(_set(m[2]) & set(attrs))
    return hit if m[1] == "in" else not hit


def victim_attrs(victim: str, surprise: str | None) -> set[str]:
    """Printed attributes plus those a *revealed* Surprise grants (a face-down one has no effect, §2.1)."""
    attrs = set(card(victim).attrs)
    for src in [victim, surprise]:
        if src:
            attrs |= {e.args["attr"] for e in card(src).fx("static", "grant_attribute")}
    return attrs


def holds(cond: str | None, weapon_attrs: set[str] | frozenset[str], inc: dict[str, Any] | None = None) -> bool:
    """A condition (§2.2); ``inc`` = {"location": bool, "media": bool, "victim_attrs": [set, ...]}."""
    if cond is None:
        return True
    for pred in cond.split(" and "):
        neg = pred.startswith("not ")
        pred = pred[4:] if neg else pred
        if pred.startswith("weapon.attr in "):
            value = bool(_set(pred[len("weapon.attr in "):]) & set(weapon_attrs))
        elif pred == "incident.location":
            value = bool(inc and inc["location"])
        elif pred == "incident.has_media":
            value = bool(inc and inc["media"])
        elif pred.startswith("incident.victim_count"):
            op, n = pred.split()[1:]
            count = len(inc["victim_attrs"]) if inc else 0
            value = count == int(n) if op == "=" else count >= int(n)
        elif pred.startswith("incident.victim_attr_any "):
            wanted = _set(pred[len("incident.victim_attr_any "):])
            value = any(wanted & a for a in (inc["victim_attrs"] if inc else []))
        else:
            raise AssertionError(pred)
        if value == neg:
            return False
    return True


# ------------------------------------------------------------------ zones

def where(state: Any, victim: str) -> str | None:
    """The Location card a Victim in play is on (``None``: out on the town); KeyError when not in play."""
    for loc in state.locations:
        if victim in loc.victims:
            return loc.card
    if victim in state.town:
        return None
    raise KeyError(victim)


def in_play(state: Any) -> list[str]:
    return [*state.town, *(v for loc in state.locations for v in loc.victims)]


def location(state: Any, loc_id: str) -> Any:
    return next(loc for loc in state.locations if loc.card == loc_id)


# ------------------------------------------------------------------ placement (LK-04, LK-13..15)

def may_hold(loc_id: str, victim: str, surprise: str | None = None) -> bool:
    if any(e.args["allowed"] == "none" for e in card(victim).fx("static", "placement_restriction")):
        return False
    attrs = victim_attrs(victim, None)
    return all(matches(e.args["allowed"], attrs) for e in card(loc_id).fx("static", "placement_restriction"))


def capacity(loc_id: str) -> int | None:
    caps = [int(e.args["n"]) for e in card(loc_id).fx("static", "capacity")]
    return min(caps) if caps else None


def can_take(state: Any, loc_id: str, victims: list[str]) -> bool:
    loc = location(state, loc_id)
    cap = capacity(loc_id)
    newcomers = [v for v in victims if v not in loc.victims]
    if cap is not None and len(loc.victims) + len(newcomers) > cap:
        return False
    return all(may_hold(loc_id, v) for v in victims)


def placement_options(state: Any, victim: str) -> set[str]:
    return {loc.card for loc in state.locations if can_take(state, loc.card, [victim])}


# ------------------------------------------------------------------ whackability and targeting (W1, LK-10, §9.1, §9.8)

def never_whackable(cid: str) -> bool:
    return any(e.args["allowed"] == "none" for e in card(cid).fx("static", "whack_restriction"))


def weapon_may_whack(weapon: str, victim: str, loc_id: str | None) -> bool:
    attrs = card(weapon).attrs
    sources = [victim, *([loc_id] if loc_id else [])]
    return all(matches(e.args["allowed"], attrs) for s in sources for e in card(s).fx("static", "whack_restriction"))


def surprise_targets(state: Any) -> set[str]:
    return {v for v in in_play(state) if v not in state.surprises and not never_whackable(v)
            and not ((loc := where(state, v)) and never_whackable(loc))}


def effective_body_count(weapon: str, targets: list[str], loc_id: str | None, bonus: int) -> int:
    attrs = card(weapon).attrs
    total = card(weapon).body_count + bonus
    sources = [*targets, *([loc_id] if loc_id else [])]
    total += sum(int(e.args["amount"]) for s in sources for e in card(s).fx("static", "body_count")
                 if holds(e.condition, attrs))
    return total


def declaration_ok(state: Any, weapon: str, targets: list[str], bonus: int) -> bool:
    """W1 with ``whack_scope`` (§9.1) and the maximal-declaration rule for ``all=true`` (§9.8)."""
    if not targets or len(set(targets)) != len(targets):
        return False
    try:
        places = {where(state, v) for v in targets}
    except KeyError:
        return False
    if len(places) != 1:
        return False
    loc_id = places.pop()
    scope = card(weapon).fx("static", "whack_scope")
    scope_kind = scope[0].args["scope"] if scope else "location"
    take_all = bool(scope) and scope[0].args["all"] == "true"
    if scope_kind == "out_on_the_town":
        if loc_id is not None:
            return False
    elif loc_id is None and len(targets) != 1:
        return False
    if not all(weapon_may_whack(weapon, v, loc_id) for v in targets):
        return False
    if len(targets) > effective_body_count(weapon, targets, loc_id, bonus):
        return False
    if take_all and loc_id is not None:
        for other in location(state, loc_id).victims:
            if other not in targets and weapon_may_whack(weapon, other, loc_id) and \
                    len(targets) + 1 <= effective_body_count(weapon, [*targets, other], loc_id, bonus):
                return False
    return True


def legal_declarations(state: Any, weapon: str, bonus: int, limit: int = 6) -> set[frozenset[str]]:
    """Every legal target set (order-free) of up to ``limit`` Victims."""
    groups: list[list[str]] = [[v] for v in state.town]
    groups += [list(loc.victims) for loc in state.locations]
    if card(weapon).fx("static", "whack_scope") and \
            card(weapon).fx("static", "whack_scope")[0].args["scope"] == "out_on_the_town":
        groups = [list(state.town)]
    found = set()
    for group in groups:
        for size in range(1, min(len(group), limit) + 1):
            for combo in combinations(group, size):
                if declaration_ok(state, weapon, list(combo), bonus):
                    found.add(frozenset(combo))
    return found


# ------------------------------------------------------------------ scoring (§7.5)

def _points(src: str, target: str) -> list[Effect]:
    return [e for e in card(src).fx("static", "points") if e.args["target"] == target]


def incident_score(inc: Any) -> int:
    wattrs = card(inc.weapon).attrs
    vattrs = [victim_attrs(v, inc.surprises.get(v)) for v in inc.victims]
    ctx = {"location": inc.location is not None, "media": inc.media is not None, "victim_attrs": vattrs}
    shared = [c for c in [inc.weapon, inc.location, inc.media, *inc.attached] if c]
    total = 0
    for v, attrs in zip(inc.victims, vattrs, strict=True):
        own = [s for s in [v, inc.surprises.get(v)] if s]
        mods = [e for s in own for e in _points(s, "this_victim") if holds(e.condition, wattrs, ctx)]
        value = card(v).points
        for e in mods:
            if e.args.get("mode") == "set":
                value = int(e.args["amount"])
        for e in mods:
            if e.args.get("mode") == "multiply":
                value *= int(e.args["amount"])
        value += sum(int(e.args["amount"]) for e in mods if e.args.get("mode", "add") == "add")
        value += sum(int(e.args["amount"]) for s in shared for e in _points(s, "each_victim")
                     if holds(e.condition, wattrs, ctx)
                     and ("filter" not in e.args or matches(e.args["filter"], attrs)))
        total += value
    total += sum(int(e.args["amount"]) for s in shared for e in _points(s, "incident")
                 if holds(e.condition, wattrs, ctx))
    return total + sum(inc.modifiers)


def score(state: Any, seat: int) -> int:
    return sum(incident_score(i) for i in state.incidents if i.owner == seat)
