"""Farewell Letters, anonymous posts and the day roll.

Layout (helpers.NINE): 0 Killer, 1-3 Victims, 4 Detective, 5 Maniac, 6 Doctor, 7 Journalist, 8 Prosecutor.
"""

from __future__ import annotations

from datetime import timedelta

from games.asesino.social import (
    ENGINE,
    SYSTEM_SEAT,
    AnonymousPost,
    BackJudgement,
    Crime,
    EndDay,
    Inspect,
    OpenJudgement,
    Recruit,
    WriteLetter,
)
from games.core import Audience, SeatInfo

from .helpers import NINE, Game, find, keys

NAMED = [SeatInfo(names=("pablo_88", "Pablo Pérez", "Pablete")), SeatInfo(names=("fran", "Francisca", "Fran")),
         SeatInfo(names=("koke", "Jorge", "Koke"))] + [SeatInfo(names=(f"user{i}",)) for i in range(3, 9)]


def murdered(victim: int = 2) -> Game:
    game = Game(names=NAMED)
    game.act(0, Recruit, target=1)
    game.act(0, Crime, victim=victim)
    return game


def test_refused_letter_can_be_rewritten_and_the_last_one_is_published_at_the_day_end() -> None:
    """A later letter replaces the earlier one; the day end posts it to the medium under the writer's seat."""
    game = murdered()
    game.refused(2, WriteLetter, text="It was Fran.")
    game.act(2, WriteLetter, text="first draft")
    game.act(2, WriteLetter, text="Red was their colour.")
    assert "asesino_social.letter" not in keys(game.events)
    letter = find(game.end_day(), "asesino_social.letter")
    assert letter.audience == Audience.medium()
    assert letter.params == {"seat": 2, "day": 1, "text": "Red was their colour."}
    assert ENGINE.view(game.state, None)["published"] == [
        {"day": 1, "kind": "letter", "seat": 2, "text": "Red was their colour."}]


def test_letter_only_on_the_day_of_death() -> None:
    """The next day the dead cannot write any more; the living cannot write at all."""
    game = murdered()
    assert game.refused(3, WriteLetter, text="hello").code == "asesino_social.no_letter_today"
    game.end_day()
    assert game.refused(2, WriteLetter, text="late").code == "asesino_social.dead"


def test_judged_player_may_write_a_letter_that_day() -> None:
    """The accused has the right to a Farewell Letter as if murdered."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    game.act(3, BackJudgement, judgement=1)
    game.act(4, BackJudgement, judgement=1)
    game.act(2, WriteLetter, text="I was innocent.")
    game.end_day()
    assert game.refused(2, WriteLetter, text="again").code == "asesino_social.no_letter_today"


def test_anonymous_post_goes_to_the_medium_under_the_character_name_only() -> None:
    """The post carries the character name and the text, never the seat."""
    game = Game()
    post = find(game.act(3, AnonymousPost, text="I saw something."), "asesino_social.anonymous_post")
    assert post.audience == Audience.medium()
    assert post.params == {"post": 1, "character": game.state.seats[3].character, "text": "I saw something."}


def test_end_day_rolls_the_day_and_resets_limits() -> None:
    """Day 2 starts at the boundary, ends a day later; spent limits are available again."""
    game = Game()
    game.act(4, Inspect, target=1)
    ended = find(game.end_day(), "asesino_social.day.ended")
    assert ended.params == {"day": 1, "next_day": 2, "ends_at": "2024-03-03T09:00:00+00:00"}
    assert game.state.day == 2 and not game.state.today.inspected
    game.act(4, Inspect, target=2)


def test_stale_end_day_is_refused() -> None:
    """A timer for a day already over (e.g. fired twice after a restart) changes nothing."""
    game = Game()
    game.end_day()
    assert game.refused(SYSTEM_SEAT, EndDay, day=1).code == "asesino_social.stale_day"


def test_end_day_is_a_system_action() -> None:
    """Players cannot end the day; the system seat cannot play."""
    game = Game()
    assert game.refused(0, EndDay, day=1).code == "asesino_social.system_only"
    assert game.refused(SYSTEM_SEAT, Inspect, target=1).code == "asesino_social.not_a_player"


def test_early_end_day_starts_the_next_day_at_once_and_accepts_a_given_boundary() -> None:
    """The adapter may end a day early and fix the next boundary itself."""
    game = Game()
    game.now += timedelta(hours=2)
    given = game.now + timedelta(hours=5)
    game.act(SYSTEM_SEAT, EndDay, minutes=0, day=1, next_ends_at=given)
    assert game.state.day_started_at == game.now and game.state.day_ends_at == given


def test_late_end_day_keeps_the_schedule() -> None:
    """A timer firing a little late does not shift the following days."""
    game = Game()
    game.now = game.state.day_ends_at + timedelta(minutes=3)
    game.act(SYSTEM_SEAT, EndDay, minutes=0, day=1)
    assert game.state.day_ends_at == game.state.day_started_at + timedelta(days=1)
    assert game.state.day_started_at.hour == 9 and game.state.day_started_at.minute == 0


def test_legal_actions_of_the_system_seat() -> None:
    """The timer's EndDay for the current day at its boundary, plus a sweep while judgements are open."""
    game = Game(NINE)
    (end,) = ENGINE.legal_actions(game.state, SYSTEM_SEAT)
    assert end == EndDay(at=game.state.day_ends_at, day=1)
    game.act(1, OpenJudgement, accused=2)
    assert [a.type for a in ENGINE.legal_actions(game.state, SYSTEM_SEAT)] == ["end_day", "expire_judgements"]


def test_an_action_stamped_at_or_after_the_boundary_is_refused_until_the_day_ends() -> None:
    """Ruling "Time": "The engine refuses an action stamped at or after the current day's boundary (the day must be
    ended first)" — a crime three hours after the boundary does not count for the old day."""
    game = Game()
    game.act(0, Recruit, target=1)
    game.now = game.state.day_ends_at + timedelta(hours=3)
    error = game.refused(0, Crime, victim=2)
    assert error.code == "asesino_social.day_over" and error.params["day"] == 1
    game.now = game.state.day_ends_at
    assert game.refused(0, Crime, victim=2).code == "asesino_social.day_over"
    game.end_day()
    game.act(0, Crime, victim=2, minutes=180)
    assert game.state.seats[2].died_day == 2


def test_an_action_stamped_before_the_last_accepted_one_is_refused() -> None:
    """Ruling "Time": the engine refuses an action stamped "earlier than the last accepted action", so two murders
    cannot land minutes apart across a late day end."""
    game = Game()
    game.act(0, Recruit, target=1, minutes=30)
    game.now -= timedelta(minutes=5)
    assert game.refused(4, Inspect, target=2).code == "asesino_social.out_of_order"
    game.now -= timedelta(days=1)
    assert game.refused(SYSTEM_SEAT, EndDay, day=1).code == "asesino_social.out_of_order"


def test_a_game_in_which_nobody_acts_ends_after_max_days_and_the_accusers_win() -> None:
    """README ruling "Maximum length": after day ``max_days`` (default 14) the game ends; the criminals did not
    reach their tally, so the good side wins (today such a game was still running on day 31)."""
    game = Game()
    assert game.options.max_days == 14
    for _ in range(13):
        game.end_day()
    assert game.state.day == 14 and game.state.result is None
    assert "asesino_social.day.last" not in keys(game.events[:-5])
    events = game.end_day()
    outcome = ENGINE.outcome(game.state)
    assert outcome is not None and outcome.reason == "asesino_social.end.time_up"
    assert outcome.winners == [1, 2, 3, 4, 5, 6, 7, 8]
    ends = [e.audience.kind for e in events if e.key == "asesino_social.end.time_up"]
    assert ends == ["public", "medium"]


def test_the_last_day_is_announced_and_idle_players_are_reminded() -> None:
    """Before the end: the last day is announced publicly; a living player idle for ``idle_days`` days hears
    privately how many days are left (again every ``idle_days`` days); active players are not reminded."""
    game = Game(max_days=5, idle_days=2)
    game.act(4, Inspect, target=1)
    first = game.end_day()
    assert not [e for e in first if e.key == "asesino_social.reminder.idle"]
    game.act(4, Inspect, target=2)
    second = game.end_day()
    reminded = [e for e in second if e.key == "asesino_social.reminder.idle"]
    assert sorted(e.audience.seats[0] for e in reminded) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert reminded[0].params == {"days": 2, "days_left": 3, "count": 3}
    assert not [e for e in game.end_day() if e.key == "asesino_social.reminder.idle"]
    last = game.end_day()
    assert find(last, "asesino_social.day.last").params["day"] == 5
    assert sorted(e.audience.seats[0] for e in last if e.key == "asesino_social.reminder.idle") == [
        0, 1, 2, 3, 4, 5, 6, 7, 8]
