"""View shapes and the no-leak rules of the public view and of public and medium events."""

from __future__ import annotations

import pytest

from games.asesino.social import (
    ENGINE,
    AnonymousPost,
    BackJudgement,
    Crime,
    Inspect,
    Interview,
    OpenJudgement,
    Protect,
    PublishNote,
    Recruit,
)
from games.core import IllegalAction

from .helpers import Game
from .leaks import check_public_event, check_public_view


def busy_day() -> Game:
    game = Game()
    game.act(0, Recruit, target=1)
    game.act(6, Protect, target=2)
    game.act(4, Inspect, target=1)
    game.act(7, Interview, target=3)
    game.act(7, PublishNote, text="She was calm.")
    game.act(3, AnonymousPost, text="Someone lies.")
    game.act(1, Crime, victim=5)
    game.act(2, OpenJudgement, accused=3)
    game.act(4, BackJudgement, judgement=1)
    game.act(8, BackJudgement, judgement=1)
    game.end_day()
    return game


def test_public_view_shape_after_a_busy_day() -> None:
    """Day, seats (alive, deprived, shown card of the judged), judgements, published notes, posts."""
    game = busy_day()
    view = ENGINE.view(game.state, None)
    assert view["day"] == 2 and view["murders"] == 1 and view["murders_to_win"] == 4 and not view["over"]
    assert view["seats"][5] == {"seat": 5, "alive": False, "deprived": False, "shown_card": None}
    assert view["seats"][3] == {"seat": 3, "alive": True, "deprived": True, "shown_card": "victim"}
    assert view["judgements"][0]["backers"] == [2, 4, 8] and view["judgements"][0]["status"] == "stood"
    assert view["published"] == [{"day": 1, "kind": "note", "seat": 3, "text": "She was calm."}]
    assert view["posts"] == [{"id": 1, "character": game.state.seats[3].character, "day": 1,
                              "text": "Someone lies."}]
    check_public_view(view, game.state)


def test_public_and_medium_events_leak_nothing() -> None:
    """Deaths name no cause or attacker, posts no author, notes no journalist."""
    game = busy_day()
    for event in game.events:
        if event.audience.is_public:
            check_public_event(event, game.state)


def test_killer_view_shows_partner_and_collected_cards() -> None:
    """The pair sees each other and the cards of their victims."""
    me = ENGINE.view(busy_day().state, 0)["me"]
    assert me["role"] == "killer" and me["partner"] == 1 and not me["recruit_available"]
    assert me["collected_cards"] == [{"seat": 5, "card": "maniac"}] and me["crime_available"]
    accomplice = ENGINE.view(busy_day().state, 1)["me"]
    assert accomplice["card"] == "victim" and accomplice["role"] == "accomplice" and accomplice["partner"] == 0


def test_specialist_views_show_their_own_tools() -> None:
    """Detective inspections, Doctor's last protection, Journalist's interview slot, judgements left."""
    state = busy_day().state
    assert ENGINE.view(state, 4)["me"]["inspections"] == [{"day": 1, "target": 1, "card": "victim"}]
    doctor = ENGINE.view(state, 6)["me"]
    assert (doctor["protecting"], doctor["last_protected"]) == (None, 2)
    assert ENGINE.view(state, 7)["me"]["interview"] is None
    assert ENGINE.view(state, 8)["me"]["judgements_left"] == 2
    assert ENGINE.view(state, 3)["me"]["judgements_left"] == 0


def test_private_view_hides_other_seats_secrets() -> None:
    """A Victim's view has no other seat's role and only its own inbox."""
    view = ENGINE.view(busy_day().state, 2)
    assert set(view["me"]) == {"seat", "card", "role", "character", "alive", "deprived", "may_write_letter",
                               "letter_draft", "may_send_clue", "clue_draft", "reviews", "judgements_left", "inbox"}
    assert [entry["key"] for entry in view["me"]["inbox"]] == ["asesino_social.protect.you"]
    check_public_view({k: v for k, v in view.items() if k != "me"}, busy_day().state)


def test_view_of_an_unknown_seat_is_refused() -> None:
    """Only seats of the game (or None / -1 for the public view) may be viewed."""
    state = Game().state
    with pytest.raises(IllegalAction):
        ENGINE.view(state, -2)
    assert ENGINE.view(state, -1) == ENGINE.view(state, None)
