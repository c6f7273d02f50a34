"""Rule queries with no side effects: positions, placement (LK-04, LK-13..15), whackability and declarations (W1),
Surprise targets (LK-10) and scoring (§7.5)."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

from games.core import IllegalAction
from games.lets_kill.cards import CARDS
from games.lets_kill.dsl import Effect, Pred
from games.lets_kill.models import Incident, LetsKillState, LocationInPlay


@cache  # of the printed cards only
def static(card_id: str, kind: str) -> tuple[Effect, ...]:
    return CARDS[card_id].effects_of("static", kind)


# ------------------------------------------------------------------ positions

def location(state: LetsKillState, loc_id: str) -> LocationInPlay | None:
    return next((loc for loc in state.locations if loc.card == loc_id), None)


def position(state: LetsKillState, victim: str) -> tuple[bool, str | None]:
    """``(in_play, location)``: whether ``victim`` is in play, and its Location card (``None``: out on the town)."""
    if victim in state.town:
        return True, None
    for loc in state.locations:
        if victim in loc.victims:
            return True, loc.card
    return False, None


def victims_in_play(state: LetsKillState) -> list[str]:
    return [v for loc in state.locations for v in loc.victims] + list(state.town)


# ------------------------------------------------------------------ placement

@cache  # of the printed cards only
def _restriction_allows(card_id: str, victim: str) -> bool:
    for effect in static(card_id, "placement_restriction"):
        allowed = effect.arg("allowed")
        if allowed is None or not allowed.matches(set(CARDS[victim].attributes)):
            return False
    return True


def can_take(state: LetsKillState, loc_id: str, victims: list[str]) -> bool:
    """Whether the Location ``loc_id`` in play can legally take all of ``victims`` together (restrictions of both
    sides and the capacity, Children included: LK-13, LK-14, LK-15)."""
    loc = location(state, loc_id)
    if loc is None:
        return False
    for victim in victims:
        if not _restriction_allows(victim, victim) or not _restriction_allows(loc_id, victim):
            return False
    spare = room(state, loc_id)
    return spare is None or len(victims) <= spare


def room(state: LetsKillState, loc_id: str) -> int | None:
    """How many more Victims the Location ``loc_id`` in play holds (its capacity less those on it, LK-15), or
    ``None`` when it has no capacity."""
    loc = location(state, loc_id)
    capacity = [e.arg("n") for e in static(loc_id, "capacity")]
    return None if not capacity or loc is None else min(capacity) - len(loc.victims)


def placement_options(state: LetsKillState, victim: str) -> list[str]:
    """Locations in play that can take ``victim`` now (LK-04), in play order."""
    return [loc.card for loc in state.locations if can_take(state, loc.card, [victim])]


# ------------------------------------------------------------------ whacking (W1)

@cache  # of the printed cards only
def _whack_allowed(card_id: str, weapon: str) -> bool:
    for effect in static(card_id, "whack_restriction"):
        allowed = effect.arg("allowed")
        if allowed is None or not allowed.matches(set(CARDS[weapon].attributes)):
            return False
    return True


def protected(state: LetsKillState, victim: str) -> bool:
    """Never whackable: the Victim's own or its Location's ``whack_restriction`` is ``none`` (LK-10)."""
    return _never(victim, position(state, victim)[1])


@cache  # of the printed cards only
def _never(victim: str, loc: str | None) -> bool:
    """Whether ``victim`` at ``loc`` (``None``: out on the town) is never whackable (:func:`protected`)."""
    return any(e.arg("allowed") is None for c in (victim, loc) if c for e in static(c, "whack_restriction"))


def whackable(state: LetsKillState, victim: str, weapon: str) -> bool:
    _, loc = position(state, victim)
    return _whack_allowed(victim, weapon) and (loc is None or _whack_allowed(loc, weapon))


def weapon_attr_holds(pred: Pred, weapon: str | None) -> bool:
    return weapon is not None and bool(pred.attrs & set(CARDS[weapon].attributes))


def holds_for_weapon(effect: Effect, weapon: str | None) -> bool:
    """Whether ``effect``'s ``weapon.attr`` predicates hold for ``weapon`` (the declared Weapon, §2.2)."""
    return all(weapon_attr_holds(p, weapon) != p.negate for p in effect.condition if p.name == "weapon.attr")


def effective_body_count(weapon: str, targets: list[str], loc: str | None, bonus: int = 0) -> int:
    """Printed body count + the Location's ``body_count`` (its weapon condition checked) + each declared Victim's
    + ``bonus`` (an ``extra_play`` Event's), W1."""
    return (CARDS[weapon].body_count or 0) + bonus + _modifier(weapon, loc) + sum(
        _modifier(weapon, target) for target in targets)


@cache  # of the printed cards only
def _modifier(weapon: str, source: str | None) -> int:
    """What ``source`` (a Location or a declared Victim) adds to ``weapon``'s body count (W1)."""
    if not source:
        return 0
    return sum(effect.arg("amount") for effect in static(source, "body_count") if holds_for_weapon(effect, weapon))


@cache  # of the printed card only
def scope_of(weapon: str) -> tuple[str, bool]:
    """The Weapon's own ``whack_scope`` (§9.1): ``(scope, all)``; standard ``("location", False)``."""
    for effect in static(weapon, "whack_scope"):
        return effect.arg("scope"), effect.arg("all")
    return "location", False


def declaration_error(state: LetsKillState, weapon: str, targets: list[str], bonus: int = 0) -> IllegalAction | None:
    """Why the ordered declaration ``targets`` with ``weapon`` is illegal (W1, §9.8), or ``None``."""
    if not targets:
        return IllegalAction("lets_kill.no_targets")
    if len(set(targets)) != len(targets):
        return IllegalAction("lets_kill.bad_declaration")
    places = set()
    for victim in targets:
        in_play, loc = position(state, victim)
        if not in_play:
            return IllegalAction("lets_kill.not_in_play", card=victim)
        if not whackable(state, victim, weapon):
            return IllegalAction("lets_kill.cannot_whack", card=victim, weapon=weapon)
        places.add(loc)
    if len(places) != 1:
        return IllegalAction("lets_kill.one_location")
    return _placed_error(state, weapon, targets, places.pop(), bonus)


def _placed_error(state: LetsKillState, weapon: str, targets: list[str], loc: str | None,
                  bonus: int) -> IllegalAction | None:
    """Why ``targets`` (distinct Victims in play at ``loc``, ``None``: out on the town, each whackable by
    ``weapon``) are not a legal declaration: the Weapon's scope, its body count and "all of them" (W1, §9.8)."""
    scope, everyone = scope_of(weapon)
    if scope == "out_on_the_town" and loc is not None:
        return IllegalAction("lets_kill.town_only", weapon=weapon)
    if scope == "location" and loc is None and len(targets) != 1:
        return IllegalAction("lets_kill.one_out_on_town")
    limit = effective_body_count(weapon, targets, loc, bonus)
    if len(targets) > limit:
        return IllegalAction("lets_kill.body_count", limit=limit)
    if everyone and loc is not None:
        here = location(state, loc)
        assert here is not None
        for other in here.victims:
            # the body count with ``other`` declared too: ``limit`` plus what ``other`` adds
            if other not in targets and whackable(state, other, weapon) and \
                    len(targets) + 1 <= limit + _modifier(weapon, other):
                return IllegalAction("lets_kill.must_whack_all", card=other)
    return None


def declaration_groups(state: LetsKillState, weapon: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """The places ``weapon`` may whack at, in play order, each with its Victims in placement order: ``(Location
    card, victims)``, or ``(None, victims)`` out on the town (one group of every Victim there for a Weapon whose
    scope is the town, else one group per Victim there, W1)."""
    if scope_of(weapon)[0] == "out_on_the_town":
        return [(None, tuple(state.town))]
    return [(loc.card, tuple(loc.victims)) for loc in state.locations] + [(None, (v,)) for v in state.town]


def legal_declarations(state: LetsKillState, weapon: str, bonus: int = 0) -> list[list[str]]:
    """Every legal set of targets, each once in placement order; every ordering of one is a legal declaration
    too (the order is the whacker's, W1: :meth:`games.lets_kill.engine.LetsKill.free_order`). The same sets as
    :func:`declaration_error` accepts, counted from the cards' body-count modifiers (no refusal is built)."""
    return [list(targets) for loc, group in declaration_groups(state, weapon)
            for targets in group_declarations(weapon, bonus, loc, group)]


@lru_cache(maxsize=8192)  # a place's Victims mostly stay as they were from one turn to the next
def group_declarations(weapon: str, bonus: int, loc: str | None,
                       group: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The legal declarations with ``weapon`` (its body count raised by ``bonus``) among ``group``, the Victims of
    one place (``loc``, ``None``: out on the town) in placement order: each declaration's body count holds it, and
    for a Weapon that must whack all it can (§9.8) at a Location no undeclared whackable Victim would still fit
    (what :func:`_placed_error` checks). Depends on the printed cards only: cached."""
    if loc is not None and not _whack_allowed(loc, weapon):
        return ()
    candidates = [v for v in group if _whack_allowed(v, weapon)]
    if not candidates:
        return ()
    everyone = scope_of(weapon)[1] and loc is not None
    limit = (CARDS[weapon].body_count or 0) + bonus + _modifier(weapon, loc)
    mods = [_modifier(weapon, v) for v in candidates]
    # sizes that can fit: the body count without the declared Victims' own modifiers, widened by them
    shifts = [_shift(v) for v in candidates]
    most = limit + sum(s for s in shifts if s > 0)
    count = len(candidates)
    fewest = max(1, min(count, most) + sum(s for s in shifts if s < 0)) if everyone else 1
    if not any(mods) and not everyone:  # no modifier: every set up to the body count
        return tuple(c for size in range(fewest, min(count, limit) + 1) for c in combinations(candidates, size))
    found = []
    for size in range(fewest, min(count, most) + 1):
        for picked in combinations(range(count), size):
            total = limit + sum(mods[i] for i in picked)
            if size > total:
                continue
            if everyone and any(i not in picked and size + 1 <= total + mods[i] for i in range(count)):
                continue
            found.append(tuple(candidates[i] for i in picked))
    return tuple(found)


@cache  # of the printed cards only
def _shift(victim: str) -> int:
    """Every ``body_count`` amount ``victim`` may add to a Weapon (its conditions aside): a bound on the sizes."""
    return sum(e.arg("amount") for e in static(victim, "body_count"))


def surprise_targets(state: LetsKillState) -> list[str]:
    """Victims in play with no Surprise that are not protected (LK-10)."""
    surprises = state.surprises
    return [v for loc in state.locations for v in loc.victims if v not in surprises and not _never(v, loc.card)] + \
        [v for v in state.town if v not in surprises and not _never(v, None)]


# ------------------------------------------------------------------ scoring (§7.5)

def incident_attrs(inc: Incident, victim: str) -> set[str]:
    """Printed + granted attributes (a revealed Surprise's ``grant_attribute``)."""
    attrs = set(CARDS[victim].attributes)
    surprise = inc.surprises.get(victim)
    if surprise:
        attrs |= {e.arg("attr") for e in static(surprise, "grant_attribute")}
    return attrs


def holds(inc: Incident, effect: Effect) -> bool:
    for pred in effect.condition:
        if pred.name == "weapon.attr":
            value = weapon_attr_holds(pred, inc.weapon)
        elif pred.name == "incident.location":
            value = inc.location is not None
        elif pred.name == "incident.has_media":
            value = inc.media is not None
        elif pred.name == "incident.victim_count":
            count = len(inc.victims)
            value = count == pred.value if pred.op == "=" else count >= pred.value
        else:
            value = any(pred.attrs & incident_attrs(inc, v) for v in inc.victims)
        if value == pred.negate:
            return False
    return True


def incident_score(inc: Incident) -> int:
    """The Incident's score from its current contents (§7.5; no clamping)."""
    shared = [c for c in (inc.weapon, inc.location, inc.media, *inc.attached) if c]
    points = [(c, e) for c in shared for e in static(c, "points") if holds(inc, e)]
    total = sum(inc.modifiers) + sum(e.arg("amount") for _, e in points if e.arg("target") == "incident")
    for victim in inc.victims:
        own = [e for c in (victim, inc.surprises.get(victim)) if c for e in static(c, "points")
               if e.arg("target") == "this_victim" and holds(inc, e)]
        value = CARDS[victim].points or 0
        for effect in own:
            if effect.arg("mode") == "set":
                value = effect.arg("amount")
        for effect in own:
            if effect.arg("mode") == "multiply":
                value *= effect.arg("amount")
        value += sum(e.arg("amount") for e in own if e.arg("mode", "add") == "add")
        attrs = incident_attrs(inc, victim)
        value += sum(e.arg("amount") for _, e in points if e.arg("target") == "each_victim"
                     and ("filter" not in e.args or (e.args["filter"] is not None and e.args["filter"].matches(attrs))))
        total += value
    return total


def score(state: LetsKillState, seat: int) -> int:
    return sum(incident_score(inc) for inc in state.incidents if inc.owner == seat)


def incident(state: LetsKillState, inc_id: int | None) -> Incident | None:
    return next((inc for inc in state.incidents if inc.id == inc_id), None)
