"""The tabletop game's flow after each accepted action: resolving destinies, their effects, the murdered
player's obligation to play out their hand, the turn marker and the end (rulebook sections 2-4).

Every function here mutates the (already copied) state it is given and appends events.
"""

from __future__ import annotations

from games.asesino.common import Card, Side, fate, side_of
from games.asesino.tabletop.models import Prompt, Resolution, Result, TabletopState
from games.core import Audience, Event, rng_for

#: role cards whose effect is an action the revealed player may order (Killer and Doctor act on the verdict,
#: the Accomplice's shock on what the player may say)
ACTION_EFFECTS: frozenset[str] = frozenset({"detective", "prosecutor", "journalist"})


def targets(state: TabletopState, seat: int) -> list[int]:
    """Players ``seat`` may declare on: anyone else not sealed (ruling "A card may be declared on ...")."""
    return [other for other, player in enumerate(state.seats) if other != seat and not player.sealed]


def can_declare(state: TabletopState, seat: int) -> bool:
    return bool(state.seats[seat].hand) and bool(targets(state, seat))


def seat_of(state: TabletopState, role: Card) -> int | None:
    return next((seat for seat, player in enumerate(state.seats) if player.role == role), None)


def next_seat(state: TabletopState, seat: int) -> int:
    step = 1 if state.clockwise is not False else -1
    return (seat + step) % len(state.seats)


def end(state: TabletopState, side: Side, reason: str, events: list[Event], caught: bool = False) -> None:
    """Finish the game at once: every pending prompt and obligation is dropped and the roles are shown."""
    state.result = Result(side=side, reason=reason, caught=caught)
    state.prompt = None
    state.resolution = None
    state.obligations = []
    roles = {str(seat): player.role for seat, player in enumerate(state.seats)}
    winners = [seat for seat, player in enumerate(state.seats) if side_of(player.role) == side]
    events.append(Event(key="asesino.over", params={"side": side, "reason": reason, "roles": roles,
                                                     "winners": winners}))


def start_resolution(state: TabletopState, subject: int, events: list[Event]) -> None:
    """Shuffle and reveal ``subject``'s three cards; queue the action effects (rulebook 3, "Shuffle and
    reveal")."""
    player = state.seats[subject]
    cards = [played.card for played in player.front]
    rng_for(state.seed, "destiny", state.counter, subject).shuffle(cards)
    player.revealed = cards
    player.resolved = True
    events.append(Event(key="asesino.destiny.revealed", params={"seat": subject, "cards": list(cards)}))
    effects = [card for card in cards if card in ACTION_EFFECTS]
    shocked = "accomplice" in cards
    if shocked:
        events.append(Event(key="asesino.effect.shock", params={"seat": subject}))
    state.resolution = Resolution(subject=subject, effects=effects, ordered=len(effects) < 2, shocked=shocked)


def _run_effect(state: TabletopState, effect: Card, events: list[Event]) -> None:
    resolution = state.resolution
    assert resolution is not None
    subject = resolution.subject
    if effect == "detective":
        is_killer = state.seats[subject].role == "killer"
        confession = "killer" if is_killer else "innocent"
        events.append(Event(key=f"asesino.effect.detective.{confession}", params={"seat": subject}))
        if is_killer:
            end(state, "good", "asesino.end.detective_caught", events, caught=True)
    elif effect == "journalist":
        if resolution.shocked:
            events.append(Event(key="asesino.effect.journalist_silenced", params={"seat": subject}))
        else:
            state.prompt = Prompt(kind="statement", seat=subject)
            events.append(Event(key="asesino.prompt.statement", params={"seat": subject}))
    elif effect == "prosecutor":
        prosecutor = seat_of(state, "prosecutor")
        alive = prosecutor is not None and not state.seats[prosecutor].murdered
        state_of = "alive" if alive else "dead"
        events.append(Event(key=f"asesino.effect.prosecutor.{state_of}", params={"seat": subject}))
        if alive:
            assert prosecutor is not None
            state.prompt = Prompt(kind="accuse", seat=prosecutor)
            events.append(Event(key="asesino.prompt.accuse", params={"seat": subject},
                                audience=Audience.to(prosecutor)))


def _verdict(state: TabletopState, events: list[Event]) -> None:
    resolution = state.resolution
    assert resolution is not None
    state.resolution = None
    subject = resolution.subject
    player = state.seats[subject]
    verdict = fate(player.revealed)
    if not verdict.murdered:
        key = "asesino.destiny.saved" if verdict.doctor_saved else "asesino.destiny.spared"
        events.append(Event(key=key, params={"seat": subject}))
        return
    player.murdered = True
    state.deaths.append(subject)
    events.append(Event(key="asesino.destiny.murdered", params={
        "seat": subject, "deaths": len(state.deaths), "killer_card": verdict.killer_card,
        "doctor_cancelled": verdict.doctor_cancelled}))
    if player.role == "killer":
        end(state, "good", "asesino.end.killer_murdered", events)
        return
    if len(state.deaths) >= 3:
        end(state, "evil", "asesino.end.three_deaths", events)
        return
    state.obligations.append(subject)
    if resolution.shocked:
        events.append(Event(key="asesino.no_last_words", params={"seat": subject}))
    else:
        state.prompt = Prompt(kind="last_words", seat=subject)
        events.append(Event(key="asesino.prompt.last_words", params={"seat": subject}))
    if can_declare(state, subject):
        events.append(Event(key="asesino.prompt.declare_all", params={"seat": subject,
                                                                      "cards": len(player.hand),
                                                                      "count": len(player.hand)}))


def _step_resolution(state: TabletopState, events: list[Event]) -> None:
    resolution = state.resolution
    assert resolution is not None
    if not resolution.ordered:
        state.prompt = Prompt(kind="order", seat=resolution.subject)
        events.append(Event(key="asesino.prompt.order", params={"seat": resolution.subject,
                                                                "effects": list(resolution.effects)}))
    elif resolution.effects:
        _run_effect(state, resolution.effects.pop(0), events)
    else:
        _verdict(state, events)


def seal(state: TabletopState, target: int, events: list[Event]) -> None:
    """Seal ``target`` (third card) and resolve the previously sealed, unresolved player (rulebook 2)."""
    pending = [seat for seat in state.sealed_order if not state.seats[seat].resolved]
    state.seats[target].sealed = True
    state.sealed_order.append(target)
    events.append(Event(key="asesino.sealed", params={"seat": target, "order": len(state.sealed_order)}))
    if pending:
        start_resolution(state, pending[0], events)


def advance(state: TabletopState, events: list[Event]) -> None:
    """Run the game forward until it needs a player's answer or is over."""
    while state.result is None and state.prompt is None:
        if state.resolution is not None:
            _step_resolution(state, events)
            continue
        if state.obligations:
            if can_declare(state, state.obligations[-1]):
                return
            state.obligations.pop()
            continue
        if not any(can_declare(state, seat) for seat, p in enumerate(state.seats) if not p.murdered):
            _final_round(state, events)
            continue
        _settle_turn(state, events)
        return


def _final_round(state: TabletopState, events: list[Event]) -> None:
    """No card can be declared any more: resolve the sealed destinies left, in sealing order; then the good
    side wins with fewer than 3 deaths (ruling "When every hand is empty ...")."""
    if not state.final_round:
        state.final_round = True
        events.append(Event(key="asesino.final_round"))
    pending = [seat for seat in state.sealed_order if not state.seats[seat].resolved]
    if pending:
        start_resolution(state, pending[0], events)
    else:
        end(state, "good", "asesino.end.survived", events)


def _settle_turn(state: TabletopState, events: list[Event]) -> None:
    """Move the turn marker past murdered players and empty hands; announce a new turn once."""
    for _ in range(len(state.seats)):
        player = state.seats[state.turn]
        if not player.murdered and player.hand:
            break
        state.turn = next_seat(state, state.turn)
        state.turn_announced = False
    if not state.turn_announced:
        state.turn_announced = True
        events.append(Event(key="asesino.turn", params={"seat": state.turn}))
