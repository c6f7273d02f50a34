"""The flow every engine shares (``Engine.apply`` is a checked wrapper): every registered engine refuses a finished
game and the wrong actor (a seat it does not wait on, the game's clock, the host) through the same wrapper, before
its own step runs, and changes nothing; a game declares what it has in one ``Features`` description."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import HOST_SEAT, SYSTEM_SEAT, Engine, IllegalAction, SeatInfo, all_games, get_engine, rng_for

START = "2026-01-05T09:00:00+00:00"
MODES = [(game.id, mode.id, mode.min_players) for game in all_games() for mode in game.modes]


def dealt(engine: Engine, players: int, seed: int = 3) -> Any:
    fields = engine.Options.model_fields
    options = engine.Options.model_validate({"started_at": START} if "started_at" in fields else {})
    return engine.setup(options, [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)


def played_out(engine: Engine, state: Any, seed: int = 3) -> Any:
    """``state`` played to the end by random legal moves; a game with a clock lets its day run out now and then
    (and applies what falls due), a game without one takes the default move when nobody can act."""
    rng = rng_for(seed, "contract")
    now = None
    for _ in range(20_000):
        if engine.is_over(state):
            return state
        due = engine.due(state, now) if engine.features.clock and now is not None else []
        if due:
            state = engine.apply(state, SYSTEM_SEAT, due[0]).state
            continue
        movers = [(s, legal) for s in engine.to_act(state) if (legal := engine.legal_actions(state, s))]
        if engine.features.clock and (not movers or rng.random() < 0.2):
            now = state.day_ends_at  # the real-time day runs out
            continue
        if movers:
            seat, legal = rng.choice(movers)
            state = engine.apply(state, seat, rng.choice(legal)).state
            continue
        move = engine.timeout_action(state)
        assert move is not None
        state = engine.apply(state, *move).state
    raise AssertionError(f"{engine.game}/{engine.mode.id} did not end")


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_every_engine_shares_the_one_checked_apply(game: str, mode: str, players: int) -> None:
    """No engine overrides ``apply``: game over and the actor are checked once, in the contract."""
    engine = get_engine(game, mode)
    assert type(engine).apply is Engine.apply
    assert type(engine)._apply is not Engine._apply


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_every_engine_refuses_the_wrong_actor_and_changes_nothing(game: str, mode: str, players: int) -> None:
    """A move of an awaited seat, sent by a seat the game does not wait on, by the game's clock or by the host,
    is refused with an ``IllegalAction`` and the state is untouched."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    before = engine.dump_state(state)
    awaited = engine.to_act(state)
    (seat, legal), = [(s, engine.legal_actions(state, s)) for s in awaited[:1]]
    move = legal[0]
    strangers = [s for s in range(players + 1) if s not in awaited] + [SYSTEM_SEAT, HOST_SEAT]
    for stranger in strangers:
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, stranger, move)
        assert refused.value.code, stranger
        with pytest.raises(IllegalAction):
            engine.check_actor(state, stranger, move)
    assert engine.dump_state(state) == before
    engine.check_actor(state, seat, move)  # the awaited seat passes the same gate
    engine.check_actor(state, seat)


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_every_engine_refuses_every_actor_once_the_game_is_over(game: str, mode: str, players: int) -> None:
    """After the end, any move from anyone (a seat, the clock, the host) is ``core.game_over``."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    move = engine.legal_actions(state, engine.to_act(state)[0])[0]
    over = played_out(engine, state)
    before = engine.dump_state(over)
    for actor in (*range(players), SYSTEM_SEAT, HOST_SEAT):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(over, actor, move)
        assert refused.value.code == "core.game_over"
    assert engine.dump_state(over) == before and engine.waiting(over) is None


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_a_game_declares_its_flow(game: str, mode: str, players: int) -> None:
    """Time limits, a clock, clock and host actions are declared, and what is declared exists: a game with time
    limits has a default move, one without a clock has nothing due, declared actions parse."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    features = engine.features
    if features.timeouts:
        assert engine.timeout_action(state) is not None
    if not features.clock:
        assert engine.due(state, None) == []
    kinds = {engine.dump_action(a)["type"] for s in (*range(players), SYSTEM_SEAT, HOST_SEAT)
             for a in engine.legal_actions(state, s)}
    assert not (features.clock_actions & features.host_actions)
    assert kinds - features.clock_actions - features.host_actions  # players have moves of their own
