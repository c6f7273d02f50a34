"""The checker's Execution phase and round endings (edition §6, §7.3, §7.4): EXECUTE, the Shield, KILL,
END_SAFE, END_SABOTEUR."""

from __future__ import annotations

from tests.games.verdugo.checker.table import Table, allowed_successors, lose, pay, steal


def chop(t: Table, target: int) -> None:
    """A chop by the Executioner, or by the Shield holder in phase ``shield`` (§7.3)."""
    if t.phase == "shield":
        t.phase, t.shield_holder, t.candidates = "execute", None, []
    else:
        t.own += 1
    if _execute(t, target) == "saboteurs":
        _end_saboteur(t)
    elif t.phase == "execute" and not t.eligible():
        end_safe(t)


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


def end_safe(t: Table) -> None:
    """END_SAFE (§7.4)."""
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
