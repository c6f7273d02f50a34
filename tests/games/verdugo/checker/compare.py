"""Drive the engine through its public API and compare every step with the checker's model.

:func:`play` plays one seeded random legal match and returns the disagreements found (strings naming the seed,
the step and the field). The model carries its own state from step to step; only shuffles are synced from the
engine (the deal, the decks, the Riot), after checking that they are a permutation of what they must be.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.core import SYSTEM_SEAT, IllegalAction, SeatInfo
from games.verdugo import ENGINE, VerdugoOptions, VerdugoState
from games.verdugo.models import EndMatch
from tests.games.verdugo.checker import model
from tests.games.verdugo.checker.checks import (
    check_deal_events,
    check_events,
    check_timeout,
    check_views,
    compare,
)
from tests.games.verdugo.checker.convert import from_engine, norm, to_engine
from tests.games.verdugo.checker.table import CENTRE, OBJECTS, ROLES, SAFE, SCAFFOLD, Table, clone


def sync_round(t: Table, s: VerdugoState) -> list[str]:
    """Take a new round's shuffles from the engine, checking them against §4. Returns the problems found."""
    r = s.round
    errs: list[str] = []
    n = t.n
    t.executioner = r.executioner
    if Counter(r.active_roles) - ROLES or len(r.active_roles) != n:
        errs.append(f"setup: active roles {r.active_roles}")
    pool = Counter(r.active_objects) + Counter(r.set_aside) + Counter(r.object_deck)
    if pool != OBJECTS:
        errs.append(f"setup: objects not the 13-card deck {pool}")
    if len(r.active_objects) != n or "pardon" not in r.active_objects:
        errs.append(f"setup: active objects {r.active_objects} (N={n}, §4 steps 3-4)")
    if sorted(r.scaffold_deck + r.drawn) != sorted(SCAFFOLD):
        errs.append("setup: Scaffold deck is not the 14 cards")
    t.active_objects, t.object_deck = list(r.active_objects), list(r.object_deck)
    t.scaffold_deck = list(r.scaffold_deck)
    fresh = Table(n=n, match=t.match, variant=t.variant, crowns=t.crowns, executioner=r.executioner, served=t.served,
                  stage=t.stage, active_objects=t.active_objects, object_deck=t.object_deck,
                  scaffold_deck=t.scaffold_deck)
    t.__dict__.update(fresh.__dict__)
    if not SAFE & set(r.active_objects):
        t.phase = "set_aside"
        if n >= 7:
            errs.append("setup: safe-object loop at N >= 7 (§2)")
        return errs
    errs += sync_deal(t, s)
    return errs


def sync_deal(t: Table, s: VerdugoState) -> list[str]:
    r = s.round
    errs = []
    if not SAFE & set(r.active_objects):
        errs.append(f"deal: no safe object among {r.active_objects} (§4 step 6)")
    roles = [r.roles[p] for p in t.prisoners()] + [r.discarded_role]
    objs = [r.objects[p] for p in t.prisoners()] + [r.centre]
    if Counter(roles) != Counter(r.active_roles) or Counter(objs) != Counter(r.active_objects):
        errs.append("deal: dealt cards are not the active cards (§4 steps 8-9)")
    if r.roles[t.executioner] is not None or r.objects[t.executioner] is not None:
        errs.append("deal: the Executioner holds a card (§4)")
    t.roles = {p: r.roles[p] for p in t.prisoners()}
    t.objects = {p: r.objects[p] for p in t.prisoners()} | {CENTRE: r.centre}
    t.discarded = r.discarded_role
    t.active_objects = list(r.active_objects)
    t.phase = "draw"
    for p in t.prisoners():
        t.private[p] = [("dealt", t.objects[p])]
    return errs


@dataclass
class Report:
    matches: int = 0
    steps: int = 0
    illegal_tried: int = 0
    problems: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)  # event keys and Scaffold cards met: what was exercised


def new_table(s: VerdugoState) -> Table:
    o = s.options
    t = Table(n=len(s.seats), match=o.match, variant=o.cheese_variant, crowns=list(s.crowns),
              executioner=s.round.executioner)
    return t


def illegal_probe(t: Table, s: VerdugoState, rng: random.Random) -> list[tuple[int, Any]]:
    """A few actions the model refuses: wrong seat, wrong kind, bad targets."""
    out: list[tuple[int, Any]] = []
    want = model.awaited(t)
    other = rng.choice([x for x in range(t.n) if x != want]) if want is not None else 0
    legal = model.legal(t, want) if want is not None else set()
    if legal:
        out.append((other, to_engine(rng.choice(sorted(legal, key=repr)))))
    candidates = [("chop", t.executioner), ("chop", rng.randrange(t.n)), ("stop",), ("draw",), ("call", t.executioner),
                  ("swap", t.executioner, CENTRE), ("peek", t.executioner), ("swap", CENTRE, CENTRE),
                  ("prisoner", t.executioner), ("successor", t.executioner), ("set_aside", 99),
                  ("call", rng.randrange(t.n)), ("peek", t.n + 1), ("chop", t.n + 2), ("direction", "left"),
                  ("pair", 1 + rng.randrange(t.n - 1), 1 + rng.randrange(t.n - 1)), ("prisoner", rng.randrange(t.n)),
                  ("successor", rng.randrange(t.n)), ("set_aside", rng.randrange(t.n))]
    # §9.4 / B-4: only the host (the system seat) ends a match, only an `open` one, only between rounds
    if t.stage != "successor" or t.match != "open":
        out.append((SYSTEM_SEAT, EndMatch()))
    out.append((rng.randrange(t.n), EndMatch()))
    for c in candidates:
        if want is not None and norm({c}) - norm(legal) and not (c[0] == "forfeit"):
            try:
                out.append((want, to_engine(c)))
            except Exception:  # noqa: BLE001 - pydantic refuses it already: fine
                pass
    return out


def perturb(s: VerdugoState, rng: random.Random) -> VerdugoState:
    """A harder position for the same round, right after the deal: the dealt roles (with the discard) and objects
    (with the centre) permuted, and the Crowns pushed so that the Treasury holds 1-4 and some players hold 0
    (corner cases random play rarely reaches: steals covered by the Treasury, the Treasury running dry)."""
    s = s.model_copy(deep=True)
    r = s.round
    ps = [(r.executioner + i) % len(s.seats) for i in range(1, len(s.seats))]
    roles = [r.roles[p] for p in ps] + [r.discarded_role]
    objs = [r.objects[p] for p in ps] + [r.centre]
    rng.shuffle(roles)
    rng.shuffle(objs)
    for i, p in enumerate(ps):
        r.roles[p], r.objects[p] = roles[i], objs[i]
    r.discarded_role, r.centre = roles[-1], objs[-1]
    if rng.random() < 0.5:
        crowns = [rng.choice([0, 0, 1, 2, 9]) for _ in s.seats]
        rich = rng.randrange(len(s.seats))
        crowns[rich] += max(0, 80 - rng.randint(1, 4) - sum(crowns))
        s.crowns = crowns
    return s


def play(n: int, seed: int, match: str = "tour", variant: bool = False, max_steps: int = 3000,
         probes: bool = True, stress: bool = False) -> Report:
    rep = Report(matches=1)
    rng = random.Random(seed * 7919 + n)
    s = ENGINE.setup(VerdugoOptions(match=match, cheese_variant=variant), [SeatInfo(names=(f"p{i}",))
                                                                           for i in range(n)], seed)
    t = new_table(s)
    p = rep.problems
    if s.crowns != [5] * n:
        p.append(f"seed {seed} N={n}: start Crowns {s.crowns} (§4: 5 each)")
    p += [f"seed {seed} N={n} {e}" for e in sync_round(t, s)]
    p += [f"seed {seed} N={n}: {e}" for e in check_deal_events(t, ENGINE.intro(s))]
    if stress and t.phase == "draw":
        s = perturb(s, rng)
        t.crowns = list(s.crowns)
        sync_deal(t, s)
    for k in range(max_steps):
        where = f"seed {seed} N={n} {match}{' variant' if variant else ''} step {k}"
        w = ENGINE.waiting(s)
        want = model.awaited(t)
        if (w.seats[0] if w else None) != want:
            p.append(f"{where}: awaited checker {want} engine {w}")
            break
        if want is None:
            break
        theirs = {from_engine(a) for a in ENGINE.legal_actions(s, want)}
        mine = norm(model.legal(t, want))
        if theirs != mine:
            p.append(f"{where}: legal actions differ in phase {t.phase}: only checker {sorted(mine - theirs, key=repr)}"
                     f" only engine {sorted(theirs - mine, key=repr)}")
            break
        p += check_timeout(t, s, where)
        for other in range(n):
            if other != want and ENGINE.legal_actions(s, other):
                p.append(f"{where}: seat {other} has legal actions while {want} is awaited")
        if probes and rng.random() < 0.3:
            frozen = s.model_dump()
            for seat, act in illegal_probe(t, s, rng):
                rep.illegal_tried += 1
                try:
                    ENGINE.apply(s, seat, act)
                    p.append(f"{where}: engine accepted {act!r} by seat {seat}, checker refuses it")
                except IllegalAction:
                    pass
            if s.model_dump() != frozen:
                p.append(f"{where}: a refused action changed the state")
        if t.stage == "successor" and match == "open" and rng.random() < 0.2:
            action: tuple[Any, ...] = ("end_match",)
            before = clone(t)
            step = ENGINE.apply(s, SYSTEM_SEAT, EndMatch())
            t.stage, t.end_reason = "over", "host_ended"
        else:
            if t.stage == "round" and t.phase == "act" and rng.random() < 0.1:
                action = ("forfeit",)
            else:
                action = rng.choice(sorted(mine, key=repr))
            step = ENGINE.apply(s, want, to_engine(action))
            before = clone(t)
            model.step(t, want, action)
        rep.steps += 1
        rep.seen.update(e.key for e in step.events)
        if action == ("draw",):
            rep.seen[f"card.{t.drawn[-1]}"] += 1
        s = step.state
        if t.phase == "new_round" and t.stage == "round":
            p += [f"{where}: {e}" for e in sync_round(t, s)]
        elif t.phase == "deal":
            p += [f"{where}: {e}" for e in sync_deal(t, s)]
        if action[0] in ("successor", "set_aside") and t.phase == "draw":
            p += [f"{where}: {e}" for e in check_deal_events(t, list(step.events))]
        if stress and t.stage == "round" and t.phase == "draw" and not t.drawn:
            s = perturb(s, rng)
            t.crowns = list(s.crowns)
            sync_deal(t, s)
        elif t.phase == "riot":
            cards = Counter(t.objects.values())
            after = {q: s.round.objects[q] for q in t.prisoners()} | {CENTRE: s.round.centre}
            if Counter(after.values()) != cards:
                p.append(f"{where}: Riot changed the cards {cards} -> {after}")
            t.objects = after
            model.after_card(t)
        errs = compare(t, s, f"{where} after {action}") + check_events(before, t, list(step.events), where)
        if k % 3 == 0:
            errs += check_views(t, s, where)
        if errs:
            p += errs
            break
    out = ENGINE.outcome(s)
    if t.stage == "over":
        best = max(s.crowns)
        if out is None or sorted(out.winners) != [i for i, c in enumerate(s.crowns) if c == best] or \
                out.scores != {i: float(c) for i, c in enumerate(t.crowns)}:
            p.append(f"seed {seed} N={n}: outcome {out} (R27)")
    return rep
