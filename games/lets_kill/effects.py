"""One implementation per effect kind (edition §2.3). Triggered effects run as agenda tasks (``effect``), so an
effect that needs a decision (a peek, an owner's discard) pauses the pipeline and the next effect waits.

The static kinds (``placement_restriction``, ``capacity``, ``whack_restriction``, ``whack_scope``,
``grant_attribute``, and ``points`` / ``body_count`` outside the cases below) are read where they apply, by
:mod:`games.lets_kill.rules`; their handlers here do nothing when triggered.

``src`` (the task's arguments) names the players and cards an effect refers to: ``card`` (the card whose effect
it is), ``self``, ``whacker``, ``placer``, ``chosen_other``, ``victim`` (the Victim the card is or is on),
``victims``/``location``/``incident`` (the play's or response's targets).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.copying import replace
from games.lets_kill import rules
from games.lets_kill.cards import CARDS
from games.lets_kill.dsl import Effect
from games.lets_kill.flow import Flow
from games.lets_kill.models import Pending

Handler = Callable[[Flow, Effect, dict[str, Any]], None]


def who(effect: Effect, src: dict[str, Any], key: str = "who") -> int:
    seat = src.get(effect.arg(key))
    assert seat is not None, f"{effect.arg(key)} unknown for {src.get('card')}"
    return int(seat)


def _static(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """Read by the rules where it applies; nothing to do when triggered."""


def points(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """A triggered ``points(target=incident)`` (``on_whack_nearby``) becomes a modifier entry of the whacking's
    Incident (U5)."""
    whacking = flow.state.whacking
    if whacking is not None and effect.arg("target") == "incident":
        whacking.modifiers.append(effect.arg("amount"))


def body_count(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """On an Event, read by that Event's ``extra_play`` (the bonus of the Weapon it lets you play)."""


def draw(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    flow.draw(who(effect, src), effect.arg("n"))


def place_victims(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    flow.push(*[flow.task("place", placer=src["self"]) for _ in range(effect.arg("n"))])


def discard(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    seat = who(effect, src)
    hand = flow.state.hands[seat]
    n = len(hand) if effect.arg("n") == "all" else min(effect.arg("n"), len(hand))
    if n == 0:
        return
    if effect.arg("choice") == "owner" and n < len(hand):
        flow.state.pending = Pending(kind="discard_choice", seat=seat, n=n)
        return
    cards = list(hand) if n == len(hand) else flow.random_pick(list(hand), n)
    flow.discard_from_hand(seat, cards)
    flow.say("discarded", seat=seat, cards=cards)


def trigger_shootout(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """During a whacking: queue the first shootout, against the whacker (§7.4, §9.14); otherwise start it now."""
    whacking = flow.state.whacking
    if whacking is not None:
        if whacking.shootout_target is None:
            whacking.shootout_target = whacking.whacker
            flow.say("shootout_queued", seat=whacking.whacker)
        return
    flow.push(flow.task("shootout", target=who(effect, src, "target"), from_whacking=False))


def cancel(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    state = flow.state
    what = effect.arg("what")
    if what == "whacking" and state.whacking is not None:
        state.whacking.cancelled = True
        state.whacking.shootout_target = None
        state.limbo.remove(state.whacking.weapon)
        flow.discard(state.whacking.weapon)
        flow.say("whack_cancelled", seat=state.whacking.whacker, weapon=state.whacking.weapon)
    elif what == "this_victim" and state.whacking is not None:
        victim = src["victim"]
        state.whacking.escaped.append(victim)
        surprise = state.whacking.revealed.pop(victim, None)
        if surprise:
            state.lk_discard.append(surprise)
        flow.say("escaped", card=victim)
    elif what == "triggering_card" and state.window is not None:
        state.window = replace(state.window, cancelled=True)


def steal_incident(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    state = flow.state
    inc = flow.own_incident(src["incident"])
    state.incidents.remove(inc)
    flow.say("stolen", seat=src["self"], from_seat=inc.owner, incident=inc.id)
    inc.owner = src["self"]
    state.incidents.append(inc)


def move_victim(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    if effect.arg("from") == "triggering_victim":
        victim = src["victim"]
        destination = src.get("location")
        flow.to_location(victim, destination) if destination else flow.to_town(victim)
        if flow.state.window is not None:
            flow.state.window = replace(flow.state.window, moved=True)
        flow.say("moved", card=victim, location=destination)
        return
    for victim in src.get("victims", []):
        flow.to_location(victim, src["location"])
        flow.say("moved", card=victim, location=src["location"])


def revive(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """The chosen Victim returns out on the town (no placer); its revealed Surprise is discarded; an Incident
    left with no Victim is discarded entirely (LK-28)."""
    state = flow.state
    inc = flow.own_incident(src["incident"])
    victim = src["victim"]
    inc.victims.remove(victim)
    surprise = inc.surprises.pop(victim, None)
    if surprise:
        state.lk_discard.append(surprise)
    state.town.append(victim)
    state.placers.pop(victim, None)
    flow.say("revived", card=victim, incident=inc.id)
    if not inc.victims:
        state.incidents.remove(inc)
        for card_id in [inc.weapon, inc.location, inc.media, *inc.attached, *inc.surprises.values()]:
            if card_id:
                flow.discard(card_id)
        flow.say("incident_discarded", incident=inc.id)


def skip_turn(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    seat = who(effect, src)
    flow.state.skips[seat] += 1
    flow.say("will_skip", seat=seat)


def extra_play(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    """Queue ``n`` extra plays of the listed types; the card's ``on_play: body_count`` is their bonus (LK-25)."""
    bonus = sum(e.arg("amount") for e in CARDS[src["card"]].effects_of("on_play", "body_count"))
    kinds = sorted(k.lower() for k in effect.arg("kinds"))
    tasks = [flow.task("extra_play", seat=src["self"], kinds=kinds, bonus=bonus) for _ in range(effect.arg("n"))]
    agenda = flow.state.agenda
    # the Event is discarded before the extra card is played (§9.10)
    at = next((i + 1 for i, t in enumerate(agenda) if t.op == "to_discard" and t.args["card"] == src["card"]), 0)
    agenda[at:at] = tasks


def peek_surprise(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    state = flow.state
    seat = src["self"]
    peeked = [v for v in src.get("victims", [])[: effect.arg("n")] if v in state.surprises]
    for victim in peeked:
        surprise = state.surprises[victim]
        if surprise not in state.known[seat]:
            state.known[seat] = [*state.known[seat], surprise]
        flow.tell(seat, "peeked", victim=victim, card=surprise)
    flow.say("peeking", seat=seat, victims=peeked)
    if effect.arg("may_discard") and peeked:
        state.pending = Pending(kind="peek_discard", seat=seat, peeked=peeked)


def leave_play(flow: Flow, effect: Effect, src: dict[str, Any]) -> None:
    victim = src["victim"]
    if rules.position(flow.state, victim)[0]:
        flow.leave_play(victim)
        flow.say("goes_home", card=victim)


HANDLERS: dict[str, Handler] = {
    "points": points, "body_count": body_count, "placement_restriction": _static, "capacity": _static,
    "whack_restriction": _static, "whack_scope": _static, "draw": draw, "place_victims": place_victims,
    "discard": discard, "trigger_shootout": trigger_shootout, "cancel": cancel, "steal_incident": steal_incident,
    "move_victim": move_victim, "revive": revive, "skip_turn": skip_turn, "extra_play": extra_play,
    "peek_surprise": peek_surprise, "grant_attribute": _static, "leave_play": leave_play,
}


def run(flow: Flow, card_id: str, trigger: str, src: dict[str, Any]) -> None:
    """Queue the ``trigger`` effects of ``card_id`` (in card order) at the front of the agenda."""
    effects = [i for i, e in enumerate(CARDS[card_id].parsed) if e.trigger == trigger]
    flow.push(*[flow.task("effect", card=card_id, index=i, src={**src, "card": card_id}) for i in effects])


def execute(flow: Flow, card_id: str, index: int, src: dict[str, Any]) -> None:
    effect = CARDS[card_id].parsed[index]
    whacking = flow.state.whacking
    if effect.condition and not rules.holds_for_weapon(effect, whacking.weapon if whacking else None):
        return
    HANDLERS[effect.kind](flow, effect, src)
