"""The host's controls every engine has (:mod:`games.core.controls`): pause, resume and close are the contract's own
steps, the same for every game and mode: while paused no move counts and the game's clock has nothing due; the
resume gives the game's own deadlines the time they had left; a closed game is over with no result and reveals
what a finished game reveals; each replays from ``(seed, actions)``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from games.core import HOST_SEAT, SYSTEM_SEAT, Engine, IllegalAction, SeatInfo, get_engine
from games.core.controls import CloseGame, PauseGame, ResumeGame
from games.core.replay import replay
from tests.games.core.test_flow_contract import MODES, START, dealt, played_out

AT = datetime.fromisoformat(START)


def pause(at: datetime = AT, by: str = "Alice") -> PauseGame:
    return PauseGame(at=at, by=by)


def resume(at: datetime, by: str = "Alice") -> ResumeGame:
    return ResumeGame(at=at, by=by)


def a_move(engine: Engine, state: Any) -> tuple[int, Any]:
    """A legal move of a seat the game waits on now."""
    seat = next(s for s in engine.to_act(state) if engine.legal_actions(state, s))
    return seat, engine.legal_actions(state, seat)[0]


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_no_move_counts_while_paused_and_every_move_after_the_resume(game: str, mode: str, players: int) -> None:
    """Paused by the host: every awaited seat's move, the time limit's default and the clock's actions are refused
    (``core.is_paused``, naming who paused it) and the state is untouched; after the resume the same move is
    accepted."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    paused = engine.apply(state, HOST_SEAT, pause()).state
    assert engine.paused(paused).by == "Alice" and engine.paused(state) is None  # the input is not changed
    before = engine.dump_state(paused)
    seat, move = a_move(engine, state)
    refused = [move]
    if engine.features.timeouts and (default := engine.timeout_action(state)) is not None:
        refused.append(default[1])
    for action in refused:
        with pytest.raises(IllegalAction) as caught:
            engine.apply(paused, seat, action)
        assert (caught.value.code, caught.value.params) == ("core.is_paused", {"by": "Alice"})
    assert engine.due(paused, AT + timedelta(days=30)) == []
    assert engine.dump_state(paused) == before
    going = engine.apply(paused, HOST_SEAT, resume(AT + timedelta(minutes=5))).state
    assert engine.paused(going) is None
    engine.apply(going, seat, move)


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_only_the_host_controls_and_each_control_in_its_time(game: str, mode: str, players: int) -> None:
    """A player or the game's clock sending a control gets the game's ``host_only``; a second pause
    ``core.already_paused``; a resume of a running game ``core.not_paused``."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    for seat in (0, SYSTEM_SEAT):
        with pytest.raises(IllegalAction) as caught:
            engine.apply(state, seat, pause())
        assert caught.value.code == engine.features.host_only
    with pytest.raises(IllegalAction, match="core.not_paused"):
        engine.apply(state, HOST_SEAT, resume(AT))
    paused = engine.apply(state, HOST_SEAT, pause()).state
    with pytest.raises(IllegalAction, match="core.already_paused"):
        engine.apply(paused, HOST_SEAT, pause(by="Bob"))


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_a_pause_leaves_the_decision_open(game: str, mode: str, players: int) -> None:
    """Pause and resume are two steps that do not close the decision the game waits on (its time limit and the
    controls drawn for it still hold): the decision's age grows by them; the next move of the game opens a new
    one."""
    engine = get_engine(game, mode)
    state = dealt(engine, players)
    age = engine.decision_age(state)
    paused = engine.apply(state, HOST_SEAT, pause()).state
    going = engine.apply(paused, HOST_SEAT, resume(AT + timedelta(seconds=30))).state
    assert (engine.decision_age(paused), engine.decision_age(going)) == (age + 1, age + 2)
    after = engine.apply(going, *a_move(engine, going)).state
    if engine.waiting(after) is not None and engine.waiting(after).open_for == 0:
        assert engine.decision_age(after) == 0


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_the_controls_replay_from_the_seed(game: str, mode: str, players: int) -> None:
    """A log with a pause, a resume, a move and a cancel replays to the same state; its JSON round-trips."""
    engine = get_engine(game, mode)
    seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
    options = engine.Options.model_validate({"started_at": START} if "started_at" in engine.Options.model_fields
                                            else {})
    state = engine.setup(options, seats, 3)
    log: list[tuple[int, dict[str, Any]]] = []
    for seat, action in [(HOST_SEAT, pause()), (HOST_SEAT, resume(AT + timedelta(minutes=2)))]:
        state = engine.apply(state, seat, action).state
        log.append((seat, engine.dump_action(action)))
    seat, move = a_move(engine, state)
    state = engine.apply(state, seat, move).state
    log.append((seat, engine.dump_action(move)))
    close = CloseGame(at=AT + timedelta(minutes=3), by="Alice")
    state = engine.apply(state, HOST_SEAT, close).state
    log.append((HOST_SEAT, engine.dump_action(close)))
    rebuilt = replay(engine, options, seats, 3, log)
    assert engine.dump_state(rebuilt) == engine.dump_state(state)
    assert engine.dump_state(engine.parse_state(engine.dump_state(state))) == engine.dump_state(state)


#: what each finished game's public view reveals, and how to read it
REVEALED: dict[tuple[str, str], Any] = {
    ("asesino", "tabletop"): lambda view: view["roles"],
    ("asesino", "small"): lambda view: view["roles"],
    ("asesino", "social"): lambda view: view.get("roles"),
    ("cereal_killer", "classic"): lambda view: view["revealed"],
    ("verdugo", "classic"): lambda view: view["reveal"],
    ("lets_kill", "classic"): lambda view: True,  # a finished Let's Kill! shows no hand either
    ("potato", "classic"): lambda view: True,  # the tests' tiny game (registered by the table tests)
}


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_a_cancelled_game_is_over_with_no_result_and_reveals(game: str, mode: str, players: int) -> None:
    """The host's close ends the game (every move refused as ``core.game_over``) with no outcome (no winner, no
    scores); its public view reveals what a finished game's does, which the running game's hid."""
    engine = get_engine(game, mode)
    reveals = REVEALED.get((game, mode))
    assert reveals is not None, f"say what {game}/{mode} reveals at its end"
    state = dealt(engine, players)
    finished = played_out(engine, dealt(engine, players))
    assert reveals(engine.view(finished, None))
    closed = engine.apply(state, HOST_SEAT, CloseGame(at=AT, by="Alice")).state
    assert engine.is_over(closed) and engine.outcome(closed) is None
    assert engine.closed(closed).by == "Alice"
    assert reveals(engine.view(closed, None))
    with pytest.raises(IllegalAction, match="core.game_over"):
        engine.apply(closed, *a_move(engine, state))


def test_the_social_clock_resumes_with_the_time_it_had_left() -> None:
    """README ruling 32: paused for two hours, the social day ends two hours later and an open judgement expires
    two hours later; meanwhile the clock has nothing due, even past the old boundary."""
    engine = get_engine("asesino", "social")
    state = dealt(engine, 6)
    ends = state.day_ends_at
    opened = next(a for a in engine.legal_actions(state, 1) if a.type == "open_judgement")
    state = engine.apply(state, 1, opened.model_copy(update={"at": AT + timedelta(hours=1)})).state
    expires = state.judgements[0].expires_at
    paused = engine.apply(state, HOST_SEAT, pause(AT + timedelta(hours=1, minutes=1))).state
    assert engine.due(paused, ends + timedelta(hours=1)) == []
    going = engine.apply(paused, HOST_SEAT, resume(AT + timedelta(hours=3, minutes=1))).state
    assert going.day_ends_at == ends + timedelta(hours=2)
    assert going.judgements[0].expires_at == expires + timedelta(hours=2)
    assert [a.type for a in engine.due(going, ends + timedelta(hours=2, seconds=-1))] == ["expire_judgements"]
    assert [a.type for a in engine.due(going, ends + timedelta(hours=2))] == ["end_day"]
    assert engine.due(going, AT + timedelta(hours=3, minutes=2)) == []  # the judgement had 14 of its 15 minutes
    assert [a.type for a in engine.due(going, expires + timedelta(hours=2, seconds=1))] == ["expire_judgements"]
