"""Random legal games: they end, round-trip through JSON, replay, and never leak the Killer's whereabouts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cereal_killer import ENGINE
from games.cereal_killer.models import (
    CerealOptions,
    CerealState,
    ChooseAnswer,
    EndTurn,
    KillerTurn,
    PlaceDetective,
)
from games.core import Event, SeatInfo, get_engine
from games.core.replay import replay
from tests.games.cereal_killer.helpers import new_game

WEIGHTS = {"end_turn": 1.0, "move": 3.0, "ask": 4.0, "arrest": 0.3, "sniff": 1.0, "bark": 1.0, "bite": 0.3}
SECRET_KEYS = {"route", "routes", "killer_space", "options", "pending_options"}


def pick(state: CerealState, seat: int, rng: random.Random) -> Any:
    """A random legal action; the Killer prefers claiming victims, hunters prefer walking and asking."""
    actions = ENGINE.legal_actions(state, seat)
    if state.phase == "killer" and state.pending is None:
        claiming = [a for a in actions if a.victim is not None]
        return rng.choice(claiming if claiming and rng.random() < 0.7 else actions)
    weights = [WEIGHTS.get(a.type, 1.0) for a in actions]
    return rng.choices(actions, weights)[0]


def play_out(players: int, seed: int, options: CerealOptions) -> tuple[CerealState, list[tuple[int, dict]],
                                                                       list[tuple[CerealState, list[Event]]]]:
    """Play a random game to the end; returns the final state, the action log and every (state, events)."""
    state = ENGINE.setup(options, [SeatInfo() for _ in range(players)], seed)
    rng, log, history = random.Random(seed), [], []
    for _ in range(2000):
        if ENGINE.outcome(state) is not None:
            break
        (seat,) = ENGINE.to_act(state)
        action = pick(state, seat, rng)
        done = ENGINE.apply(state, seat, action)
        log.append((seat, ENGINE.dump_action(action)))
        state = done.state
        history.append((state, done.events))
    return state, log, history


OPTION_CASES = [(2, CerealOptions(side="A")), (2, CerealOptions(side="B"))] + [
    (3, CerealOptions(difficulty=d)) for d in ("beginner", "recurring", "compulsive", "cereal")]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), case=st.sampled_from(OPTION_CASES))
def test_random_games_end_round_trip_and_replay(seed: int, case: tuple[int, CerealOptions]) -> None:
    """Random legal games end with an outcome; state JSON round-trips; replay rebuilds the same state."""
    players, options = case
    state, log, history = play_out(players, seed, options)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners in ([0], [1], [1, 2])
    assert ENGINE.parse_state(json.loads(json.dumps(ENGINE.dump_state(state)))) == state
    rebuilt = replay(ENGINE, options, [SeatInfo() for _ in range(players)], seed, log)
    assert ENGINE.dump_state(rebuilt) == ENGINE.dump_state(state)
    for mid, _ in history:
        assert 0 <= len(mid.victims) <= 6 and 0 <= mid.arrests_left <= 4
        assert len({v.space for v in mid.victims}) == len(mid.victims)
        assert len(mid.questions_used) == len(set(mid.questions_used))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3]))
def test_public_information_never_reveals_the_killer(seed: int, players: int) -> None:
    """While a game runs, public/Detective views ignore the Killer's space, route and answer options, and
    public events carry no route, Killer space or options."""
    _, _, history = play_out(players, seed, CerealOptions())
    rng = random.Random(seed)
    for state, events in history:
        for event in events:
            if event.audience.is_public and not event.key.startswith("cereal_killer.end."):
                assert not SECRET_KEYS & set(event.params), event
        if state.result is not None:
            continue
        public, detective = ENGINE.view(state, None), ENGINE.view(state, 1)
        assert not SECRET_KEYS & set(public) and public["revealed"] is None
        assert detective == public
        elsewhere = state.model_copy(deep=True)
        elsewhere.killer = rng.choice([s for s in range(1, 20 * (players - 1) + 1) if s != state.killer])
        elsewhere.routes = [[rng.randint(1, 20) for _ in range(4)] for _ in state.routes]
        elsewhere.killer_rode, elsewhere.sniffed_out, elsewhere.invisible = True, True, True
        if elsewhere.pending is not None:
            elsewhere.pending.options = ["north", "east"]
        assert ENGINE.view(elsewhere, None) == public
        assert ENGINE.view(elsewhere, 1) == detective


def test_killer_view_adds_space_route_and_options() -> None:
    """The Killer's own view carries its space and every day's route; the others never do."""
    state, _, history = play_out(2, 3, CerealOptions())
    mid = next(s for s, _ in history if s.result is None and s.routes)
    view = ENGINE.view(mid, 0)
    assert view["killer_space"] == mid.killer and view["routes"] == mid.routes
    assert ENGINE.view(state, None)["revealed"] == {"killer_space": state.killer, "routes": state.routes}


@pytest.mark.parametrize("players", [2, 3])
def test_timeout_actions(players: int) -> None:
    """Timers: a random legal turn for the Killer's route; a random Cafe for placement; EndTurn for hunters; a
    true option for a pending answer. Each is accepted by the engine; none once the game is over."""
    state, _, history = play_out(players, 11, CerealOptions())
    for mid, _ in [(new_game(players), []), *history]:
        action = ENGINE.timeout_action(mid)
        if mid.result is not None:
            assert action is None
            continue
        seat, chosen = action
        assert seat in ENGINE.to_act(mid)
        assert chosen in ENGINE.legal_actions(mid, seat)
        routing = mid.phase == "killer" and mid.pending is None
        assert isinstance(chosen, KillerTurn if routing else ChooseAnswer | PlaceDetective | EndTurn)
        ENGINE.apply(mid, seat, chosen)


def test_engine_is_registered_with_one_mode() -> None:
    """Importing the package registers cereal_killer/classic for 2-3 players."""
    engine = get_engine("cereal_killer", "classic")
    assert engine is ENGINE
    assert (engine.mode.min_players, engine.mode.max_players) == (2, 3)


def test_intro_sends_roles_privately() -> None:
    """The start announces the boards publicly, each role by DM, and prompts the Killer for its route."""
    events = ENGINE.intro(new_game(3))
    assert [(e.key, e.audience.seats) for e in events] == [
        ("cereal_killer.started.suburbs", ()), ("cereal_killer.role.killer", (0,)),
        ("cereal_killer.role.detective", (1,)), ("cereal_killer.role.lola", (2,)),
        ("cereal_killer.prompt.first_route", (0,))]
    assert events[0].params == {"players": 3, "city": "A", "suburbs": "A", "difficulty": "recurring", "days": 8}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), case=st.sampled_from(OPTION_CASES))
def test_a_table_where_nobody_plays_still_ends(seed: int, case: tuple[int, CerealOptions]) -> None:
    """Only turn timers play (the Killer's routes included): every game reaches an outcome within its days, and
    the same seed times out the same way."""
    players, options = case

    def timed_out() -> list[Any]:
        state = ENGINE.setup(options, [SeatInfo() for _ in range(players)], seed)
        moves: list[Any] = []
        while ENGINE.outcome(state) is None:
            assert len(moves) < 200, "the game stalls"
            seat, action = ENGINE.timeout_action(state)  # type: ignore[misc]
            state = ENGINE.apply(state, seat, action).state
            moves.append(action)
        assert state.day <= state.days
        return moves

    assert timed_out() == timed_out()
