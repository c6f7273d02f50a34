"""Step-2 plays, responses and pledges: what each card needs as targets (derived from its effects, never from its
name), their legality (LK-05, LK-10, LK-18..20, §7.7, §9.14), the legal lists, and applying an accepted play."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

from games.core import IllegalAction
from games.core.copying import replace, variants
from games.lets_kill import effects, rules
from games.lets_kill.cards import CARDS, Card
from games.lets_kill.dsl import Effect
from games.lets_kill.flow import Flow
from games.lets_kill.models import LetsKillState, Pending, PlayCard, Respond, Whacking

#: the answer that plays nothing (an action is never changed: shared)
PASS = Respond()
WHACK_TASKS = ("w3", "w4", "w5", "w6", "w7", "w_end")


def _on_play(card: Card, kind: str) -> tuple[Effect, ...]:
    return card.effects_of("on_play", kind)


def attaches(card: Card) -> str | None:
    """Where an Event stays (§9.2): ``media`` (any Incident with no Media Event), ``own`` (a standard Event with a
    lasting Incident modifier goes on one of your Incidents), or ``None``."""
    if card.subtype == "media":
        return "media"
    if card.subtype == "standard" and any(e.arg("target") == "incident" for e in card.effects_of("static", "points")):
        return "own"
    return None


def play_error(state: LetsKillState, seat: int, action: PlayCard,
               pending: Pending | None = None) -> IllegalAction | None:
    """Why ``seat`` may not make this play now (for ``pending``, by default the state's), or ``None``."""
    pending = pending or state.pending
    if pending is None or pending.kind != "play" or pending.seat != seat:
        return IllegalAction("lets_kill.not_now")
    if action.card not in state.hands[seat]:
        return IllegalAction("lets_kill.not_in_hand", card=action.card)
    card = CARDS[action.card]
    if card.type not in pending.kinds:
        return IllegalAction("lets_kill.wrong_kind", card=action.card)
    if card.type == "weapon":
        return rules.declaration_error(state, action.card, action.victims, pending.bonus)
    if card.type == "surprise":
        if len(action.victims) != 1 or action.victims[0] not in rules.surprise_targets(state):
            return IllegalAction("lets_kill.bad_surprise_target")
        return None
    if card.subtype == "response":
        return IllegalAction("lets_kill.response_only", card=action.card)
    return _event_error(state, seat, card, action)


def _event_error(state: LetsKillState, seat: int, card: Card, action: PlayCard) -> IllegalAction | None:
    where = attaches(card)
    if where is not None:
        inc = rules.incident(state, action.incident)
        if inc is None or (where == "media" and inc.media is not None) or (where == "own" and inc.owner != seat):
            return IllegalAction("lets_kill.bad_incident")
    for effect in _on_play(card, "steal_incident"):
        inc = rules.incident(state, action.incident)
        if inc is None or inc.owner == seat or rules.incident_score(inc) > effect.arg("max_score"):
            return IllegalAction("lets_kill.bad_incident")
    if any(e.arg("target") == "chosen_other" for e in _on_play(card, "trigger_shootout")):
        if action.seat is None or action.seat == seat or not 0 <= action.seat < len(state.seats):
            return IllegalAction("lets_kill.bad_seat")
    for effect in _on_play(card, "move_victim"):
        victims = action.victims
        if len(set(victims)) != len(victims) or len(victims) > effect.arg("n") or \
                not set(victims) <= set(state.town):
            return IllegalAction("lets_kill.bad_move")
        if victims and (action.location is None or not rules.can_take(state, action.location, victims)):
            return IllegalAction("lets_kill.bad_move")
    for effect in _on_play(card, "peek_surprise"):
        victims = action.victims
        if len(set(victims)) != len(victims) or len(victims) > effect.arg("n") or \
                not set(victims) <= set(state.surprises):
            return IllegalAction("lets_kill.bad_peek")
    return None


def legal_plays(state: LetsKillState, pending: Pending) -> list[PlayCard]:
    """Every legal play for ``pending``: one per distinct card and set of targets, its Victims in play order; every
    ordering of a play's ``victims`` is legal too (a Weapon's declaration order, W1; Free Samples' arrival order,
    §9.10; Stakeout's peeks): :meth:`games.lets_kill.engine.LetsKill.free_order`."""
    seat = pending.seat
    found: list[PlayCard] = []
    for card_id in dict.fromkeys(state.hands[seat]):
        card = CARDS[card_id]
        if card.type not in pending.kinds:
            continue
        if card.type == "weapon":  # whole tuples of shared plays, one per place
            for loc, group in rules.declaration_groups(state, card_id):
                found += _declarations(card_id, pending.bonus, loc, group)
            continue
        candidates, legal = _candidates(state, seat, card)
        found += candidates if legal else [a for a in candidates if play_error(state, seat, a, pending) is None]
    return found


def _candidates(state: LetsKillState, seat: int, card: Card) -> tuple[list[PlayCard], bool]:
    """The plays of ``card`` (not a Weapon: :func:`_declarations`) to consider, and whether they are all legal by
    construction (else each is checked). One play of the card is validated; the others are copied from it with
    their targets (no validation: the targets are the state's own cards and numbers, as the fields declare;
    validating each was most of listing them)."""
    if card.type == "surprise":
        return [_on_victim(card.id, victim) for victim in rules.surprise_targets(state)], True
    first = _bare_play(card.id)
    if card.subtype == "response":
        return [], True
    if attaches(card) or _on_play(card, "steal_incident"):
        return variants(first, "incident", [inc.id for inc in state.incidents]), False
    if _on_play(card, "trigger_shootout"):
        return variants(first, "seat", [other for other in range(len(state.seats)) if other != seat]), False
    for effect in _on_play(card, "move_victim"):  # each Location: the Victims it takes, as many as it has room for
        moves = [first]
        for loc in state.locations:
            fits = [v for v in state.town if rules.can_take(state, loc.card, [v])]
            spare = rules.room(state, loc.card)
            most = min(effect.arg("n"), len(fits) if spare is None else spare)
            moves += [replace(first, victims=list(group), location=loc.card)
                      for size in range(1, most + 1) for group in combinations(fits, size)]
        return moves, True
    for effect in _on_play(card, "peek_surprise"):
        return variants(first, "victims", [list(group) for size in range(effect.arg("n") + 1)
                                           for group in combinations(state.surprises, size)]), True
    return [first], False


@cache  # one per card: an action is never changed, so the bare play is shared
def _bare_play(card_id: str) -> PlayCard:
    return PlayCard(card=card_id)


@cache  # one per card and Victim (printed cards only), shared like the bare play
def _on_victim(card_id: str, victim: str) -> PlayCard:
    return replace(_bare_play(card_id), victims=[victim])


@lru_cache(maxsize=8192)  # as rules.group_declarations: a place's Victims mostly stay from one turn to the next
def _declarations(weapon: str, bonus: int, loc: str | None, group: tuple[str, ...]) -> tuple[PlayCard, ...]:
    """The plays of ``weapon`` declaring Victims of one place (:func:`games.lets_kill.rules.group_declarations`),
    made once and shared."""
    return tuple(_declaration(weapon, targets) for targets in rules.group_declarations(weapon, bonus, loc, group))


@lru_cache(maxsize=65536)  # a place's declarations are mostly those it had before, give or take a Victim
def _declaration(weapon: str, targets: tuple[str, ...]) -> PlayCard:
    return replace(_bare_play(weapon), victims=list(targets))  # type: ignore[no-any-return]


def apply_play(flow: Flow, seat: int, action: PlayCard) -> None:
    """Carry out an accepted play (the pipeline continues from the agenda)."""
    state = flow.state
    pending = state.pending
    assert pending is not None
    state.pending = None
    card = CARDS[action.card]
    state.hands[seat].remove(action.card)
    if card.type == "weapon":
        _, loc = rules.position(state, action.victims[0])
        state.limbo.append(action.card)
        state.whacking = Whacking(whacker=seat, weapon=action.card, targets=list(action.victims), location=loc)
        flow.say("whack", seat=seat, weapon=action.card, victims=list(action.victims), location=loc)
        flow.push(flow.task("window", type="whack_declared"), *[flow.task(op) for op in WHACK_TASKS])
    elif card.type == "surprise":
        state.surprises[action.victims[0]] = action.card
        state.known[seat] = [*state.known[seat], action.card]
        flow.say("surprise_played", seat=seat, victim=action.victims[0])
        flow.tell(seat, "your_surprise", card=action.card, victim=action.victims[0])
    elif attaches(card) == "media":
        state.limbo.append(action.card)
        flow.say("media_played", seat=seat, card=action.card, incident=action.incident)
        flow.push(flow.task("window", type="media_played", card=action.card, incident=action.incident),
                  flow.task("attach_media", card=action.card, incident=action.incident))
    elif attaches(card) == "own":
        inc = flow.own_incident(action.incident)
        inc.attached.append(action.card)
        flow.say("attached", seat=seat, card=action.card, incident=inc.id, score=rules.incident_score(inc))
    else:
        state.limbo.append(action.card)
        flow.say("event", seat=seat, card=action.card)
        flow.push(flow.task("to_discard", card=action.card))
        effects.run(flow, action.card, "on_play", {"self": seat, "chosen_other": action.seat,
                                                   "victims": list(action.victims), "location": action.location,
                                                   "incident": action.incident})


# ------------------------------------------------------------------ responses

def response_error(state: LetsKillState, seat: int, answer: Respond) -> IllegalAction | None:
    """The legality test of a Response Event, the same at submission and at resolution (LK-20, §9.13)."""
    window = state.window
    if window is None or seat not in window.eligible:
        return IllegalAction("lets_kill.not_now")
    if answer.card is None:
        return None
    if answer.card not in state.hands[seat]:
        return IllegalAction("lets_kill.not_in_hand", card=answer.card)
    card = CARDS[answer.card]
    responses = card.effects_of("response")
    if card.subtype != "response" or any(e.window != window.type for e in responses):
        return IllegalAction("lets_kill.wrong_window", card=answer.card)
    whacking = state.whacking
    for effect in responses:
        ok = True
        if effect.kind == "trigger_shootout":
            ok = whacking is not None and not whacking.cancelled and whacking.shootout_target is None
        elif effect.kind == "cancel" and effect.arg("what") == "whacking":
            ok = whacking is not None and not whacking.cancelled
        elif effect.kind == "cancel":
            ok = not window.cancelled
        elif effect.kind == "revive":
            inc = rules.incident(state, window.incident)
            ok = inc is not None and answer.victim in inc.victims
        elif effect.kind == "move_victim":
            ok = _move_ok(state, answer)
        if not ok:
            return IllegalAction("lets_kill.response_not_legal", card=answer.card)
    return None


def _move_ok(state: LetsKillState, answer: Respond) -> bool:
    """Rubbernecker (LK-29, §9.10): a legal position other than the current one, if the Victim was not moved."""
    window = state.window
    assert window is not None
    victim = window.victim
    if window.moved or victim is None:
        return False
    in_play, here = rules.position(state, victim)
    if not in_play or answer.location == here:
        return False
    return answer.location is None or rules.can_take(state, answer.location, [victim])


@cache  # one per printed card and target: an answer is never changed, shared
def _answer(card_id: str, victim: str | None = None, location: str | None = None) -> Respond:
    return Respond(card=card_id, victim=victim, location=location)


def legal_responses(state: LetsKillState, seat: int) -> list[Respond]:
    window = state.window
    if window is None or seat not in window.eligible or seat in window.answers:
        return []
    found = [PASS]
    for card_id in dict.fromkeys(state.hands[seat]):
        if CARDS[card_id].subtype != "response":
            continue
        options = [_answer(card_id)]
        if CARDS[card_id].effects_of("response", "revive"):
            inc = rules.incident(state, window.incident)
            options = [_answer(card_id, victim=v) for v in (inc.victims if inc else [])]
        elif CARDS[card_id].effects_of("response", "move_victim"):
            options = [_answer(card_id, location=loc) for loc in [None, *(x.card for x in state.locations)]]
        found += [o for o in options if response_error(state, seat, o) is None]
    return found


# ------------------------------------------------------------------ pledges

def pledge_error(state: LetsKillState, seat: int, cards: list[str]) -> IllegalAction | None:
    duel = state.shootout
    if duel is None or state.pending is None or state.pending.kind != "pledge" or state.pending.seat != seat:
        return IllegalAction("lets_kill.not_now")
    hand = list(state.hands[seat])
    for card_id in cards:
        if card_id not in hand or not CARDS[card_id].is_gun:
            return IllegalAction("lets_kill.not_a_gun", card=card_id)
        hand.remove(card_id)
    firepower = sum(CARDS[c].body_count or 0 for c in cards)
    if duel.phase == "target" and cards and duel.target_total + firepower < duel.posse_total:
        return IllegalAction("lets_kill.pledge_short", need=duel.posse_total - duel.target_total)
    return None


def legal_pledges(state: LetsKillState, seat: int) -> list[list[str]]:
    guns = [c for c in state.hands[seat] if CARDS[c].is_gun]
    subsets = [list(g) for size in range(len(guns) + 1) for g in combinations(guns, size)]
    return [s for s in subsets if pledge_error(state, seat, s) is None]
