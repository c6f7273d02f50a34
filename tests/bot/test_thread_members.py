"""Who joins a game's thread of the dead (:func:`bot.threads.members.out_seats`), from the public view only, over
seeded random games of every mode: the social mode's dead, the tabletop's murdered, Verdugo's dead of the round;
nobody in the modes where nobody is out. Rulings: the games' READMEs ("The thread of the dead and the watchers")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.threads.members import opened_interview, out_seats, recruited_pair
from games.core import Audience, Event, SeatInfo, get_engine
from tests.render.test_every_message_fits import MODES, options_for, random_game


def expected_out(game: str, mode: str, state: Any) -> set[int]:
    """Who is out, read from the full state (what the public view must show)."""
    if (game, mode) == ("asesino", "social"):
        return {i for i, s in enumerate(state.seats) if not s.alive}
    if (game, mode) == ("asesino", "tabletop"):
        return {i for i, s in enumerate(state.seats) if s.murdered}
    if game == "verdugo":
        return set(state.round.dead) if state.phase == "round" else set()
    return set()


@pytest.mark.parametrize(("game", "mode", "players"), [(g, m, hi) for g, m, _, hi in MODES])
def test_out_seats_follow_the_state_through_random_games(game: str, mode: str, players: int) -> None:
    """At every step of three seeded games, the public view's out seats are exactly the state's dead."""
    engine = get_engine(game, mode)
    seen_out = 0
    for seed in range(3):
        seats = [SeatInfo(names=(f"p{i}",)) for i in range(players)]
        start = engine.setup(options_for(engine, game, mode), seats, seed)
        for state, _ in random_game(engine, start, seed):
            want = expected_out(game, mode, state)
            assert out_seats(engine.view(state, None)) == want
            seen_out += bool(want)
    if (game, mode) in {("asesino", "social"), ("asesino", "tabletop"), ("verdugo", "classic")}:
        assert seen_out, f"no one was ever out in {game}/{mode}: the test did not look"


def test_the_pair_and_the_interview_come_from_their_events() -> None:
    """The recruitment's private event names the Killer (its audience) and the Accomplice; the interview's opening
    names both sides; other events name nobody."""
    recruit = Event(key="asesino_social.recruit.done", params={"accomplice": 4}, audience=Audience.to(1))
    opened = Event(key="asesino_social.interview.opened", params={"journalist": 2, "target": 5},
                   audience=Audience.to(2, 5))
    other = Event(key="asesino_social.protect.done", params={"target": 3}, audience=Audience.to(0))
    assert recruited_pair([other, recruit]) == (1, 4)
    assert opened_interview([opened, other]) == (2, 5)
    assert recruited_pair([other]) is None and opened_interview([recruit]) is None
