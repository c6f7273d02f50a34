"""The checker's own model of a Verdugo match (see RULES.md), written from the rulebook and the card edition only.

A :class:`Table` is a plain copy of everything the rules decide. :func:`legal` lists the decisions a seat may take
and :func:`step` applies one, mutating the table; the only inputs the model takes from the engine are the outcomes
of shuffles (decks, deals, the Riot), which the caller syncs in with :func:`read`. Positions are a seat or
``"centre"``; actions are tuples such as ``("chop", 3)``, ``("swap", 1, "centre")``, ``("stop",)``.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

TOTAL = 80
ROLES = Counter({"loyalist": 4, "saboteur": 4, "princess": 1, "jester": 1})
OBJECTS = Counter({"pardon": 3, "hat": 3, "chalice": 2, "cheese": 1, "doll": 1, "shield": 1, "parasite": 1,
                   "mimic": 1})
SAFE = frozenset({"hat", "chalice", "cheese", "doll"})
SCAFFOLD = ("last_request", "chain_gang", "riot", "forced_trade", "smuggler", "secret_deal", "royal_inspection",
            "town_crier", "examination", "spy", "double_wages", "bloodlust", "open_trial", "blunt_axe")
ROUND_RULES = ("double_wages", "bloodlust", "open_trial", "blunt_axe")
CENTRE = "centre"


class MatchOver(Exception):
    """The Treasury ran short or hit 0 after a payment out of it (§9.3): the match ends at once."""


@dataclass
class Table:
    n: int
    match: str
    variant: bool
    crowns: list[int]
    executioner: int
    served: list[int] = field(default_factory=list)
    stage: str = "round"  # round | successor | over
    end_reason: str | None = None
    phase: str = "draw"  # set_aside | draw | choose | call | act | execute | shield | over
    active_objects: list[str] = field(default_factory=list)
    object_deck: list[str] = field(default_factory=list)
    scaffold_deck: list[str] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)
    objects: dict[Any, str] = field(default_factory=dict)  # seat or "centre" -> card
    discarded: str | None = None
    drawn: list[str] = field(default_factory=list)
    rules: set[str] = field(default_factory=set)
    pending: tuple[str, int, str, list[int]] | None = None  # card, chooser, kind, picks
    acted: set[int] = field(default_factory=set)
    actor: int | None = None
    extra: bool = False
    executed: list[int] = field(default_factory=list)
    dead: set[int] = field(default_factory=set)
    escaped: set[int] = field(default_factory=set)
    own: int = 0
    deaths: int = 0
    bonus: int = 0
    shield_holder: int | None = None
    candidates: list[int] = field(default_factory=list)
    ending: str | None = None
    shown_objects: dict[int, str] = field(default_factory=dict)
    shown_roles: dict[int, str] = field(default_factory=dict)
    private: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # seat -> [(kind, card)] this round

    # ---------------------------------------------------------------- seating

    def prisoners(self) -> list[int]:
        """From the Executioner's left (§3)."""
        return [(self.executioner + i) % self.n for i in range(1, self.n)]

    def eligible(self) -> list[int]:
        return [p for p in self.prisoners() if p not in self.dead and p not in self.escaped]

    def treasury(self) -> int:
        return TOTAL - sum(self.crowns)

    def effective(self, p: int) -> str:
        card = self.objects[p]
        return self.objects[CENTRE] if card == "mimic" else card

    def minimum(self) -> int:
        return 2 if "bloodlust" in self.rules else 1


def clone(t: Table) -> Table:
    return copy.deepcopy(t)


# -------------------------------------------------------------------- legality


def legal(t: Table, seat: int) -> set[tuple[Any, ...]]:
    """Every decision ``seat`` may take now (the awaited seat's menu; empty for anyone else)."""
    if t.stage == "over" or seat != awaited(t):
        return set()
    if t.stage == "successor":
        return {("successor", s) for s in allowed_successors(t)}
    if t.phase == "set_aside":
        pardons = [i for i, c in enumerate(t.active_objects) if c == "pardon"]
        return {("set_aside", i) for i in range(len(t.active_objects)) if not (len(pardons) == 1 and i == pardons[0])}
    if t.phase == "draw":
        return {("draw",)}
    if t.phase == "call":
        return {("call", p) for p in t.prisoners() if p not in t.acted}
    if t.phase == "act":
        pos: list[Any] = [*t.prisoners(), CENTRE]
        return {("peek", p) for p in pos} | {("swap", *_pair(a, b)) for i, a in enumerate(pos) for b in pos[i + 1:]}
    if t.phase == "choose":
        assert t.pending is not None
        _card, chooser, kind, picks = t.pending
        ps = t.prisoners()
        if kind == "direction":
            return {("direction", "left"), ("direction", "right")}
        if kind == "pair":
            return {("pair", a, b) for a in ps for b in ps if a < b}
        if kind == "other_prisoner":
            return {("prisoner", p) for p in ps if p != picks[0]}
        return {("prisoner", p) for p in ps}
    if t.phase == "execute":
        out: set[tuple[Any, ...]] = {("chop", p) for p in t.eligible()}
        if t.own >= t.minimum():
            out.add(("stop",))
        return out
    if t.phase == "shield":
        return {("chop", c) for c in t.candidates}
    return set()


def _pair(a: Any, b: Any) -> tuple[Any, Any]:
    """A swap's two positions in one canonical order (seats ascending, the centre last)."""
    return (a, b) if (isinstance(a, str), a) < (isinstance(b, str), b) else (b, a)


def awaited(t: Table) -> int | None:
    if t.stage == "over":
        return None
    if t.stage == "successor" or t.phase in ("set_aside", "draw", "call", "execute"):
        return t.executioner
    if t.phase == "choose":
        assert t.pending is not None
        return t.pending[1]
    if t.phase == "act":
        return t.actor
    if t.phase == "shield":
        return t.shield_holder
    return None


def allowed_successors(t: Table) -> list[int]:
    out = [s for s in range(t.n) if s != t.executioner]
    return [s for s in out if s not in t.served] if t.match == "tour" else out


# -------------------------------------------------------------------- Treasury


def pay(t: Table, seat: int, amount: int) -> None:
    """From the Treasury (§9.3): capped; the match ends at once when short or when it hits 0."""
    if amount <= 0:
        return
    paid = min(amount, t.treasury())
    t.crowns[seat] += paid
    if paid < amount or t.treasury() == 0:
        raise MatchOver


def lose(t: Table, seat: int, amount: int) -> None:
    t.crowns[seat] -= min(amount, t.crowns[seat])  # R25


def steal(t: Table, jester: int, times: int) -> None:
    """JESTER_STEAL (§7.3): from every other player from the Jester's left; the Treasury covers a player at 0."""
    for i in range(1, t.n):
        q = (jester + i) % t.n
        for _ in range(times):
            if t.crowns[q] >= 1:
                t.crowns[q] -= 1
                t.crowns[jester] += 1
            else:
                pay(t, jester, 1)


# -------------------------------------------------------------------- the step


def step(t: Table, seat: int, action: tuple[Any, ...]) -> None:
    """Apply a legal ``action``; raises ``ValueError`` for an illegal one (before changing anything)."""
    if action[0] == "forfeit":
        if t.stage != "round" or t.phase != "act" or seat != t.actor:
            raise ValueError(action)
    elif (action[0], *_pair(action[1], action[2])) not in legal(t, seat) if action[0] == "swap" else \
            action not in legal(t, seat):
        raise ValueError(action)
    kind = action[0]
    try:
        if kind == "successor":
            t.executioner = action[1]
            t.stage = "round"
            t.phase = "new_round"  # the caller syncs the shuffled decks and the deal
        elif kind == "set_aside":
            t.active_objects.pop(action[1])
            t.active_objects.append(t.object_deck.pop(0))
            t.phase = "set_aside" if not SAFE & set(t.active_objects) else "deal"  # caller syncs the deal
        elif kind == "draw":
            _draw(t)
        elif kind == "call":
            t.actor, t.phase, t.extra = action[1], "act", False
        elif kind in ("peek", "swap", "forfeit"):
            _act(t, seat, action)
        elif kind in ("prisoner", "pair", "direction"):
            _choose(t, seat, action)
        elif kind == "chop":
            _chop(t, seat, action[1])
        elif kind == "stop":
            _end_safe(t)
    except MatchOver:
        t.stage, t.end_reason, t.phase = "over", "treasury_empty", "over"


def _after_card(t: Table) -> None:
    t.pending = None
    t.phase = "call" if len(t.drawn) == 1 else "execute"


def _see(t: Table, seat: int, kind: str, card: str) -> None:
    t.private.setdefault(seat, []).append((kind, card))


def _draw(t: Table) -> None:
    card = t.scaffold_deck.pop(0)
    t.drawn.append(card)
    e = t.executioner
    if card in ROUND_RULES:
        t.rules.add(card)
    elif card in ("last_request", "smuggler", "secret_deal", "spy"):
        t.pending, t.phase = (card, e, "prisoner", []), "choose"
        return
    elif card == "forced_trade":
        t.pending, t.phase = (card, e, "pair", []), "choose"
        return
    elif card == "chain_gang":
        t.pending, t.phase = (card, e, "direction", []), "choose"
        return
    elif card == "riot":
        t.phase = "riot"  # the caller syncs the shuffle
        return
    elif card == "royal_inspection":
        _see(t, e, "royal_inspection", t.objects[CENTRE])
    elif card == "examination":
        for p in t.prisoners():
            _see(t, p, "examination", t.objects[p])
    elif card == "town_crier":
        pass
    _after_card(t)


def _choose(t: Table, seat: int, action: tuple[Any, ...]) -> None:
    assert t.pending is not None
    card, _chooser, _kind, picks = t.pending
    ps = t.prisoners()
    if action[0] == "direction":
        step_ = 1 if action[1] == "left" else -1
        old = {p: t.objects[p] for p in ps}
        for i, p in enumerate(ps):
            t.objects[ps[(i + step_) % len(ps)]] = old[p]
        _after_card(t)
    elif action[0] == "pair":
        a, b = action[1], action[2]
        t.objects[a], t.objects[b] = t.objects[b], t.objects[a]
        _after_card(t)
    elif card == "last_request":
        t.pending, t.actor, t.extra, t.phase = None, action[1], True, "act"
    elif card == "smuggler":
        a = action[1]
        t.objects[a], t.objects[CENTRE] = t.objects[CENTRE], t.objects[a]
        _after_card(t)
    elif card in ("secret_deal", "spy") and not picks:
        t.pending = (card, action[1], "other_prisoner", [action[1]])
    elif card == "secret_deal":
        a, b = picks[0], action[1]
        t.objects[a], t.objects[b] = t.objects[b], t.objects[a]
        _see(t, a, "secret_deal", t.objects[a])
        _see(t, b, "secret_deal", t.objects[b])
        _after_card(t)
    elif card == "spy":
        _see(t, picks[0], "spy", t.roles[action[1]])
        _after_card(t)


def _act(t: Table, seat: int, action: tuple[Any, ...]) -> None:
    if action[0] == "swap":
        a, b = action[1], action[2]
        t.objects[a], t.objects[b] = t.objects[b], t.objects[a]
    elif action[0] == "peek":
        _see(t, seat, "peek", t.objects[action[1]])
    t.actor = None
    if t.extra:
        t.extra = False
        t.phase = "call" if len(t.drawn) == 1 else "execute"
        return
    t.acted.add(seat)
    t.phase = "draw" if len(t.acted) == len(t.prisoners()) else "call"


def _chop(t: Table, seat: int, target: int) -> None:
    if t.phase == "shield":
        t.phase, t.shield_holder, t.candidates = "execute", None, []
    else:
        t.own += 1
    if _execute(t, target) == "saboteurs":
        _end_saboteur(t)
    elif t.phase == "execute" and not t.eligible():
        _end_safe(t)


def _reveal_role(t: Table, p: int) -> None:
    t.shown_roles[p] = t.roles[p]


def _execute(t: Table, target: int) -> str:
    first = not t.executed
    t.executed.append(target)
    t.shown_objects[target] = t.objects[target]
    if "blunt_axe" in t.rules and first:
        t.escaped.add(target)
        if "open_trial" in t.rules:
            _reveal_role(t, target)
        return "ok"
    if "open_trial" in t.rules:
        _reveal_role(t, target)
    o = t.effective(target)
    if o in ("doll", "parasite", "shield"):
        t.escaped.add(target)
        if o == "doll":
            t.deaths += 1
        if o == "shield":
            cands = _shield_candidates(t, target)
            if len(cands) == 1:  # "if both walks reach the same prisoner, that prisoner" (§6)
                return _execute(t, cands[0])
            if cands:
                t.phase, t.shield_holder, t.candidates = "shield", target, cands
        return "ok"
    return _kill(t, target, o)


def _shield_candidates(t: Table, holder: int) -> list[int]:
    out: list[int] = []
    for d in (1, -1):
        for i in range(1, t.n):
            q = (holder + d * i) % t.n
            if q != t.executioner and q not in t.dead and q not in t.escaped:
                if q not in out:
                    out.append(q)
                break
    return out


def _kill(t: Table, p: int, o: str) -> str:
    t.dead.add(p)
    if t.roles[p] == "jester" and o != "cheese":
        _reveal_role(t, p)
        steal(t, p, 1)
    else:
        lose(t, p, 1)
        if t.roles[p] in ("princess", "jester"):
            _reveal_role(t, p)
        t.deaths += 1
        if o == "chalice":
            t.bonus += 1
    return "saboteurs" if o == "pardon" or t.roles[p] == "princess" else "ok"


def _end_safe(t: Table) -> None:
    for p in t.prisoners():
        if p not in t.dead and p not in t.executed and t.effective(p) == "parasite":
            t.shown_objects[p] = t.objects[p]
            if _kill(t, p, "parasite") == "saboteurs":
                _end_saboteur(t)
                return
    t.ending = "safe"
    w = 2 if "double_wages" in t.rules else 1
    pay(t, t.executioner, w * t.deaths + t.bonus)
    for p in t.prisoners():
        if p in t.dead:
            continue
        role = t.roles[p]
        if role in ("loyalist", "princess"):
            pay(t, p, t.deaths)
        elif role == "jester" and t.effective(p) == "cheese":
            if t.variant:
                steal(t, p, 2)
            else:
                pay(t, p, t.deaths)
    _round_over(t)


def _end_saboteur(t: Table) -> None:
    t.ending = "saboteurs"
    t.phase = "over"
    lose(t, t.executioner, 1)
    if t.variant:
        for p in t.prisoners():
            if p not in t.dead and t.roles[p] == "jester" and t.effective(p) == "cheese":
                steal(t, p, 2)
    for p in t.prisoners():
        if p not in t.dead and t.roles[p] == "saboteur":
            pay(t, p, 3)
    _round_over(t)


def _round_over(t: Table) -> None:
    t.phase = "over"
    t.served.append(t.executioner)
    if t.match == "tour" and not allowed_successors(t):
        t.stage, t.end_reason = "over", "tour_complete"
    else:
        t.stage = "successor"
