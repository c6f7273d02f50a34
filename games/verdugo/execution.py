"""The Execution phase and the end of a round (edition §7.3, §7.4, §9.1): EXECUTE, KILL, the Shield's walk,
END_SAFE (the Parasite, the rewards), END_SABOTEUR, REVEAL ALL.

What an execution does to its target is the ``on_execute`` kind of the target's *effective object* (§6: the
Mimic holder's is the centre card); one function per kind in :data:`ON_EXECUTE`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.verdugo.cards import obj, rewards, role
from games.verdugo.models import CENTRE, RoundState, VerdugoState
from games.verdugo.treasury import gain, lose, steal

OK, SABOTEUR_WIN = "ok", "saboteur_win"


def effective(r: RoundState, seat: int) -> str:
    """The effective object of ``seat`` (§6): the card in front of them, or the centre card for a Mimic holder."""
    card = r.objects[seat]
    assert card is not None and r.centre is not None
    return r.centre if obj(card).mirrors_centre else card


def min_executions(r: RoundState) -> int:
    """Executions the Executioner must perform himself (§7.3; Bloodlust)."""
    return rewards().bloodlust_min_executions if "bloodlust" in r.rules else rewards().min_executions


def may_stop(r: RoundState) -> bool:
    return r.own_executions >= min_executions(r)


def shield_candidates(r: RoundState, holder: int) -> list[int]:
    """The nearest eligible prisoner walking left and walking right from ``holder`` (§6 Shield, V-15), skipping
    the Executioner, dead and escaped players: ``[]``, one seat, or ``[left, right]``."""
    n = len(r.roles)
    found: list[int] = []
    for step in (1, -1):
        for i in range(1, n):
            seat = (holder + step * i) % n
            if seat != r.executioner and seat not in r.dead and seat not in r.escaped:
                if seat not in found:
                    found.append(seat)
                break
    return found


def _reveal_object(r: RoundState, seat: int, ev: list[Event], *, resolve_mimic: bool = True) -> None:
    card = r.objects[seat]
    assert card is not None
    r.shown_objects[seat] = card
    params: dict[str, object] = {"seat": seat, "object": card}
    if resolve_mimic and obj(card).mirrors_centre:
        r.centre_shown = r.centre
        params["centre"] = r.centre
    ev.append(Event(key="verdugo.reveal.object", params=params))


def _reveal_role(r: RoundState, seat: int, ev: list[Event]) -> None:
    if r.shown_roles[seat] is None:
        r.shown_roles[seat] = r.roles[seat]
        ev.append(Event(key="verdugo.reveal.role", params={"seat": seat, "role": r.roles[seat]}))


def _escape(r: RoundState, seat: int, ev: list[Event], why: str) -> None:
    r.escaped.append(seat)
    ev.append(Event(key=f"verdugo.escaped.{why}", params={"seat": seat}))


def _escape_counted(s: VerdugoState, seat: int, by: int, ev: list[Event]) -> str:
    """The Doll (R4): escapes, counted as one death."""
    s.round.deaths += 1
    _escape(s.round, seat, ev, "doll")
    return OK


def _escape_plain(s: VerdugoState, seat: int, by: int, ev: list[Event]) -> str:
    """The Parasite (R6): escapes, nothing counted."""
    _escape(s.round, seat, ev, "parasite")
    return OK


def _escape_and_pass_axe(s: VerdugoState, seat: int, by: int, ev: list[Event]) -> str:
    """The Shield (R5): escapes and must execute an adjacent eligible prisoner; with two candidates the round
    waits for the holder's choice (phase ``shield``)."""
    r = s.round
    _escape(r, seat, ev, "shield")
    candidates = shield_candidates(r, seat)
    if not candidates:
        ev.append(Event(key="verdugo.shield.no_candidate", params={"seat": seat}))
        return OK
    if len(candidates) == 1:
        return execute(s, candidates[0], seat, ev)
    r.phase, r.shield_holder, r.shield_candidates = "shield", seat, candidates
    ev.append(Event(key="verdugo.shield.choose", params={"seat": seat, "left_seat": candidates[0],
                                                         "right_seat": candidates[1]}))
    return OK


def _die(s: VerdugoState, seat: int, by: int, ev: list[Event]) -> str:
    return kill(s, seat, effective(s.round, seat), ev)


ON_EXECUTE: dict[str, Callable[[VerdugoState, int, int, list[Event]], str]] = {
    "die": _die, "escape": _escape_plain, "escape_counted": _escape_counted,
    "escape_and_pass_axe": _escape_and_pass_axe,
}


def execute(s: VerdugoState, target: int, by: int, ev: list[Event]) -> str:
    """EXECUTE(t) by the Executioner or a Shield holder ``by`` (§7.3). Returns ``OK`` or ``SABOTEUR_WIN``."""
    r = s.round
    r.executed.append(target)
    ev.append(Event(key="verdugo.chop", params={"seat": target, "by_seat": by}))
    if "blunt_axe" in r.rules and len(r.executed) == 1:
        _reveal_object(r, target, ev, resolve_mimic=False)
        _escape(r, target, ev, "test_cut")
        if "open_trial" in r.rules:
            _reveal_role(r, target, ev)
        return OK
    _reveal_object(r, target, ev)
    if "open_trial" in r.rules:
        _reveal_role(r, target, ev)
    return ON_EXECUTE[obj(effective(r, target)).on_execute](s, target, by, ev)


def kill(s: VerdugoState, seat: int, effective_object: str, ev: list[Event]) -> str:
    """KILL(t, o), the only way anyone dies (§7.3): R1/R2/R3/R8, then R10/R11."""
    r = s.round
    r.dead.append(seat)
    card, who = obj(effective_object), role(r.roles[seat] or "")
    ev.append(Event(key="verdugo.died", params={"seat": seat}))
    if who.steals_on_death and not card.makes_jester_ordinary:
        _reveal_role(r, seat, ev)
        steal(s, seat, rewards().jester_steal, ev)
    else:
        lose(s, seat, rewards().death_loss, ev)
        if who.reveal_on_death:
            _reveal_role(r, seat, ev)
        r.deaths += 1
        r.chalice_bonus += card.chalice_bonus
    if card.death_makes_saboteurs_win or who.death_makes_saboteurs_win:
        return SABOTEUR_WIN
    return OK


def _cheese_jester(r: RoundState, seat: int) -> bool:
    return role(r.roles[seat] or "").steals_on_death and obj(effective(r, seat)).makes_jester_ordinary


def end_safe(s: VerdugoState, ev: list[Event]) -> None:
    """END_SAFE (§7.4): the Parasite, then the Executioner's W×D + C, then each living prisoner's pay."""
    r = s.round
    for seat in r.prisoners():
        if seat in r.dead or seat in r.executed or not obj(effective(r, seat)).kills_at_safe_end:
            continue
        _reveal_object(r, seat, ev)
        ev.append(Event(key="verdugo.parasite", params={"seat": seat}))
        if kill(s, seat, effective(r, seat), ev) == SABOTEUR_WIN:
            end_saboteur(s, ev)
            return
    r.ending = "safe"
    ev.append(Event(key="verdugo.end.safe", params={"deaths": r.deaths, "bonus": r.chalice_bonus}))
    per_death = rewards().double_wages_per_death if "double_wages" in r.rules else rewards().executioner_per_death
    gain(s, r.executioner, per_death * r.deaths + r.chalice_bonus, ev)
    for seat in r.prisoners():
        if seat in r.dead:
            continue
        if _cheese_jester(r, seat):
            if s.options.cheese_variant:
                steal(s, seat, rewards().cheese_variant_steal, ev)
            else:
                gain(s, seat, r.deaths, ev)
        elif role(r.roles[seat] or "").safe_reward == "per_death":
            gain(s, seat, r.deaths, ev)


def end_saboteur(s: VerdugoState, ev: list[Event]) -> None:
    """END_SABOTEUR (§7.4): the Executioner −1, the Cheese variant's steal, +3 to each living Saboteur."""
    r = s.round
    r.ending = "saboteurs"
    ev.append(Event(key="verdugo.end.saboteurs", params={"seat": r.executioner}))
    lose(s, r.executioner, -rewards().executioner_saboteur_win, ev)
    if s.options.cheese_variant:
        for seat in r.prisoners():
            if seat not in r.dead and _cheese_jester(r, seat):
                steal(s, seat, rewards().cheese_variant_steal, ev)
    for seat in r.prisoners():
        if seat not in r.dead:
            gain(s, seat, role(r.roles[seat] or "").saboteur_win_reward, ev)


def reveal_all(s: VerdugoState, ev: list[Event]) -> None:
    """REVEAL ALL (§7.4): every role and current object, the centre, the discarded role, the Crown changes."""
    r = s.round
    r.phase = "over"
    ev.append(Event(key="verdugo.reveal.all", params={
        "round": r.number, "roles": list(r.roles), "objects": list(r.objects), "centre": r.centre or CENTRE,
        "discarded_role": r.discarded_role, "deltas": [c - b for c, b in zip(s.crowns, r.start_crowns, strict=True)],
        "crowns": list(s.crowns)}))
