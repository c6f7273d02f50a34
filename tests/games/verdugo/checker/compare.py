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
from games.verdugo.models import (
    Call,
    ChooseDirection,
    ChoosePair,
    ChoosePrisoner,
    Chop,
    Draw,
    EndMatch,
    Forfeit,
    Peek,
    SetAside,
    Stop,
    Successor,
    Swap,
)
from tests.games.verdugo.checker import model
from tests.games.verdugo.checker.model import CENTRE, OBJECTS, ROLES, SAFE, SCAFFOLD, Table

#: public events that may carry an object or role id without naming a revealed card: the active lists and the
#: safe-object set-aside (both public, §4 step 7) and REVEAL ALL
PUBLIC_LISTS = ("verdugo.round.active", "verdugo.setup.set_aside", "verdugo.reveal.all")


def to_engine(action: tuple[Any, ...]) -> Any:
    kind = action[0]
    return {
        "successor": lambda: Successor(seat=action[1]), "set_aside": lambda: SetAside(index=action[1]),
        "draw": Draw, "call": lambda: Call(seat=action[1]), "peek": lambda: Peek(position=action[1]),
        "swap": lambda: Swap(a=action[1], b=action[2]), "forfeit": Forfeit,
        "prisoner": lambda: ChoosePrisoner(seat=action[1]), "pair": lambda: ChoosePair(a=action[1], b=action[2]),
        "direction": lambda: ChooseDirection(direction=action[1]), "chop": lambda: Chop(seat=action[1]),
        "stop": Stop, "end_match": EndMatch,
    }[kind]()


def from_engine(a: Any) -> tuple[Any, ...]:
    d = a.model_dump(mode="json")
    kind = d.pop("type")
    names = {"successor": "successor", "set_aside": "set_aside", "draw": "draw", "call": "call", "peek": "peek",
             "swap": "swap", "forfeit": "forfeit", "choose_prisoner": "prisoner", "choose_pair": "pair",
             "choose_direction": "direction", "chop": "chop", "stop": "stop", "end_match": "end_match"}
    out = (names[kind], *d.values())
    if out[0] in ("swap", "pair"):  # unordered
        a_, b_ = out[1], out[2]
        key = sorted([a_, b_], key=lambda x: (isinstance(x, str), x))
        out = (out[0], *key)
    return out


def norm(actions: set[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    out = set()
    for a in actions:
        if a[0] in ("swap", "pair"):
            key = sorted([a[1], a[2]], key=lambda x: (isinstance(x, str), x))
            a = (a[0], *key)
        out.add(a)
    return out


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


def compare(t: Table, s: VerdugoState, where: str) -> list[str]:
    """The model's facts vs the engine state's."""
    r = s.round
    errs = []

    def chk(name: str, mine: Any, theirs: Any) -> None:
        if mine != theirs:
            errs.append(f"{where}: {name}: checker {mine!r} engine {theirs!r}")

    chk("crowns", t.crowns, s.crowns)
    chk("treasury>=0", True, 80 - sum(s.crowns) >= 0)
    chk("stage", t.stage, s.phase)
    if t.stage == "over":
        chk("end_reason", t.end_reason, s.end_reason)
        return errs
    if t.stage == "successor":
        chk("served", t.served, s.served)
        return errs
    chk("phase", t.phase, r.phase)
    chk("executioner", t.executioner, r.executioner)
    if t.phase == "set_aside":
        chk("active_objects", t.active_objects, r.active_objects)
        return errs
    chk("objects", t.objects, {p: r.objects[p] for p in t.prisoners()} | {CENTRE: r.centre})
    chk("drawn", t.drawn, r.drawn)
    chk("rules", t.rules, set(r.rules))
    chk("acted", t.acted, set(r.acted))
    chk("dead", t.dead, set(r.dead))
    chk("escaped", t.escaped, set(r.escaped))
    chk("executed", t.executed, list(r.executed))
    chk("own_executions", t.own, r.own_executions)
    chk("D", t.deaths, r.deaths)
    chk("C", t.bonus, r.chalice_bonus)
    chk("shown_objects", t.shown_objects, {p: c for p, c in enumerate(r.shown_objects) if c is not None})
    chk("shown_roles", t.shown_roles, {p: c for p, c in enumerate(r.shown_roles) if c is not None})
    if t.phase == "shield":
        chk("shield", (t.shield_holder, sorted(t.candidates)), (r.shield_holder, sorted(r.shield_candidates)))
    return errs


def check_views(t: Table, s: VerdugoState, where: str) -> list[str]:
    """§12: nothing hidden in the public view; each seat's private block holds exactly what the model says."""
    errs = []
    public = ENGINE.view(s, None)
    if "you" in public:
        errs.append(f"{where}: public view has a 'you' block")
    if t.stage == "round" and t.phase not in ("over", "set_aside") and public.get("reveal") is not None:
        errs.append(f"{where}: public view reveals all before the round is over")
    hidden = {repr(t.objects.get(CENTRE)), repr(t.discarded)}
    blob = repr({k: v for k, v in public.items() if k not in ("active_roles", "active_objects", "set_aside",
                                                               "shown_objects", "shown_roles", "centre_shown",
                                                               "crier", "reveal", "drawn", "rules", "pending",
                                                               "round_phase", "menu")})
    if t.stage == "round" and t.phase not in ("set_aside", "over"):
        for h in hidden:
            if h != "None" and h in blob:
                errs.append(f"{where}: public view leaks {h}")
    if t.stage != "round" or t.phase in ("set_aside", "over"):
        return errs
    for p in t.prisoners():
        full = ENGINE.view(s, p)
        you = full.pop("you", {})
        if full != public:
            errs.append(f"{where}: seat {p}'s view differs from the public one outside its own block")
        if t.drawn and you.get("dealt") is not None:
            errs.append(f"{where}: seat {p} still sees the dealt object after the deal (§4 step 10, B-2)")
        if you.get("role") != t.roles[p]:
            errs.append(f"{where}: seat {p} view role {you.get('role')} != {t.roles[p]}")
        mine = [c for k, c in t.private.get(p, []) if k != "dealt"]
        seen = [x["card"] for x in you.get("seen", [])]
        if Counter(mine) != Counter(seen):
            errs.append(f"{where}: seat {p} privately saw {seen}, checker says {mine}")
    ev = ENGINE.view(s, t.executioner).get("you", {})
    if ev.get("role") is not None:
        errs.append(f"{where}: the Executioner has a role in his view")
    mine = [c for k, c in t.private.get(t.executioner, [])]
    if Counter(mine) != Counter(x["card"] for x in ev.get("seen", [])):
        errs.append(f"{where}: Executioner privately saw {ev.get('seen')}, checker says {mine}")
    return errs


def check_events(before: Table, t: Table, events: list[Any], where: str) -> list[str]:
    """§12 on the events of one step: a public event names a card only when the model says it is revealed (an
    executed prisoner's object, and the centre exactly when a Mimic resolves; a role the model reveals; the Town
    Crier's centre card); a private event goes to one seat."""
    errs = []
    ids = set(OBJECTS) | set(ROLES)
    looks = Counter((q, k, c) for q, seen in t.private.items() for k, c in seen[len(before.private.get(q, [])):]
                   if k != "dealt")
    got: Counter[tuple[int, str, str]] = Counter()
    for i, e in enumerate(events):
        if not e.audience.is_public:
            if len(e.audience.seats) != 1:
                errs.append(f"{where}: private event {e.key} to {e.audience.seats}")
            elif e.key != "verdugo.you.dealt":
                got[(e.audience.seats[0], e.key.removeprefix("verdugo.you."), e.params.get("card"))] += 1
            if e.key == "verdugo.you.peek" and not any(x.key == "verdugo.action.peek" for x in events[:i]):
                errs.append(f"{where}: a Peek's content is sent before the public Peek line (§12)")
            continue
        prm = e.params
        if e.key in PUBLIC_LISTS:
            if e.key == "verdugo.reveal.all":
                if t.phase != "over" and t.stage == "round":
                    errs.append(f"{where}: REVEAL ALL before the round is over")
                want: Any = ([t.roles.get(q) for q in range(t.n)], [t.objects.get(q) for q in range(t.n)],
                        t.objects[CENTRE], t.discarded)
                shown = (prm.get("roles"), prm.get("objects"), prm.get("centre"), prm.get("discarded_role"))
                if shown != want:
                    errs.append(f"{where}: REVEAL ALL {shown}, checker {want}")
            continue
        if e.key == "verdugo.reveal.object":
            seat = prm["seat"]
            test_cut = "blunt_axe" in t.rules and t.executed[:1] == [seat]
            want = {"seat": seat, "object": t.objects[seat]}
            if t.objects[seat] == "mimic" and not test_cut:
                want["centre"] = t.objects[CENTRE]  # §6 Mimic, V-31
            if prm != want:
                errs.append(f"{where}: reveal {prm}, checker {want}")
        elif e.key == "verdugo.reveal.role":
            if t.shown_roles.get(prm["seat"]) != prm["role"]:
                errs.append(f"{where}: role reveal {prm} not allowed (checker shows {t.shown_roles})")
        elif e.key == "verdugo.scaffold.cried":
            if prm.get("object") != before.objects[CENTRE]:
                errs.append(f"{where}: Town Crier showed {prm}, centre {before.objects[CENTRE]}")
        else:
            vals = {v for v in prm.values() if isinstance(v, str)}
            if vals & ids:
                errs.append(f"{where}: public event {e.key} carries {vals & ids}")
    if got != looks:
        errs.append(f"{where}: private looks sent {dict(got)}, checker {dict(looks)}")
    return errs


def check_timeout(t: Table, s: VerdugoState, where: str) -> list[str]:
    """V-39 and §4 step 6 for what the bot plays for an absent player: a prisoner's action is forfeited, the
    set-aside is the newest allowed card, everything else is a legal decision of the awaited seat. (The
    Executioner's chop/stop is README ruling B-1, a documented departure from V-39: only legality is checked.)"""
    got = ENGINE.timeout_action(s)
    want = model.awaited(t)
    if got is None:
        return [] if want is None else [f"{where}: no timeout action while {want} is awaited"]
    seat, action = got
    a = from_engine(action)
    if seat != want:
        return [f"{where}: timeout plays seat {seat}, checker awaits {want}"]
    if t.phase == "act" and t.stage == "round":
        return [] if a == ("forfeit",) else [f"{where}: a prisoner's timeout plays {a}, not no action (V-39)"]
    if t.phase == "set_aside" and t.stage == "round":
        newest = max(i for (_k, i) in model.legal(t, want))
        return [] if a == ("set_aside", newest) else [f"{where}: set-aside timeout {a}, newest allowed {newest}"]
    return [] if a in norm(model.legal(t, want)) else [f"{where}: timeout plays illegal {a}"]


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
                  ("prisoner", t.executioner), ("successor", t.executioner), ("set_aside", 99)]
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
            for seat, act in illegal_probe(t, s, rng):
                rep.illegal_tried += 1
                try:
                    ENGINE.apply(s, seat, act)
                    p.append(f"{where}: engine accepted {act!r} by seat {seat}, checker refuses it")
                except IllegalAction:
                    pass
        if t.stage == "successor" and match == "open" and rng.random() < 0.2:
            action: tuple[Any, ...] = ("end_match",)
            before = model.clone(t)
            step = ENGINE.apply(s, SYSTEM_SEAT, EndMatch())
            t.stage, t.end_reason = "over", "host_ended"
        else:
            if t.stage == "round" and t.phase == "act" and rng.random() < 0.1:
                action = ("forfeit",)
            else:
                action = rng.choice(sorted(mine, key=repr))
            step = ENGINE.apply(s, want, to_engine(action))
            before = model.clone(t)
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
            model._after_card(t)
        errs = compare(t, s, f"{where} after {action}") + check_events(before, t, list(step.events), where)
        if k % 3 == 0:
            errs += check_views(t, s, where)
        if errs:
            p += errs
            break
    out = ENGINE.outcome(s)
    if t.stage == "over":
        best = max(s.crowns)
        if out is None or sorted(out.winners) != [i for i, c in enumerate(s.crowns) if c == best]:
            p.append(f"seed {seed} N={n}: outcome {out} (R27)")
    return rep
