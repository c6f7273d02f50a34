"""The checks of one engine step against the checker's model: the state's facts, the events (§12 visibility and
the content of every reveal and private look), the views, the deal's private messages and the timeout move.

Each function returns a list of disagreements (empty when the engine agrees), each naming where it happened.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.verdugo import ENGINE, VerdugoState
from tests.games.verdugo.checker import model
from tests.games.verdugo.checker.convert import from_engine, norm
from tests.games.verdugo.checker.table import CENTRE, OBJECTS, ROLES, Table

#: public events that may carry an object or role id without naming a revealed card: the active lists and the
#: safe-object set-aside (both public, §4 step 7) and REVEAL ALL
PUBLIC_LISTS = ("verdugo.round.active", "verdugo.setup.set_aside", "verdugo.reveal.all")


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


def check_deal_events(t: Table, events: list[Any]) -> list[str]:
    """§4 step 10: once dealt, each prisoner alone is shown their role and dealt object, once."""
    if t.phase != "draw":
        return []
    got = sorted((e.audience.seats, e.params.get("role"), e.params.get("object")) for e in events
                 if e.key == "verdugo.you.dealt")
    want = sorted(((p,), t.roles[p], t.objects[p]) for p in t.prisoners())
    return [] if got == want else [f"deal DMs {got}, checker {want}"]


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
