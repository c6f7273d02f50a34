"""The checker's own model of a Verdugo match (see RULES.md), written from the rulebook and the card edition only:
who is awaited, what they may decide, and what each decision does (setup's set-aside, Scaffold cards, actions;
the Execution phase is in ``execution``).

:func:`legal` lists the decisions a seat may take and :func:`step` applies one to a :class:`Table`, mutating it.
Shuffles (a new round's decks and deal, the Riot) are left as phases ``new_round``, ``deal`` and ``riot`` for the
caller to sync from the engine (``compare.sync_round``, ``compare.sync_deal``). Positions are a seat or
``"centre"``; actions are tuples such as ``("chop", 3)``, ``("swap", 1, "centre")``, ``("stop",)``.
"""

from __future__ import annotations

from typing import Any

from tests.games.verdugo.checker.execution import chop, end_safe
from tests.games.verdugo.checker.table import CENTRE, ROUND_RULES, SAFE, MatchOver, Table, allowed_successors

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
            chop(t, action[1])
        elif kind == "stop":
            end_safe(t)
    except MatchOver:
        t.stage, t.end_reason, t.phase = "over", "treasury_empty", "over"


def after_card(t: Table) -> None:
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
    after_card(t)


def _choose(t: Table, seat: int, action: tuple[Any, ...]) -> None:
    assert t.pending is not None
    card, _chooser, _kind, picks = t.pending
    ps = t.prisoners()
    if action[0] == "direction":
        step_ = 1 if action[1] == "left" else -1
        old = {p: t.objects[p] for p in ps}
        for i, p in enumerate(ps):
            t.objects[ps[(i + step_) % len(ps)]] = old[p]
        after_card(t)
    elif action[0] == "pair":
        a, b = action[1], action[2]
        t.objects[a], t.objects[b] = t.objects[b], t.objects[a]
        after_card(t)
    elif card == "last_request":
        t.pending, t.actor, t.extra, t.phase = None, action[1], True, "act"
    elif card == "smuggler":
        a = action[1]
        t.objects[a], t.objects[CENTRE] = t.objects[CENTRE], t.objects[a]
        after_card(t)
    elif card in ("secret_deal", "spy") and not picks:
        t.pending = (card, action[1], "other_prisoner", [action[1]])
    elif card == "secret_deal":
        a, b = picks[0], action[1]
        t.objects[a], t.objects[b] = t.objects[b], t.objects[a]
        _see(t, a, "secret_deal", t.objects[a])
        _see(t, b, "secret_deal", t.objects[b])
        after_card(t)
    elif card == "spy":
        _see(t, picks[0], "spy", t.roles[action[1]])
        after_card(t)


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


