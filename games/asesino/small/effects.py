"""Revealing a column in the 2-4 player mode and the reveal effects (rulebook "Effects of Cards When
Revealed"; edition rulings: "you" is the revealer, Journalist cards stay in place face up).

Order within one reveal (our ruling, README): the Detective first (catching the Killer ends the game before
any murder counts), then the verdict (Killer card, Doctor, 2+ Bad) and the murder register, then the choice
effects (Accomplice, Prosecutor, Journalist) as prompts of the revealer, in the column's order.
"""

from __future__ import annotations

from games.asesino.common import Side, fate, said
from games.asesino.small.models import CardRef, SmallPrompt, SmallResult, SmallState
from games.core import Event

CHOICE_EFFECTS: frozenset[str] = frozenset({"accomplice", "prosecutor", "journalist"})


def end(state: SmallState, side: Side, reason: str, events: list[Event]) -> None:
    state.result = SmallResult(side=side, reason=reason)
    state.prompts = []
    roles = {str(seat): player.identity for seat, player in enumerate(state.seats)}
    winners = winners_of(state)
    events.append(Event(key="asesino.over", params={"side": side, "reason": reason, "roles": roles,
                                                     "winners": winners}))


def winners_of(state: SmallState) -> list[int]:
    assert state.result is not None
    evil = state.result.side == "evil"
    return [seat for seat, p in enumerate(state.seats) if (p.identity in ("killer", "accomplice")) == evil]


def swappable(state: SmallState) -> list[CardRef]:
    """Unrevealed declared cards (the Prosecutor's choices)."""
    return [CardRef(column=c, index=i) for c, column in enumerate(state.columns) if not column.revealed
            for i, slot in enumerate(column.slots) if slot.by is not None and not slot.face_up]


def face_down(state: SmallState) -> list[CardRef]:
    """Face-down cards of unrevealed columns (the Journalist's choices)."""
    return [CardRef(column=c, index=i) for c, column in enumerate(state.columns) if not column.revealed
            for i, slot in enumerate(column.slots) if not slot.face_up]


def possible(state: SmallState, prompt: SmallPrompt) -> bool:
    """Whether an effect has anything to act on now."""
    if prompt.kind == "accomplice":
        return bool(state.seats[prompt.seat].hand) and any(
            p.hand for seat, p in enumerate(state.seats) if seat != prompt.seat)
    if prompt.kind == "prosecutor":
        return len(swappable(state)) >= 2
    return bool(face_down(state))


def reveal(state: SmallState, seat: int, index: int, events: list[Event]) -> None:
    column = state.columns[index]
    column.revealed = True
    cards = [slot.card for slot in column.slots]
    events.append(Event(key="asesino.small.revealed", params={"seat": seat, "column": index, "cards": cards}))
    if "detective" in cards:
        if "killer" in cards:
            events.append(Event(key="asesino.small.detective_caught", params={"column": index}))
            end(state, "good", "asesino.end.detective_caught", events)
            return
        confession = "killer" if state.seats[seat].identity == "killer" else "innocent"
        events.append(Event(key=f"asesino.small.detective_check.{confession}", params={
            "seat": seat, "hand": list(state.seats[seat].hand)}))
    verdict = fate(cards)
    if verdict.murdered:
        column.murder = True
        state.murders.append(index)
        events.append(Event(key="asesino.small.murder", params={
            "column": index, "murders": len(state.murders), "killer_card": verdict.killer_card,
            "doctor_cancelled": verdict.doctor_cancelled}))
        if len(state.murders) >= 3:
            end(state, "evil", "asesino.end.three_deaths", events)
            return
    else:
        key = "asesino.small.saved" if verdict.doctor_saved else "asesino.small.spared"
        events.append(Event(key=key, params={"column": index}))
    state.prompts.extend(SmallPrompt(kind=card, seat=seat, column=index)  # type: ignore[arg-type]
                         for card in cards if card in CHOICE_EFFECTS)


def nothing_left(state: SmallState) -> bool:
    """No sealed column waits to be revealed and no one can play a card (the good side's ending)."""
    if any(column.sealed and not column.revealed for column in state.columns):
        return False
    open_column = any(not column.sealed for column in state.columns)
    return not (open_column and any(player.hand for player in state.seats))


def advance(state: SmallState, events: list[Event]) -> None:
    """Run forward to the next decision: the first pending effect (skipping the impossible ones), the end when
    nothing is left, or the next turn."""
    while state.result is None:
        if state.prompts:
            prompt = state.prompts[0]
            if prompt.announced:
                return
            if not possible(state, prompt):
                state.prompts.pop(0)
                events.append(Event(key="asesino.small.effect_void", params={"seat": prompt.seat,
                                                                             "effect": prompt.kind}))
                continue
            prompt.announced = True
            events.append(Event(key=f"asesino.small.prompt.{prompt.kind}", params={"seat": prompt.seat}))
            return
        if nothing_left(state):
            end(state, "good", "asesino.end.all_revealed", events)
            return
        if not state.turn_announced:
            state.turn_announced = True
            events.append(said("asesino.turn", {"seat": state.turn}))
        return
