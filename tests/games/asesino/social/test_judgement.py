"""Judgements: 3 backers within the window, daily participation limits, deprivation.

Layout (helpers.NINE): 0 Killer, 1-3 Victims, 4 Detective, 5 Maniac, 6 Doctor, 7 Journalist, 8 Prosecutor.
"""

from __future__ import annotations

import pytest

from games.asesino.social import (
    SYSTEM_SEAT,
    AnonymousPost,
    BackJudgement,
    Crime,
    ExpireJudgements,
    Inspect,
    OpenJudgement,
    Recruit,
)
from games.core import Audience

from .helpers import Game, find


def test_judgement_stands_with_three_backers_and_shows_the_card_publicly() -> None:
    """Opener + 2 backers within 15 minutes: the accused's card is shown to all and the accused is deprived."""
    game = Game()
    opened = find(game.act(1, OpenJudgement, accused=2), "asesino_social.judgement.opened")
    assert opened.audience == Audience.public()
    assert opened.params == {"judgement": 1, "accused": 2, "opener": 1, "expires_at": "2024-03-01T09:16:00+00:00",
                             "needed": 3}
    game.act(3, BackJudgement, judgement=1)
    assert game.state.judgements[0].status == "open"
    events = game.act(4, BackJudgement, judgement=1, minutes=13)
    stood = find(events, "asesino_social.judgement.stood")
    assert stood.audience == Audience.public()
    assert stood.params == {"judgement": 1, "accused": 2, "card": "victim", "backers": [1, 3, 4]}
    assert game.state.seats[2].judged_day == 1
    assert find(events, "asesino_social.judgement.you_are_deprived").audience == Audience.to(2)
    assert game.state.result is None


def test_judgement_timer_expires_it_after_the_window() -> None:
    """A judgement not backed by 3 within the window lapses (the window's last instant still counts)."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    game.act(3, BackJudgement, judgement=1)
    game.now = game.state.judgements[0].expires_at
    game.act(SYSTEM_SEAT, ExpireJudgements, minutes=0)
    assert game.state.judgements[0].status == "open"
    game.act(SYSTEM_SEAT, ExpireJudgements, minutes=0.5)
    assert game.refused(4, BackJudgement, judgement=1).code == "asesino_social.judgement_closed"
    assert game.state.judgements[0].status == "expired"
    assert game.events[-1].key == "asesino_social.judgement.expired"


def test_late_backing_is_refused_even_before_the_sweep() -> None:
    """The window is checked against the action's time."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    game.act(3, BackJudgement, judgement=1)
    game.now = game.state.judgements[0].expires_at.replace(second=1)
    assert game.refused(4, BackJudgement, judgement=1).code == "asesino_social.judgement_expired"


def test_day_end_expires_judgements_past_their_window() -> None:
    """EndDay sweeps lapsed judgements."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    game.end_day()
    assert game.state.judgements[0].status == "expired"


def test_custom_judgement_window() -> None:
    """judgement_window_minutes sets the window."""
    game = Game(judgement_window_minutes=60)
    game.act(1, OpenJudgement, accused=2)
    game.act(3, BackJudgement, judgement=1, minutes=30)
    game.act(4, BackJudgement, judgement=1, minutes=29)
    assert game.state.judgements[0].status == "stood"


def test_respected_players_take_part_in_one_judgement_a_day() -> None:
    """Opening or backing uses the day's participation; a new day restores it."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    assert game.refused(1, OpenJudgement, accused=3).code == "asesino_social.judgement_limit"
    game.act(3, OpenJudgement, accused=4)
    assert game.refused(3, BackJudgement, judgement=1).code == "asesino_social.judgement_limit"
    game.end_day()
    game.act(1, OpenJudgement, accused=3)


def test_prosecutor_takes_part_in_two_judgements_a_day() -> None:
    """The Prosecutor may open or back 2 judgements a day, not 3."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    game.act(3, OpenJudgement, accused=4)
    game.act(5, OpenJudgement, accused=6)
    game.act(8, BackJudgement, judgement=1)
    game.act(8, BackJudgement, judgement=2)
    assert game.refused(8, BackJudgement, judgement=3).code == "asesino_social.judgement_limit"
    assert game.refused(8, OpenJudgement, accused=7).code == "asesino_social.judgement_limit"


def test_recruited_prosecutor_still_judges_twice() -> None:
    """A recruited Prosecutor keeps its power."""
    game = Game()
    game.act(0, Recruit, target=8)
    game.act(8, OpenJudgement, accused=2)
    game.act(8, OpenJudgement, accused=3)
    assert game.refused(8, OpenJudgement, accused=4).code == "asesino_social.judgement_limit"


def judged(seat: int = 2) -> Game:
    game = Game()
    game.act(1, OpenJudgement, accused=seat)
    game.act(3, BackJudgement, judgement=1)
    game.act(4 if seat != 4 else 5, BackJudgement, judgement=1)
    return game


@pytest.mark.parametrize(("kind", "fields"), [(OpenJudgement, {"accused": 5}), (AnonymousPost, {"text": "hi"})])
def test_deprived_player_cannot_judge_or_post(kind: type, fields: dict) -> None:
    """A judged player who is not the Killer loses judgements (and the public argument) for good."""
    game = judged(2)
    assert game.refused(2, kind, **fields).code == "asesino_social.deprived"
    game.end_day()
    assert game.refused(2, kind, **fields).code == "asesino_social.deprived"


def test_deprived_player_cannot_back_a_judgement() -> None:
    """Backing is refused too."""
    game = judged(2)
    game.end_day()
    game.act(5, OpenJudgement, accused=6)
    assert game.refused(2, BackJudgement, judgement=2).code == "asesino_social.deprived"


def test_deprived_detective_keeps_inspecting() -> None:
    """Deprivation takes judgements away, not the character's power."""
    game = judged(4)
    game.act(4, Inspect, target=1)


def test_judged_accomplice_shows_its_original_card() -> None:
    """There is no direct way to tell that a judged player is the Accomplice."""
    game = Game()
    game.act(0, Recruit, target=3)
    game.act(1, OpenJudgement, accused=3)
    game.act(2, BackJudgement, judgement=1)
    events = game.act(4, BackJudgement, judgement=1)
    assert find(events, "asesino_social.judgement.stood").params["card"] == "victim"


@pytest.mark.parametrize(("seat", "kind", "fields", "code"), [
    (2, BackJudgement, {"judgement": 1}, "asesino_social.cannot_back_own"),
    (1, BackJudgement, {"judgement": 1}, "asesino_social.already_backing"),
    (3, BackJudgement, {"judgement": 9}, "asesino_social.no_such_judgement"),
    (3, OpenJudgement, {"accused": 2}, "asesino_social.judgement_already_open"),
    (3, OpenJudgement, {"accused": 3}, "asesino_social.target_self"),
])
def test_judgement_refusals(seat: int, kind: type, fields: dict, code: str) -> None:
    """Nobody backs their own judgement or twice the same; one open judgement per accused."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    assert game.refused(seat, kind, **fields).code == code


def test_a_judged_player_cannot_be_judged_again() -> None:
    """The card is already public."""
    game = judged(2)
    game.end_day()
    assert game.refused(5, OpenJudgement, accused=2).code == "asesino_social.already_judged"


def test_a_backer_murdered_before_the_third_backing_no_longer_counts() -> None:
    """Ruling: "Only living, respected players open or back a judgement, and a backer who dies or is judged before
    the judgement stands no longer counts toward its 3"."""
    game = Game()
    game.act(1, OpenJudgement, accused=4)
    game.act(2, BackJudgement, judgement=1)
    game.act(0, Recruit, target=3)
    game.act(0, Crime, victim=2)
    assert game.state.judgements[0].backers == [1]
    game.act(6, BackJudgement, judgement=1)
    assert game.state.judgements[0].status == "open" and game.state.seats[4].judged_day is None
    game.act(7, BackJudgement, judgement=1)
    assert game.state.judgements[0].status == "stood"


def test_a_judged_opener_no_longer_counts_toward_their_judgement() -> None:
    """The same ruling for an opener deprived by another judgement before theirs stands."""
    game = Game()
    game.act(1, OpenJudgement, accused=5)
    game.act(4, OpenJudgement, accused=1)
    game.act(6, BackJudgement, judgement=2)
    game.act(7, BackJudgement, judgement=2)
    assert game.state.seats[1].judged_day == 1
    game.act(2, BackJudgement, judgement=1)
    game.act(3, BackJudgement, judgement=1)
    assert game.state.judgements[0].status == "open" and game.state.judgements[0].backers == [2, 3]
    assert game.refused(1, BackJudgement, judgement=1).code == "asesino_social.deprived"
