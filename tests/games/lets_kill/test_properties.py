"""Random legal games at 3, 4 and 5 players: they end; cards are conserved at every step; refused actions change
nothing; nothing public names a card in a hand or a face-down Surprise; windows open for everyone; a hand is sent
by DM exactly when it changed; JSON round-trips and replay rebuilds the game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import SYSTEM_SEAT, Event, IllegalAction, SeatInfo
from games.core.replay import replay
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import CloseWindow, DiscardHand, LetsKillOptions, LetsKillState, PlayCard, Pledge

from .support import card_total

MAX_STEPS = 3000


def secret_cards(state: LetsKillState) -> set[str]:
    return {c for hand in state.hands for c in hand} | set(state.surprises.values())


def check_invariants(state: LetsKillState, events: list[Event]) -> None:
    assert card_total(state) == (55, 55)
    allowed = {state.whacking.weapon if state.whacking else None, state.pending.victim if state.pending else None}
    allowed |= {state.window.card if state.window else None}
    allowed |= {t.args["card"] for t in state.agenda if t.op == "to_discard"}  # an Event still resolving
    assert set(state.limbo) <= allowed, state.limbo
    public = json.dumps([ENGINE.view(state, None), [e.params for e in events if e.audience.is_public]])
    assert not [card for card in secret_cards(state) if f'"{card}"' in public]
    if state.pending is not None and state.pending.kind == "window":
        assert state.window is not None and state.window.eligible == [
            (state.active + k) % len(state.seats) for k in range(1, len(state.seats))]
        assert ENGINE.timeout_action(state) == (SYSTEM_SEAT, CloseWindow())
        if not state.window.answers:
            assert ENGINE.to_act(state) == state.window.eligible  # open for everyone, whoever holds what


def refused_changes_nothing(state: LetsKillState, rng: random.Random) -> None:
    before = ENGINE.dump_state(state)
    waiting = set(ENGINE.to_act(state))
    idle = [s for s in range(len(state.seats)) if s not in waiting]
    tries: list[tuple[int, Any]] = [(s, DiscardHand()) for s in idle[:1]]
    tries += [(s, Pledge(cards=["W99"])) for s in waiting][:1]
    tries += [(rng.choice(range(len(state.seats))), PlayCard(card="V05", victims=["V06"]))]
    if idle and waiting:  # a move that is legal for a waiting seat, made by a seat the game is not waiting for
        tries += [(rng.choice(idle), rng.choice(ENGINE.legal_actions(state, rng.choice(sorted(waiting)))))]
    for seat, action in tries:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert ENGINE.dump_state(state) == before


def play_out(players: int, seed: int) -> tuple[LetsKillState, list[tuple[int, dict]]]:
    seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
    state = ENGINE.setup(LetsKillOptions(), seats, seed)
    check_invariants(state, ENGINE.intro(state))
    sent = [e.params["cards"] for e in ENGINE.intro(state) if e.key == "lets_kill.dealt"]
    rng, log = random.Random(seed), []
    for step_no in range(MAX_STEPS):
        if ENGINE.outcome(state) is not None:
            break
        waiting = ENGINE.to_act(state)
        assert waiting, state.pending
        if state.pending is not None and state.pending.kind == "window" and rng.random() < 0.2:
            seat, action = ENGINE.timeout_action(state)  # type: ignore[misc]
        else:
            seat = rng.choice(waiting)
            action = rng.choice(ENGINE.legal_actions(state, seat))
        if step_no % 7 == 0:
            refused_changes_nothing(state, rng)
        done = ENGINE.apply(state, seat, action)
        hand_dms = [(e.audience.seats, e.params["cards"]) for e in done.events if e.key == "lets_kill.hand"]
        turned = done.state.turn != state.turn and not done.state.ended
        assert hand_dms == ([((s,), hand) for s, hand in enumerate(done.state.hands) if hand != sent[s]]
                            if turned else [])  # at most one per seat and turn change, only when it changed
        if turned:
            sent = [list(hand) for hand in done.state.hands]
        log.append((seat, ENGINE.dump_action(action)))
        state = done.state
        check_invariants(state, done.events)
    return state, log


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_random_games_end_conserve_cards_and_replay(seed: int, players: int) -> None:
    """Every random game ends with an outcome naming the top scorers; state JSON round-trips; replay matches."""
    state, log = play_out(players, seed)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    best = max(outcome.scores.values())
    assert outcome.winners == [s for s, p in outcome.scores.items() if p == best]
    assert ENGINE.parse_state(json.loads(json.dumps(ENGINE.dump_state(state)))) == state
    seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
    rebuilt = replay(ENGINE, LetsKillOptions(), seats, seed, log)
    assert ENGINE.dump_state(rebuilt) == ENGINE.dump_state(state)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_timeouts_alone_finish_a_game(players: int) -> None:
    """Answering every decision with ``timeout_action`` ends the game (no absent player stalls it)."""
    state = ENGINE.setup(LetsKillOptions(), [SeatInfo() for _ in range(players)], players)
    for _ in range(MAX_STEPS):
        move = ENGINE.timeout_action(state)
        if move is None:
            break
        state = ENGINE.apply(state, *move).state
    assert ENGINE.outcome(state) is not None and ENGINE.timeout_action(state) is None
