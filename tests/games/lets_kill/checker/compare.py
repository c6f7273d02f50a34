"""Play seeded random legal matches through the engine's public API and compare every step with this checker.

:func:`compare_match` raises :class:`Disagreement` at the first step where the engine's state, legal actions,
refusals, views or outcome differ from the checker's reading of the rules.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from games.core import SYSTEM_SEAT, IllegalAction, SeatInfo
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import LetsKillOptions, PlaceVictim, PlayCard, Pledge, Respond

from .cards import load
from .decisions import conservation, play_ok, pledge_options, response_options
from .rules import card, in_play, incident_score, legal_declarations, placement_options, score, where
from .whacking import Declared
from .whacking import check as check_whacking

MAX_STEPS = 4000


class Disagreement(AssertionError):
    pass


@dataclass
class Tally:
    matches: int = 0
    steps: int = 0
    refusals: int = 0
    accepted_probes: int = 0
    whackings: int = 0
    media: int = 0
    ends: dict[str, int] = field(default_factory=dict)


def _fail(players: int, seed: int, step: int, what: str) -> None:
    raise Disagreement(f"players={players} seed={seed} step={step}: {what}")


def _check_zones(state: Any) -> str | None:
    zones = conservation(state)
    if sorted(zones) != sorted(load()):
        missing = set(load()) - set(zones)
        dup = {c for c in zones if zones.count(c) > 1}
        return f"card conservation: missing {sorted(missing)}, duplicated {sorted(dup)}"
    return None


def _check_views(state: Any) -> str | None:
    secret_hand = [{c for c in h} for h in state.hands]
    face_down = set(state.surprises.values())
    public = ENGINE.view(state, None)
    text = json.dumps(public)
    leaked = [c for h in secret_hand for c in h if f'"{c}"' in text] + [c for c in face_down if f'"{c}"' in text]
    if leaked:
        return f"public view shows secret cards {leaked}"
    mine = [score(state, s) for s in range(len(state.seats))]
    if public.get("scores") != mine:
        return f"scores: engine {public.get('scores')} vs checker {mine} (§7.5)"
    for inc in state.incidents:
        if (shown := next(i["score"] for i in public["incidents"] if i["id"] == inc.id)) != incident_score(inc):
            return f"incident {inc.model_dump()} scored {shown}, checker {incident_score(inc)} (§7.5)"
    for seat in range(len(state.seats)):
        text = json.dumps(ENGINE.view(state, seat))
        others = [c for s, h in enumerate(secret_hand) if s != seat for c in h if f'"{c}"' in text]
        unknown = [c for c in face_down if c not in state.known[seat] and f'"{c}"' in text]
        if others or unknown:
            return f"seat {seat}'s view shows {others + unknown}"
    return None


def _probes(state: Any, seat: int, rng: random.Random) -> list[PlayCard]:
    victims = in_play(state)
    inc_ids = [i.id for i in state.incidents] + [999]
    probes = []
    for cid in state.hands[seat]:
        for _ in range(3):
            group = rng.sample(victims, min(len(victims), rng.randint(1, 4))) if victims else []
            if rng.random() < 0.6 and state.locations:
                loc = rng.choice(state.locations)
                group = rng.sample(loc.victims, min(len(loc.victims), rng.randint(1, 5)))
            probes.append(PlayCard(card=cid, victims=group[:1] if card(cid).type == "surprise" else group,
                                   location=rng.choice([None, *(x.card for x in state.locations)]),
                                   incident=rng.choice(inc_ids) if card(cid).type == "event" else None,
                                   seat=rng.randrange(len(state.seats)) if card(cid).type == "event" else None))
    return probes


def _verdict(state: Any, seat: int, action: Any, mine: bool, tally: Tally) -> str | None:
    try:
        ENGINE.apply(state, seat, action)
        accepted = True
    except IllegalAction:
        accepted = False
    tally.refusals += not accepted
    tally.accepted_probes += accepted
    if accepted != mine:
        return f"seat {seat} {action.model_dump()}: engine {'accepts' if accepted else 'refuses'}, checker says " \
               f"{'legal' if mine else 'illegal'}"
    return None


def _probe_other(state: Any, players: int, rng: random.Random, tally: Tally) -> str | None:
    """Random answers to a placement, a window or a pledge, each judged by the checker and the engine."""
    kind = state.pending.kind
    if kind == "place":
        loc = rng.choice([x.card for x in state.locations])
        return _verdict(state, state.pending.seat, PlaceVictim(location=loc), loc in
                        placement_options(state, state.pending.victim), tally)
    if kind == "window":
        seat = rng.randrange(players)
        responses = [c for c in load() if card(c).subtype == "response"]
        cid = rng.choice([*state.hands[seat], *responses])
        answer = Respond(card=cid, victim=rng.choice([None, *in_play(state), *(v for i in state.incidents
                                                                               for v in i.victims)]),
                         location=rng.choice([None, *(x.card for x in state.locations)]))
        options = response_options(state, seat)
        key = (answer.card, answer.victim if card(cid).fx("response(incident_formed)", "revive") else None,
               answer.location if any(e.kind == "move_victim" for e in card(cid).effects) else None)
        if answer.victim is not None and key[1] is None or answer.location is not None and key[2] is None:
            return None  # a parameter this card does not take: not judged
        return _verdict(state, seat, answer, key in options, tally)
    if kind == "pledge":
        seat = state.pending.seat
        cards = rng.sample(state.hands[seat], rng.randint(0, min(3, len(state.hands[seat]))))
        return _verdict(state, seat, Pledge(cards=cards), frozenset(cards) in pledge_options(state, seat), tally)
    return None


def _listed(listed: list[Any], probe: PlayCard) -> bool:
    """Whether ``probe`` is among the listed plays up to the order of its Victims (the engine lists each set once,
    every order legal: ``free_order``), ignoring the targets no listed play of that card uses (the engine does)."""
    same = [a for a in listed if isinstance(a, PlayCard) and a.card == probe.card]
    used = [f for f in ("victims", "location", "incident", "seat") if any(getattr(a, f) not in (None, []) for a in same)
            and not (f == "location" and not probe.victims)]  # moving no Victim has no destination (§9.10)

    def key(a: PlayCard) -> tuple[Any, ...]:
        return tuple(frozenset(a.victims) if f == "victims" else getattr(a, f) for f in used)

    return key(probe) in {key(a) for a in same}


def _check_pending(state: Any, players: int, rng: random.Random, tally: Tally) -> str | None:
    pending = state.pending
    kind = pending.kind
    if kind == "place":
        mine = placement_options(state, pending.victim)
        if not mine or set(pending.options) != mine:
            return f"placement of {pending.victim}: engine {pending.options} vs checker {sorted(mine)} (LK-04)"
    elif kind == "play":
        seat = pending.seat
        if pending.extra and ([k.lower() for k in pending.kinds], pending.bonus) != (["weapon"], 1):
            return f"Killing Spree's extra play: kinds {pending.kinds}, bonus {pending.bonus} (E03, LK-25)"
        if not pending.extra and (sorted(k.lower() for k in pending.kinds), pending.bonus) != \
                (["event", "surprise", "weapon"], 0):
            return f"Step 2: kinds {pending.kinds}, bonus {pending.bonus} (LK-05)"
        if not pending.extra and not state.victims_deck and not in_play(state):
            return "Step 2 asked although the Victims ran out (LK-31, §9.9)"
        listed = ENGINE.legal_actions(state, seat)
        if any(getattr(a, "type", "") == "discard_hand" for a in listed) == pending.extra:
            return "discarding the hand offered with a mandatory extra play, or missing from Step 2 (LK-05, §9.10)"
        for action in listed:
            if isinstance(action, PlayCard) and not play_ok(state, seat, pending.kinds, pending.bonus, action.card,
                                                            action.victims, action.location, action.incident,
                                                            action.seat):
                return f"engine lists an illegal play {action.model_dump()}"
        for action in _probes(state, seat, rng):
            mine = play_ok(state, seat, pending.kinds, pending.bonus, action.card, action.victims, action.location,
                           action.incident, action.seat)
            try:
                ENGINE.apply(state, seat, action)
                accepted = True
            except IllegalAction:
                accepted = False
            tally.refusals += not accepted
            tally.accepted_probes += accepted
            if accepted and not _listed(listed, action):
                return f"engine accepts {action.model_dump(exclude_defaults=True)} but does not list it (in any order)"
            if accepted != mine:
                where_ = {v: where(state, v) for v in action.victims if v in in_play(state)}
                return (f"play {action.model_dump(exclude_defaults=True)} (bonus {pending.bonus}, positions "
                        f"{where_}): engine {'accepts' if accepted else 'refuses'}, checker says "
                        f"{'legal' if mine else 'illegal'}")
    elif kind == "window":
        window = state.window
        expected = [(state.active + k) % players for k in range(1, players)]
        if window.eligible != expected:
            return f"window eligible {window.eligible} vs {expected} (LK-17)"
        for seat in expected:
            engine = {(a.card, a.victim, a.location) for a in ENGINE.legal_actions(state, seat)}
            mine = response_options(state, seat)
            if engine != mine:
                return (f"{window.type} window, seat {seat} hand {state.hands[seat]}: engine {sorted(map(str, engine))}"
                        f" vs checker {sorted(map(str, mine))}")
    elif kind == "pledge":
        duel = state.shootout
        posse = [(duel.target + k) % players for k in range(1, players)]
        if duel.posse != posse:
            return f"posse order {duel.posse} vs {posse} (§7.7)"
        want = duel.target if duel.phase == "target" else posse[duel.turn]
        if pending.seat != want:
            return f"pledge asked of {pending.seat}, expected {want}"
        engine = {frozenset(a.cards) for a in ENGINE.legal_actions(state, pending.seat)}
        if engine != pledge_options(state, pending.seat):
            return f"pledges of seat {pending.seat} in {duel.phase} phase: engine {engine} vs checker " \
                   f"{pledge_options(state, pending.seat)}"
    if kind in ("place", "window", "pledge") and (problem := _probe_other(state, players, rng, tally)):
        return problem
    if kind == "declare":
        if score(state, pending.seat) < 20 or state.declared_by is not None:
            return f"declaration offered to seat {pending.seat} with {score(state, pending.seat)} points (LK-32)"
    return None


def _check_hands(prev: Any, new: Any) -> str | None:
    """Only the active player draws (Step 3 and the active player's draw effects); a responder's or a shootout's
    spent cards wait for that player's own Step 3 (RB, LK-07)."""
    players = len(new.hands)
    began = range(players) if new.turn - prev.turn >= players else \
        {(prev.active + k) % players for k in range((new.active - prev.active) % players + 1)}  # skipped turns draw
    for seat, hand in enumerate(new.hands):
        if seat not in began and len(hand) > len(prev.hands[seat]):
            return f"seat {seat} drew out of turn: {prev.hands[seat]} -> {hand} (LK-07)"
    return None


def _check_turn_change(prev: Any, new: Any, offered: bool, placers: dict[str, int]) -> str | None:
    if new.ended and new.turn != prev.turn and new.skips[new.active] < prev.skips[new.active]:
        return f"seat {new.active}'s skip was spent by a turn the game's end kept from happening (LK-08, §9.9)"
    if new.turn == prev.turn or new.ended:
        return None
    if not new.lk_deck and len(new.hands[new.active]) <= len(prev.hands[new.active]):
        return f"seat {new.active}'s turn began with the Let's Kill deck empty (LK-30)"
    for victim in in_play(prev):
        if "Child" in card(victim).attrs and placers.get(victim) == new.active and victim in in_play(new):
            return f"{victim} (placed by seat {new.active}) did not go home at the start of its placer's turn"
    done = prev.active
    if new.active != (prev.active + new.turn - prev.turn) % len(new.seats):
        return f"turn {new.turn} is seat {new.active}'s after seat {prev.active}'s turn {prev.turn} (play passes left)"
    if len(new.hands[done]) < 5 and new.lk_deck:
        return f"seat {done} ended the turn with {len(new.hands[done])} cards and a non-empty deck (Step 3, LK-06)"
    if prev.declared_by is None and not offered and score(new, done) >= 20:
        return f"seat {done} ended the turn with {score(new, done)} points and was not offered to declare (LK-32)"
    if new.declared_by is not None and new.active == new.declared_by and new.declared_by == prev.declared_by:
        return "the declarer's next turn began (LK-32)"
    return None


def _check_outcome(state: Any) -> str | None:
    outcome = ENGINE.outcome(state)
    mine = {s: score(state, s) for s in range(len(state.seats))}
    best = max(mine.values())
    winners = [s for s in mine if mine[s] == best]
    if {s: int(p) for s, p in outcome.scores.items()} != mine or outcome.winners != winners:
        return f"outcome {outcome.scores} winners {outcome.winners} vs checker {mine} (LK-33)"
    if not (not state.lk_deck or (not state.victims_deck and not in_play(state)) or state.declared_by is not None):
        return f"game ended ({state.ended}) with no end condition met (LK-30..32)"
    if state.declared_by is not None and state.active == state.declared_by and state.ended != "declared":
        return f"the declarer's next turn would begin, the end recorded is {state.ended!r} (§9.11: LK-32 first)"
    return None


def compare_match(players: int, seed: int, tally: Tally, probe_every: int = 1) -> Any:
    rng = random.Random(seed)
    state = ENGINE.setup(LetsKillOptions(), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    dealt = ENGINE.intro(state)
    town = next(e.params["victims"] for e in dealt if e.key == "lets_kill.started")
    if len(town) != players or any(card(v).type != "victim" for v in town):
        _fail(players, seed, 0, f"setup town {town} (RB Set Up, LK-01)")
    if any(len(e.params["cards"]) < 5 for e in dealt if e.key == "lets_kill.dealt"):  # 6 after Penny's draw
        _fail(players, seed, 0, "hands of 5 dealt (RB Set Up)")
    offered, declared, media = False, None, None
    placers = {v: (state.first - 1) % players for v in town}  # LK-01, §9.15
    for step in range(MAX_STEPS):
        for check in (_check_zones, _check_views):
            if (problem := check(state)) is not None:
                _fail(players, seed, step, problem)
        if ENGINE.outcome(state) is not None:
            if (problem := _check_outcome(state)) is not None:
                _fail(players, seed, step, problem)
            tally.matches += 1
            tally.ends[state.ended] = tally.ends.get(state.ended, 0) + 1
            return state
        if step % probe_every == 0 and (problem := _check_pending(state, players, rng, tally)) is not None:
            _fail(players, seed, step, problem)
        offered = offered or state.pending.kind == "declare"
        waiting = ENGINE.to_act(state)
        if state.pending.kind == "window" and rng.random() < 0.25:
            seat, action = SYSTEM_SEAT, ENGINE.timeout_action(state)[1]
        else:
            seat = rng.choice(waiting)
            action = rng.choice(ENGINE.legal_actions(state, seat))
        if isinstance(action, PlayCard) and card(action.card).type == "weapon":
            declared = Declared.at(state, seat, action.card, action.victims)
        done = ENGINE.apply(state, seat, action)
        new = done.state
        tally.steps += 1
        if state.pending.kind == "peek_discard":
            kept = [v for v in state.pending.peeked if v not in action.cards]
            known = ENGINE.view(new, seat)["known"]
            if any(v in new.surprises for v in action.cards) or any(known.get(v) != state.surprises[v] for v in kept):
                _fail(players, seed, step, f"Stakeout: discarded {action.cards}, kept {kept}, seat {seat} knows "
                      f"{known} (LK-26)")
        if isinstance(action, PlayCard) and card(action.card).type == "surprise" and \
                ENGINE.view(new, seat)["known"].get(action.victims[0]) != action.card:
            _fail(players, seed, step, f"seat {seat} does not see the Surprise it placed (LK-11)")
        if isinstance(action, PlayCard) and card(action.card).fx("on_play", "steal_incident"):
            before = next(i for i in state.incidents if i.id == action.incident)
            after = next((i for i in new.incidents if i.id == action.incident), None)
            if after is None or after.owner != seat or after.model_dump(exclude={"owner"}) != \
                    before.model_dump(exclude={"owner"}) or \
                    [i.id for i in new.incidents if i.owner == seat][-1] != before.id:
                _fail(players, seed, step, f"Framed! moved {before} to {after} (steal_incident, §9.12)")
        if isinstance(action, PlayCard) and card(action.card).fx("on_play", "extra_play"):
            rest = [c for c in state.hands[seat] if c != action.card]
            can = any(legal_declarations(state, c, 1) for c in rest if card(c).type == "weapon")
            asked = new.pending is not None and new.pending.kind == "play" and new.pending.extra
            if can != asked:
                _fail(players, seed, step, f"Killing Spree with {rest}: extra play {'asked' if asked else 'lost'}"
                      " (LK-25, §9.10)")
        if isinstance(action, PlayCard) and card(action.card).subtype == "media":
            media = (action.card, action.incident, [])
        if media is not None:
            media[2].extend(e.params.get("card") for e in done.events if e.key.endswith(".response"))
            if new.pending is None or new.pending.kind != "window" or new.window.type != "media_played":
                inc = next((i for i in new.incidents if i.id == media[1]), None)
                cancelled = "E16" in media[2]
                if (inc is not None and (inc.media == media[0]) == cancelled) or \
                        (cancelled and media[0] not in new.lk_discard):
                    _fail(players, seed, step, f"Media Event {media[0]} on Incident {media[1]}, responses {media[2]}:"
                          f" attached {inc.media if inc else None} (LK-22, §9.3)")
                media = None
                tally.media += 1
        if declared is not None:
            declared.events += [(e.key, dict(e.params)) for e in done.events]
            if new.whacking is None:
                tally.whackings += 1
                if (problem := check_whacking(declared, new)) is not None:
                    _fail(players, seed, step, f"{problem}; declared {declared}")
                declared = None
        for victim in in_play(new):
            if victim in state.victims_deck:
                placers[victim] = new.active
        if (problem := _check_hands(state, new) or _check_turn_change(state, new, offered, placers)) is not None:
            _fail(players, seed, step, problem)
        if new.turn != state.turn:
            offered = False
        state = new
    _fail(players, seed, MAX_STEPS, "the match did not end")
    return state
