"""Farewell Letters, anonymous posts and the day roll.

Layout (helpers.NINE): 0 Killer, 1-3 Victims, 4 Detective, 5 Maniac, 6 Doctor, 7 Journalist, 8 Prosecutor.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

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


@pytest.mark.parametrize(("text", "name"), [
    ("They killed me, Pablo Perez and Fran, behind the stairs.", "Pablo Pérez"),
    ("Adiós, FRANCISCA...", "Francisca"),
    ("fran did it", "fran"),
    ("¡Pablo  PÉREZ!", "Pablo Pérez"),
    ("koke wrote this", "koke"),
    ("Thanks, PABLETE", "Pablete"),
])
def test_letter_naming_a_player_is_refused_ignoring_case_and_accents(text: str, name: str) -> None:
    """Ruling: a letter naming a player (any of their names, case and accents folded) is refused with the name."""
    error = murdered().refused(2, WriteLetter, text=text)
    assert error.code == "asesino_social.letter_names_player" and error.params == {"name": name}


@pytest.mark.parametrize("text", [
    "After a grey day, just before dusk, around 18:00, they murdered me while I had my snack.",
    "They are agile and know how to hide; they took my life in the alley by the dining room.",
    "Franciscan monks sang while I fell.",
    "They killed me at 6 in the afternoon in the corridor.",
])
def test_letter_with_clues_but_no_names_is_accepted(text: str) -> None:
    """Clues pass, partial words are not names; time-and-place limits are left to the host (our ruling)."""
    game = murdered()
    game.act(2, WriteLetter, text=text)
    assert game.state.today.letters == {2: text}


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
