"""The agenda's operations: the turn (RB "Game Play", LK-01..09), placement, the whacking pipeline W2-W9 (§7.4),
response windows (§7.6) and shootouts (§7.7), and the end of the game (LK-30..33, §9.9, §9.11).

:func:`run` works the agenda off until the game waits for a decision (``state.pending``) or ends.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from games.core.copying import unchecked
from games.lets_kill import effects, rules
from games.lets_kill.cards import CARDS
from games.lets_kill.flow import HAND_SIZE, Flow, bare_task
from games.lets_kill.models import Incident, LocationInPlay, Pending, Shootout, Window

Op = Callable[[Flow, dict[str, Any]], None]
DECLARE_AT = 20
_WINDOW = frozenset({"type", "active", "eligible", "victim", "card", "incident"})
#: the card types a turn's Step 2 plays (LK-05)
STEP2_KINDS = ("weapon", "surprise", "event")


#: a turn's agenda after its start, and a skipped turn's (shared tasks: a task is never changed)
TURN = tuple(bare_task(op) for op in ("check_victims", "step1", "check_victims", "step2", "check_victims", "step3",
                                      "end_turn"))
SKIPPED_TURN = tuple(bare_task(op) for op in ("check_victims", "skip_turn", "step3", "end_turn"))


@cache  # a pending decision is replaced whole, never changed in place: one per value, shared
def decision(kind: str, seat: int) -> Pending:
    """The pending decision ``kind`` (``play``: Step 2; ``window``, ``pledge``, ``declare``) of ``seat``."""
    return Pending(kind=kind, seat=seat, kinds=list(STEP2_KINDS)) if kind == "play" else Pending(kind=kind, seat=seat)


def run(flow: Flow) -> None:
    state = flow.state
    while state.pending is None and state.ended is None and state.agenda:
        task = state.agenda.pop(0)
        OPS[task.op](flow, task.args)


# ------------------------------------------------------------------ the turn

def turn_start(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    seat = state.active
    if state.declared_by == seat:
        flow.end("declared")
        return
    if not state.lk_deck:
        flow.end("deck")
        return
    flow.say("turn", seat=seat, turn=state.turn)
    for victim in rules.victims_in_play(state):
        if state.placers.get(victim) == seat:
            effects.run(flow, victim, "start_of_turn(placer)", {"placer": seat, "victim": victim, "self": seat})
    # a skip is spent only once LK-31 lets the turn happen (§9.9): the turn is then only Step 3 (LK-08)
    state.agenda.extend(SKIPPED_TURN if state.skips[seat] > 0 else TURN)


def skip_turn(flow: Flow, args: dict[str, Any]) -> None:
    """A lost shootout's skip (LK-08): this turn is Step 3 only."""
    flow.state.skips[flow.state.active] -= 1
    flow.say("skipped", seat=flow.state.active)


def check_victims(flow: Flow, args: dict[str, Any]) -> None:
    """LK-31 / §9.9: the Victims deck is empty and no Victim is in play."""
    if not flow.state.victims_deck and not rules.victims_in_play(flow.state):
        flow.end("victims")


def step1(flow: Flow, args: dict[str, Any]) -> None:
    flow.push(flow.task("place", placer=flow.state.active))


def place(flow: Flow, args: dict[str, Any]) -> None:
    """Draw from the Victims deck until a Victim (Locations go into play), then place it (LK-04)."""
    state = flow.state
    while state.victims_deck:
        card_id = state.victims_deck.pop(0)
        if CARDS[card_id].type == "location":
            state.locations.append(LocationInPlay(card=card_id))
            flow.say("location_drawn", card=card_id)
            continue
        options = rules.placement_options(state, card_id)
        state.placers[card_id] = args["placer"]
        if len(options) > 1:
            state.limbo.append(card_id)
            state.pending = Pending(kind="place", seat=state.active, victim=card_id, options=options)
            return
        put_victim(flow, card_id, options[0] if options else None)
        return


def put_victim(flow: Flow, victim: str, loc_id: str | None) -> None:
    """Place ``victim`` (LK-04), then its ``on_place`` effects and the ``victim_placed`` window."""
    state = flow.state
    if victim in state.limbo:
        state.limbo.remove(victim)
    if loc_id is None:
        state.town.append(victim)
    else:
        flow.own_location(loc_id).victims.append(victim)
    placer = state.placers[victim]
    flow.say("victim_placed", seat=placer, card=victim, location=loc_id)
    flow.push(flow.task("window", type="victim_placed", victim=victim))
    effects.run(flow, victim, "on_place", {"placer": placer, "self": placer, "victim": victim})


def step2(flow: Flow, args: dict[str, Any]) -> None:
    flow.state.pending = decision("play", flow.state.active)


def extra_play(flow: Flow, args: dict[str, Any]) -> None:
    """LK-25, §9.10: the extra play is mandatory when a legal one exists, and lost otherwise."""
    from games.lets_kill.plays import legal_plays

    pending = Pending(kind="play", seat=args["seat"], kinds=args["kinds"], bonus=args["bonus"],
                      extra=True)
    if legal_plays(flow.state, pending):
        flow.state.pending = pending
    else:
        flow.say("extra_play_lost", seat=args["seat"])


def step3(flow: Flow, args: dict[str, Any]) -> None:
    seat = flow.state.active
    flow.draw(seat, max(0, HAND_SIZE - len(flow.state.hands[seat])))


def end_turn(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    if state.declared_by is None and rules.score(state, state.active) >= DECLARE_AT:
        state.pending = decision("declare", state.active)
        state.agenda.insert(0, flow.task("next_turn"))
        return
    next_turn(flow, args)


def next_turn(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    state.active = flow.left_of(state.active)
    state.turn += 1
    state.agenda.append(flow.task("turn_start"))


# ------------------------------------------------------------------ effects and windows

def effect(flow: Flow, args: dict[str, Any]) -> None:
    effects.execute(flow, args["card"], args["index"], args["src"])


def window(flow: Flow, args: dict[str, Any]) -> None:
    """Open a window for every other player, whoever holds what (LK-19)."""
    state = flow.state
    state.window = unchecked(Window, {"type": args["type"], "active": state.active,
                                      "eligible": flow.order_from_left(state.active), "answers": {},
                                      "victim": args.get("victim"), "card": args.get("card"),
                                      "incident": args.get("incident"), "cancelled": False, "moved": False}, _WINDOW)
    state.pending = decision("window", state.active)
    flow.say("window", window=args["type"])


def close_window(flow: Flow) -> None:
    """Resolve the sealed answers in seating order from the active player's left (§9.13)."""
    state = flow.state
    assert state.window is not None
    state.pending = None
    flow.push(*[flow.task("resolve_response", seat=seat) for seat in state.window.eligible
                if seat in state.window.answers and state.window.answers[seat].card])


def resolve_response(flow: Flow, args: dict[str, Any]) -> None:
    from games.lets_kill.plays import response_error

    state = flow.state
    seat = args["seat"]
    assert state.window is not None
    answer = state.window.answers[seat]
    assert answer.card is not None
    if response_error(state, seat, answer) is not None:
        flow.tell(seat, "response_returned", card=answer.card)
        return
    state.hands[seat].remove(answer.card)
    state.limbo.append(answer.card)
    flow.say("response", seat=seat, card=answer.card)
    whacking = state.whacking
    src = {"self": seat, "whacker": whacking.whacker if whacking else None, "victim": answer.victim or
           state.window.victim, "location": answer.location, "incident": state.window.incident}
    flow.push(flow.task("to_discard", card=answer.card))
    effects.run(flow, answer.card, "response", src)


def to_discard(flow: Flow, args: dict[str, Any]) -> None:
    flow.state.limbo.remove(args["card"])
    flow.discard(args["card"])


def attach_media(flow: Flow, args: dict[str, Any]) -> None:
    """After the ``media_played`` window: attach, or discard if cancelled (LK-22, §9.3)."""
    state = flow.state
    card_id = args["card"]
    state.limbo.remove(card_id)
    inc = rules.incident(state, args["incident"])
    if (state.window is not None and state.window.cancelled) or inc is None or inc.media is not None:
        flow.discard(card_id)
        flow.say("media_cancelled", card=card_id, incident=args["incident"])
        return
    inc = flow.own_incident(inc.id)
    inc.media = card_id
    flow.say("media_attached", card=card_id, incident=inc.id, score=rules.incident_score(inc))


# ------------------------------------------------------------------ whacking (§7.4)

def w3_reveal(flow: Flow, args: dict[str, Any]) -> None:
    whacking = flow.state.whacking
    assert whacking is not None
    if whacking.cancelled:
        return
    flow.push(*[flow.task("reveal", victim=v) for v in whacking.targets])


def reveal(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    whacking = state.whacking
    assert whacking is not None
    surprise = state.surprises.pop(args["victim"], None)
    if surprise is None:
        return
    flow.forget(surprise)
    whacking.revealed[args["victim"]] = surprise
    flow.say("revealed", victim=args["victim"], card=surprise)
    effects.run(flow, surprise, "on_reveal", {"whacker": whacking.whacker, "victim": args["victim"]})


def w4_victims(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    whacking = state.whacking
    assert whacking is not None
    if whacking.cancelled:
        return
    src = {"whacker": whacking.whacker}
    # pushed in reverse so that the targets' texts come first, then the bystanders', each in order
    here = rules.location(state, whacking.location) if whacking.location else None
    for victim in reversed([v for v in (here.victims if here else []) if v not in whacking.targets]):
        effects.run(flow, victim, "on_whack_nearby", {**src, "victim": victim})
    for victim in reversed([v for v in whacking.targets if v not in whacking.escaped]):
        effects.run(flow, victim, "on_whacked", {**src, "victim": victim})


def w5_location(flow: Flow, args: dict[str, Any]) -> None:
    whacking = flow.state.whacking
    assert whacking is not None
    if not whacking.cancelled and whacking.location:
        effects.run(flow, whacking.location, "on_whack_here", {"whacker": whacking.whacker})


def w6_shootout(flow: Flow, args: dict[str, Any]) -> None:
    whacking = flow.state.whacking
    assert whacking is not None
    if not whacking.cancelled and whacking.shootout_target is not None:
        flow.push(flow.task("shootout", target=whacking.shootout_target, from_whacking=True))


def w7_incident(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    whacking = state.whacking
    assert whacking is not None
    if whacking.cancelled:
        return
    remaining = [v for v in whacking.targets if v not in whacking.escaped]
    state.limbo.remove(whacking.weapon)
    if whacking.failed or not remaining:
        for card_id in [whacking.weapon, *whacking.revealed.values()]:
            flow.discard(card_id)
        whacking.revealed.clear()
        flow.say("whack_failed" if whacking.failed else "all_escaped", seat=whacking.whacker)
        return
    inc = Incident(id=state.next_incident, owner=whacking.whacker, weapon=whacking.weapon, victims=remaining,
                   surprises={v: s for v, s in whacking.revealed.items() if v in remaining},
                   location=whacking.location, modifiers=list(whacking.modifiers))
    state.next_incident += 1
    whacking.revealed.clear()
    for victim in remaining:
        flow.remove_victim(victim)
        state.placers.pop(victim, None)
    if whacking.location:
        here = rules.location(state, whacking.location)
        assert here is not None
        state.locations.remove(here)
        state.town.extend(here.victims)
    state.incidents.append(inc)
    whacking.incident = inc.id
    flow.say("incident", seat=whacking.whacker, incident=inc.id, score=rules.incident_score(inc))
    flow.push(flow.task("window", type="incident_formed", incident=inc.id))
    effects.run(flow, whacking.weapon, "on_incident", {"whacker": whacking.whacker, "self": whacking.whacker})


def w_end(flow: Flow, args: dict[str, Any]) -> None:
    flow.state.whacking = None


# ------------------------------------------------------------------ shootouts (§7.7)

def shootout(flow: Flow, args: dict[str, Any]) -> None:
    state = flow.state
    target = args["target"]
    state.shootout = Shootout(target=target, posse=flow.order_from_left(target), from_whacking=args["from_whacking"])
    state.pending = decision("pledge", target)
    flow.say("shootout", seat=target)


def pledge(flow: Flow, seat: int, cards: list[str]) -> None:
    """Apply a validated pledge (:func:`games.lets_kill.plays.pledge_error` has accepted it)."""
    state = flow.state
    duel = state.shootout
    assert duel is not None
    firepower = sum(CARDS[c].body_count or 0 for c in cards)
    state.pending = None
    if duel.phase == "target":
        if not cards:
            return finish_shootout(flow, target_wins=False)
        flow.discard_from_hand(seat, cards)
        duel.target_total += firepower
        duel.phase, duel.turn, duel.pledges = "posse", 0, {}
        flow.say("target_pledged", seat=seat, cards=cards, total=duel.target_total)
    else:
        duel.pledges[seat] = cards
        duel.turn += 1
        flow.say("posse_pledged", seat=seat, firepower=firepower,
                 running=duel.posse_total + sum(CARDS[c].body_count or 0 for p in duel.pledges.values() for c in p))
        if duel.turn < len(duel.posse):
            state.pending = decision("pledge", duel.posse[duel.turn])
            return None
        added = sum(CARDS[c].body_count or 0 for p in duel.pledges.values() for c in p)
        if added == 0 or duel.posse_total + added < duel.target_total:
            return finish_shootout(flow, target_wins=True)
        for member, pledged in duel.pledges.items():
            flow.discard_from_hand(member, pledged)
        duel.posse_total += added
        duel.rounds += 1
        flow.say("posse_committed", cards=[c for p in duel.pledges.values() for c in p], total=duel.posse_total)
        duel.phase, duel.pledges = "target", {}
    state.pending = decision("pledge", duel.target if duel.phase == "target" else duel.posse[0])
    return None


def finish_shootout(flow: Flow, *, target_wins: bool) -> None:
    state = flow.state
    duel = state.shootout
    assert duel is not None
    state.shootout = None
    flow.say("shootout_won" if target_wins else "shootout_lost", seat=duel.target,
             target_total=duel.target_total, posse_total=duel.posse_total)
    if target_wins:
        return
    state.skips[duel.target] += 1
    if duel.from_whacking and state.whacking is not None:
        state.whacking.failed = True


OPS: dict[str, Op] = {
    "turn_start": turn_start, "skip_turn": skip_turn, "check_victims": check_victims, "step1": step1, "place": place,
    "step2": step2,
    "extra_play": extra_play, "step3": step3, "end_turn": end_turn, "next_turn": next_turn, "effect": effect,
    "window": window, "resolve_response": resolve_response, "to_discard": to_discard, "attach_media": attach_media,
    "w3": w3_reveal, "reveal": reveal, "w4": w4_victims, "w5": w5_location, "w6": w6_shootout, "w7": w7_incident,
    "w_end": w_end, "shootout": shootout,
}
