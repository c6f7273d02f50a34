"""The Action phase (edition §4 step 6, §7.2, §8): the safe-object set-aside, the Scaffold draws and their choices,
the Executioner's calls and each prisoner's Swap, Peek or (on timeout) no action. Handlers mutate the engine's
working copy of the state and raise :class:`~games.core.IllegalAction` before changing anything."""

from __future__ import annotations

from typing import Any

from games.core import Event, IllegalAction
from games.verdugo import execution, setup
from games.verdugo.cards import scaffold
from games.verdugo.models import (
    CENTRE,
    Call,
    ChooseDirection,
    ChoosePair,
    ChoosePrisoner,
    Draw,
    Forfeit,
    Peek,
    Pending,
    RoundState,
    Seen,
    SetAside,
    Swap,
    VerdugoState,
)
from games.verdugo.scaffold import EFFECTS, card_at, see, swap


def choices(r: RoundState) -> list[Any]:
    """The legal answers to the pending Scaffold card's choice (never the Executioner, RB §2)."""
    pending = r.pending
    assert pending is not None
    prisoners = r.prisoners()
    if pending.kind == "prisoner":
        return [ChoosePrisoner(seat=p) for p in prisoners]
    if pending.kind == "other_prisoner":
        return [ChoosePrisoner(seat=p) for p in prisoners if p != pending.picks[0]]
    if pending.kind == "pair":
        return [ChoosePair(a=a, b=b) for i, a in enumerate(prisoners) for b in prisoners[i + 1:]]
    return [ChooseDirection(direction="left"), ChooseDirection(direction="right")]


def set_aside(s: VerdugoState, seat: int, action: SetAside, ev: list[Event]) -> None:
    """Codes: ``verdugo.cannot_set_aside`` (index)."""
    if action.index not in setup.set_aside_allowed(s.round):
        raise IllegalAction("verdugo.cannot_set_aside", index=action.index)
    setup.set_aside(s, action.index, ev)
    if s.round.phase == "draw":
        setup.finish_setup(s, ev)

def draw(s: VerdugoState, seat: int, action: Draw, ev: list[Event]) -> None:
    r = s.round
    card = scaffold(r.scaffold_deck.pop(0))
    r.drawn.append(card.id)
    ev.append(Event(key="verdugo.scaffold.drawn", params={"card": card.id, "number": len(r.drawn)}))
    effect = EFFECTS[card.effect]
    if effect.steps:
        r.phase = "choose"
        r.pending = Pending(card=card.id, chooser=r.executioner, kind=effect.steps[0])
        return
    if effect.resolve(s, card, [], None, ev):
        after_card(s, ev)

def choose(s: VerdugoState, seat: int, action: Any, ev: list[Event]) -> None:
    """Codes: ``verdugo.wrong_choice`` (the expected kind), ``verdugo.not_a_prisoner`` (seat),
    ``verdugo.same_prisoner``."""
    r = s.round
    pending = r.pending
    assert pending is not None
    kinds = {"prisoner": ChoosePrisoner, "other_prisoner": ChoosePrisoner, "pair": ChoosePair,
             "direction": ChooseDirection}
    if not isinstance(action, kinds[pending.kind]):
        raise IllegalAction("verdugo.wrong_choice", kind=pending.kind)
    picked = [action.a, action.b] if isinstance(action, ChoosePair) else (
        [action.seat] if isinstance(action, ChoosePrisoner) else [])
    for p in picked:
        if p not in r.prisoners():
            raise IllegalAction("verdugo.not_a_prisoner", seat=p)
    if len(set(picked + pending.picks)) < len(picked + pending.picks):
        raise IllegalAction("verdugo.same_prisoner")
    pending.picks += picked
    card = scaffold(pending.card)
    effect = EFFECTS[card.effect]
    step = effect.steps.index(pending.kind) + 1
    if step < len(effect.steps):
        ev.append(Event(key="verdugo.scaffold.picked", params={"card": card.id, "seat": seat,
                                                               "picked_seat": picked[0]}))
        pending.kind = effect.steps[step]
        pending.chooser = pending.picks[0]
        return
    r.pending = None
    direction = action.direction if isinstance(action, ChooseDirection) else None
    if effect.resolve(s, card, pending.picks, direction, ev):
        after_card(s, ev)

def after_card(s: VerdugoState, ev: list[Event]) -> None:
    r = s.round
    r.actor, r.extra = None, False
    if len(r.drawn) == 1:
        r.phase = "call"
    else:
        r.phase = "execute"
        ev.append(Event(key="verdugo.execution.begins", params={
            "seat": r.executioner, "minimum": execution.min_executions(r)}))

def call(s: VerdugoState, seat: int, action: Call, ev: list[Event]) -> None:
    """Codes: ``verdugo.not_a_prisoner`` (seat), ``verdugo.already_acted`` (seat)."""
    r = s.round
    if action.seat not in r.prisoners():
        raise IllegalAction("verdugo.not_a_prisoner", seat=action.seat)
    if action.seat in r.acted:
        raise IllegalAction("verdugo.already_acted", seat=action.seat)
    r.phase, r.actor = "act", action.seat
    ev.append(Event(key="verdugo.called", params={"seat": action.seat}))

def act(s: VerdugoState, seat: int, action: Swap | Peek | Forfeit, ev: list[Event]) -> None:
    """A Swap, a Peek or no action (§7.2). Codes: ``verdugo.bad_position`` (position),
    ``verdugo.same_position``."""
    r = s.round
    valid = [*r.prisoners(), CENTRE]
    for position in ([action.a, action.b] if isinstance(action, Swap) else
                     [action.position] if isinstance(action, Peek) else []):
        if position not in valid:
            raise IllegalAction("verdugo.bad_position", position=position)
    if isinstance(action, Swap):
        if action.a == action.b:
            raise IllegalAction("verdugo.same_position")
        swap(r, action.a, action.b)
        ev.append(Event(key="verdugo.action.swap", params={"seat": seat, "a": action.a, "b": action.b}))
    elif isinstance(action, Peek):
        # the public line first, always worded the same: nothing leaks through ordering (§12)
        ev.append(Event(key="verdugo.action.peek", params={"seat": seat, "position": action.position}))
        see(r, seat, Seen(kind="peek", card=card_at(r, action.position), position=action.position), ev)
    else:
        ev.append(Event(key="verdugo.action.none", params={"seat": seat}))
    if r.extra:
        after_card(s, ev)
        return
    r.acted.append(seat)
    r.actor = None
    r.phase = "call" if len(r.acted) < len(r.prisoners()) else "draw"
