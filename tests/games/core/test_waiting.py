"""The engine contract's answer to "who must act": ``Engine.waiting`` and ``is_over``, on the tiny game and on every
registered engine."""

from __future__ import annotations

import pytest

from games.core import SeatInfo, Waiting, all_games, get_engine
from tests.support.tiny_game import ENGINE, Pass, PotatoOptions

SEATS = [SeatInfo(names=(f"p{i}",)) for i in range(4)]


def test_default_waiting_is_the_seats_with_a_legal_action_on_their_turn() -> None:
    """The generic engine waits on the potato's holder, on a turn; ``to_act`` is the same seats."""
    state = ENGINE.setup(PotatoOptions(), SEATS, 1)
    assert ENGINE.waiting(state) == Waiting(seats=(state.holder,), kind="turn", pace="turn")
    assert ENGINE.to_act(state) == [state.holder]
    assert not ENGINE.is_over(state)


def test_a_finished_game_waits_on_nobody() -> None:
    """Once the outcome is known, ``waiting`` is None, ``to_act`` is empty and ``is_over`` is true."""
    state = ENGINE.setup(PotatoOptions(passes=1), SEATS, 1)
    over = ENGINE.apply(state, state.holder, Pass(to=(state.holder + 1) % 4)).state
    assert (ENGINE.waiting(over), ENGINE.to_act(over), ENGINE.is_over(over)) == (None, [], True)


@pytest.mark.parametrize(("waiting", "pings"), [
    (Waiting.turn(2), True),
    (Waiting.prompt(0, "last_words"), True),
    (Waiting(seats=(0, 1, 2), kind="day", pace="realtime"), False),
    (Waiting(seats=()), False),
])
def test_only_turns_and_prompts_of_someone_ping(waiting: Waiting, pings: bool) -> None:
    """A real-time game (or a wait on nobody) mentions no one and arms no move timer."""
    assert waiting.pings is pings


@pytest.mark.parametrize(("game", "mode", "players"), [
    (info.id, mode.id, mode.min_players) for info in all_games() for mode in info.modes])
def test_every_engine_answers_who_must_act_at_the_start(game: str, mode: str, players: int) -> None:
    """Every registered engine waits on seats of the table at the start, and each of them has a legal move."""
    engine = get_engine(game, mode)
    seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
    state = engine.setup(engine.Options(), seats, 3)
    waiting = engine.waiting(state)
    assert waiting is not None and waiting.seats and not engine.is_over(state)
    assert all(0 <= seat < len(seats) and engine.legal_actions(state, seat) for seat in waiting.seats)


def test_the_pace_picks_the_time_limit() -> None:
    """A prompt (the first player's choice of direction) gets the prompt time; a turn gets the turn time."""
    from types import SimpleNamespace

    from bot.ui import GameUI

    engine = get_engine("asesino", "tabletop")
    state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(5)], 3)
    config = SimpleNamespace(turn_timeout_seconds=600, prompt_timeout_seconds=120)
    assert engine.waiting(state).pace == "prompt"  # type: ignore[union-attr]
    assert GameUI().move_timeout(SimpleNamespace(engine=engine, state=state), config) == 120  # type: ignore[arg-type]
    potato = ENGINE.setup(PotatoOptions(), SEATS, 1)
    assert GameUI().move_timeout(SimpleNamespace(engine=ENGINE, state=potato), config) == 600  # type: ignore[arg-type]
