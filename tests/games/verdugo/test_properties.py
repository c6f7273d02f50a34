"""Random legal matches at every player count: they end, Crowns are conserved, refused actions change nothing,
states round-trip through JSON and replay, every decision has a timeout default, and no public view or event
shows a hidden role or object before its reveal (§12)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import SYSTEM_SEAT, Event, IllegalAction, SeatInfo
from games.core.replay import replay
from games.verdugo import ENGINE
from games.verdugo.models import CENTRE, Chop, EndMatch, Peek, Stop, Successor, Swap, VerdugoOptions, VerdugoState
from games.verdugo.treasury import treasury

#: public events allowed to name a card: the active lists, the setup's face-up cards, reveals, the Town Crier
CARD_KEYS = {"card", "object", "role", "roles", "objects", "centre", "discarded_role", "drawn"}
PUBLIC_CARD_EVENTS = {"verdugo.round.active", "verdugo.setup.set_aside", "verdugo.reveal.object",
                      "verdugo.reveal.role", "verdugo.reveal.all", "verdugo.scaffold.cried", "verdugo.scaffold.drawn",
                      "verdugo.scaffold.rule", "verdugo.scaffold.extra_action", "verdugo.scaffold.passed",
                      "verdugo.scaffold.shuffled", "verdugo.scaffold.traded", "verdugo.scaffold.smuggled",
                      "verdugo.scaffold.dealt", "verdugo.scaffold.inspected", "verdugo.scaffold.examined",
                      "verdugo.scaffold.spied", "verdugo.scaffold.picked"}
SCAFFOLD_CARD_ONLY = {k for k in PUBLIC_CARD_EVENTS
                      if k.startswith("verdugo.scaffold.") and k != "verdugo.scaffold.cried"}


def check_public(state: VerdugoState, events: list[Event]) -> None:
    """§12: the public view and public events show no hidden role or object."""
    view = ENGINE.view(state, None)
    r = state.round
    assert "you" not in view
    if r.phase != "over":
        assert view["reveal"] is None
    for seat, shown in enumerate(view["shown_objects"]):
        assert shown is None or seat in r.executed or seat in r.dead
    for seat, shown in enumerate(view["shown_roles"]):
        assert shown is None or seat in r.dead or (seat in r.executed and "open_trial" in r.rules)
    for event in events:
        if not event.audience.is_public:
            continue
        if event.key in SCAFFOLD_CARD_ONLY:  # they name the Scaffold card, never an object or role
            assert set(event.params) & CARD_KEYS <= {"card"}
        elif event.key not in PUBLIC_CARD_EVENTS:
            assert not set(event.params) & CARD_KEYS, event


def assert_conserved(before: VerdugoState, after: VerdugoState, events: list[Event]) -> None:
    """Players + Treasury = 80, nobody below 0, and every Crown that moved is accounted for by an event: what
    the players gained as a whole equals the Treasury's payments minus the losses paid into it."""
    assert treasury(after) >= 0 and min(after.crowns) >= 0 and sum(after.crowns) + treasury(after) == 80
    paid = sum(e.params["amount"] for e in events if e.key == "verdugo.crowns.gained")
    paid += sum(e.params["from_treasury"] for e in events if e.key == "verdugo.crowns.stolen")
    lost = sum(e.params["amount"] for e in events if e.key == "verdugo.crowns.lost")
    assert sum(after.crowns) - sum(before.crowns) == paid - lost


def refused_changes_nothing(state: VerdugoState, rng: random.Random) -> None:
    """An action the rules forbid raises and leaves the state as it was."""
    before = ENGINE.dump_state(state)
    seats = len(state.seats)
    wrong = rng.choice([Stop(), Chop(seat=rng.randrange(seats)), Peek(position=CENTRE),
                        Swap(a=0, b=0), Successor(seat=rng.randrange(seats))])
    seat = rng.choice([s for s in range(seats)])
    if wrong in ENGINE.legal_actions(state, seat):
        return
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, wrong)
    assert ENGINE.dump_state(state) == before


def play_match(players: int, seed: int, match: str, rounds: int) -> tuple[VerdugoState, list[tuple[int, Any]]]:
    """A random legal match (an ``open`` one is ended by the host after ``rounds`` rounds); every few steps the
    timeout default is played instead of a random action."""
    options = VerdugoOptions(match=match, cheese_variant=seed % 2 == 1)  # type: ignore[arg-type]
    seats = [SeatInfo(names=(f"P{i}",)) for i in range(players)]
    state = ENGINE.setup(options, seats, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    check_public(state, ENGINE.intro(state))
    for _ in range(400):
        if ENGINE.outcome(state) is not None:
            break
        if state.phase == "successor" and match == "open" and state.rounds_played >= rounds:
            seat, action = SYSTEM_SEAT, EndMatch()
        else:
            move = ENGINE.timeout_action(state)
            assert move is not None and ENGINE.to_act(state) == [move[0]]
            seat = move[0]
            legal = ENGINE.legal_actions(state, seat)
            action = move[1] if rng.random() < 0.2 else rng.choice(legal)
        if rng.random() < 0.1:
            refused_changes_nothing(state, rng)
        step = ENGINE.apply(state, seat, action)
        log.append((seat, ENGINE.dump_action(action)))
        assert_conserved(state, step.state, step.events)
        state = step.state
        check_public(state, step.events)
    return state, log


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(4, 8), match=st.sampled_from(["open", "tour"]))
def test_random_matches_end_conserve_crowns_and_replay(seed: int, players: int, match: str) -> None:
    """Every match ends; the state round-trips through JSON; replaying the log rebuilds it exactly."""
    rounds = 2
    if match == "tour":
        players = 4
    state, log = play_match(players, seed, match, rounds)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_act(state) == [] and ENGINE.timeout_action(state) is None
    assert outcome.winners and all(state.crowns[w] == max(state.crowns) for w in outcome.winners)
    dumped = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert ENGINE.dump_state(ENGINE.parse_state(dumped)) == ENGINE.dump_state(state)
    seats = [SeatInfo(names=(f"P{i}",)) for i in range(len(state.seats))]
    rebuilt = replay(ENGINE, state.options, seats, state.seed, log)
    assert ENGINE.dump_state(rebuilt) == ENGINE.dump_state(state)


@pytest.mark.parametrize("players", range(4, 9))
def test_timeouts_alone_finish_a_round_at_every_player_count(players: int) -> None:
    """An absent table never stalls: timeout defaults alone take a round from setup to the successor choice."""
    state = ENGINE.setup(VerdugoOptions(match="open"), [SeatInfo() for _ in range(players)], players)
    for _ in range(200):
        if state.phase != "round":
            break
        seat, action = ENGINE.timeout_action(state)  # type: ignore[misc]
        state = ENGINE.apply(state, seat, action).state
    assert state.phase in ("successor", "over") and state.round.ending in ("safe", "saboteurs", None)
