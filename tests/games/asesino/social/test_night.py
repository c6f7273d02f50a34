"""Private actions: recruitment, the crime, the Doctor, the Detective, the Journalist and the Maniac.

Layout (helpers.NINE): 0 Killer, 1-3 Victims, 4 Detective, 5 Maniac, 6 Doctor, 7 Journalist, 8 Prosecutor.
"""

from __future__ import annotations

import pytest

from games.asesino.social import (
    ENGINE,
    AnonymousPost,
    Crime,
    Inspect,
    Interview,
    ManiacKill,
    OpenJudgement,
    Protect,
    PublishNote,
    Recruit,
    SocialRole,
)
from games.core import Audience

from .helpers import Game, find


def recruited(target: int = 1) -> Game:
    game = Game()
    game.act(0, Recruit, target=target)
    return game


def test_recruit_makes_the_accomplice_and_tells_both() -> None:
    """The Killer's recruit becomes the Accomplice; the Killer and the recruit are told privately."""
    game = Game()
    events = game.act(0, Recruit, target=2)
    assert game.state.accomplice == 2 and game.state.seats[2].role == SocialRole.ACCOMPLICE
    assert find(events, "asesino_social.recruit.done").audience == Audience.to(0)
    you = find(events, "asesino_social.recruit.you")
    assert you.audience == Audience.to(2) and you.params == {"killer": 0, "card": "victim"}
    assert not [e for e in events if e.audience.is_public]


def test_recruit_happens_once_per_game() -> None:
    """A second recruitment is refused, even on a later day."""
    game = recruited()
    game.end_day()
    assert game.refused(0, Recruit, target=2).code == "asesino_social.already_recruited"


@pytest.mark.parametrize("seat", [1, 4, 8])
def test_only_the_killer_recruits(seat: int) -> None:
    """Nobody but the Killer may recruit."""
    assert Game().refused(seat, Recruit, target=2).code == "asesino_social.not_your_role"


@pytest.mark.parametrize(("target", "role", "power_kept"), [
    (4, SocialRole.DETECTIVE, False), (5, SocialRole.MANIAC, False), (6, SocialRole.DOCTOR, True),
    (7, SocialRole.JOURNALIST, True), (8, SocialRole.PROSECUTOR, True),
])
def test_recruited_detective_and_maniac_lose_their_power(target: int, role: SocialRole, power_kept: bool) -> None:
    """Ruling: a recruited Detective or Maniac loses that role; other specials keep their power."""
    game = recruited(target)
    assert (game.state.seat_with_power(role) == target) is power_kept
    told = "asesino_social.recruit.you_keep_power" if power_kept else "asesino_social.recruit.you_lose_power"
    assert game.events[-1].key == told and game.events[-1].params == {"killer": 0, "card": role.value}


def test_recruited_detective_can_no_longer_inspect() -> None:
    """The recruited Detective's inspection is refused."""
    game = recruited(4)
    assert game.refused(4, Inspect, target=1).code == "asesino_social.not_your_role"


def test_crime_needs_an_accomplice_first() -> None:
    """The hunt begins once the accomplice is chosen."""
    assert Game().refused(0, Crime, victim=2).code == "asesino_social.recruit_first"


def test_crime_kills_tells_the_victim_the_killers_and_hands_the_card_to_the_pair() -> None:
    """The victim learns both killers at once; the pair gets the victim's card; the public only the death."""
    game = recruited(1)
    events = game.act(1, Crime, victim=4)
    assert not game.state.seats[4].alive and game.state.murders == 1
    died = find(events, "asesino_social.attack.you_died")
    assert died.audience == Audience.to(4) and died.params == {"attackers": [0, 1], "cause": "crime"}
    killed = find(events, "asesino_social.attack.killed")
    assert killed.audience == Audience.to(0, 1) and killed.params == {"target": 4, "card": "detective"}
    death = find(events, "asesino_social.death")
    assert death.audience == Audience.public() and death.params == {"seat": 4, "murders": 1, "to_win": 4}
    for killer in (0, 1):
        assert ENGINE.view(game.state, killer)["me"]["collected_cards"] == [{"seat": 4, "card": "detective"}]


@pytest.mark.parametrize(("first", "second"), [(0, 1), (1, 0), (0, 0), (1, 1)])
def test_one_crime_a_day_for_the_pair(first: int, second: int) -> None:
    """Killer and Accomplice share one crime a day; the next day they may strike again."""
    game = recruited(1)
    game.act(first, Crime, victim=2)
    assert game.refused(second, Crime, victim=3).code == "asesino_social.crime_spent"
    game.end_day()
    game.act(second, Crime, victim=3)
    assert not game.state.seats[3].alive


@pytest.mark.parametrize(("victim", "code"), [(0, "asesino_social.target_partner"),
                                              (1, "asesino_social.target_self"),
                                              (12, "asesino_social.no_such_player")])
def test_crime_targets_another_living_non_partner(victim: int, code: str) -> None:
    """The pair cannot kill itself or a seat that does not exist."""
    assert recruited(1).refused(1, Crime, victim=victim).code == code


def test_crime_on_a_dead_player_is_refused() -> None:
    """The dead cannot be killed again."""
    game = recruited(1)
    game.act(0, Crime, victim=2)
    game.end_day()
    assert game.refused(0, Crime, victim=2).code == "asesino_social.target_dead"


def test_doctor_save_tells_the_protected_player_and_the_doctor_the_attackers() -> None:
    """A protection made before the crime saves the victim; both learn the attackers; the pair learns it failed."""
    game = recruited(1)
    protect = game.act(6, Protect, target=3)
    assert find(protect, "asesino_social.protect.you").params == {"doctor": 6}
    events = game.act(0, Crime, victim=3)
    assert game.state.seats[3].alive and game.state.murders == 0
    saved = find(events, "asesino_social.attack.saved")
    assert saved.audience == Audience.to(3, 6) and saved.params == {"target": 3, "doctor": 6, "attackers": [0, 1]}
    assert find(events, "asesino_social.attack.foiled").audience == Audience.to(0, 1)
    assert not [e for e in events if e.audience.is_public]
    assert game.refused(1, Crime, victim=2).code == "asesino_social.crime_spent"


def test_protection_after_the_crime_is_too_late() -> None:
    """The Doctor protects before the crime: a later protection does not raise the dead."""
    game = recruited(1)
    game.act(0, Crime, victim=3)
    assert game.refused(6, Protect, target=3).code == "asesino_social.target_dead"


def test_doctor_cannot_protect_the_same_player_two_days_running() -> None:
    """Yesterday's pick is refused today, allowed again the day after."""
    game = Game()
    game.act(6, Protect, target=3)
    game.end_day()
    assert game.refused(6, Protect, target=3).code == "asesino_social.protect_same_twice"
    game.act(6, Protect, target=2)
    game.end_day()
    game.act(6, Protect, target=3)
    assert game.state.today.protected == 3


def test_doctor_protects_once_a_day_and_not_himself() -> None:
    """One protection a day, on another player."""
    game = Game()
    assert game.refused(6, Protect, target=6).code == "asesino_social.target_self"
    game.act(6, Protect, target=3)
    assert game.refused(6, Protect, target=2).code == "asesino_social.protect_spent"


def test_detective_sees_the_card_and_the_inspected_player_sees_the_detective() -> None:
    """One inspection a day: the Detective gets the card, the inspected player learns who asked."""
    game = Game()
    events = game.act(4, Inspect, target=0)
    assert find(events, "asesino_social.inspect.result").params == {"target": 0, "card": "killer"}
    assert find(events, "asesino_social.inspect.you").audience == Audience.to(0)
    assert game.refused(4, Inspect, target=1).code == "asesino_social.inspect_spent"
    assert game.state.seat_with_power(SocialRole.DETECTIVE) == 4


@pytest.mark.parametrize(("accomplice", "card"), [(1, "victim"), (8, "prosecutor"), (7, "journalist")])
def test_inspecting_the_accomplice_shows_its_original_card(accomplice: int, card: str) -> None:
    """Ruling: an Accomplice shows the card it was dealt."""
    game = recruited(accomplice)
    assert find(game.act(4, Inspect, target=accomplice), "asesino_social.inspect.result").params["card"] == card


def test_journalist_interviews_once_a_day_and_the_note_is_published_at_the_day_end() -> None:
    """Interview opens a relayed talk; the last note of the day goes to the medium at the day's end, unsigned."""
    game = Game()
    opened = find(game.act(7, Interview, target=2), "asesino_social.interview.opened")
    assert opened.audience == Audience.to(7, 2)
    assert game.refused(7, Interview, target=3).code == "asesino_social.interview_spent"
    game.act(7, PublishNote, text="draft")
    game.act(7, PublishNote, text="final words")
    note = find(game.end_day(), "asesino_social.note")
    assert note.audience == Audience.medium() and note.params == {"interviewee": 2, "day": 1, "text": "final words"}


def test_journalist_note_needs_an_interview_today() -> None:
    """No interview today, no note."""
    assert Game().refused(7, PublishNote, text="x").code == "asesino_social.no_interview"


def test_maniac_kill_counts_toward_the_criminals_tally() -> None:
    """Ruling: every Maniac kill is a murder on the criminals' tally; the Maniac gets the card."""
    game = Game()
    events = game.act(5, ManiacKill, target=2)
    assert game.state.murders == 1 and not game.state.seats[2].alive
    assert find(events, "asesino_social.attack.killed").params == {"target": 2, "card": "victim"}
    assert find(events, "asesino_social.attack.you_died").params == {"attackers": [5], "cause": "maniac"}
    assert game.refused(5, ManiacKill, target=3).code == "asesino_social.maniac_spent"


def test_doctor_protection_also_stops_the_maniac() -> None:
    """Our reading: the protected player survives any attack that day, the Maniac's included."""
    game = Game()
    game.act(6, Protect, target=2)
    events = game.act(5, ManiacKill, target=2)
    assert game.state.seats[2].alive and find(events, "asesino_social.attack.saved").params["attackers"] == [5]


@pytest.mark.parametrize(("kind", "fields"), [
    (Crime, {"victim": 3}), (OpenJudgement, {"accused": 3}), (AnonymousPost, {"text": "boo"}),
    (Inspect, {"target": 3}),
])
def test_dead_players_may_only_write_their_letter_on_their_death_day(kind: type, fields: dict) -> None:
    """The refusal says what is left: the letter today, nothing afterwards."""
    game = recruited(1)
    game.act(0, Crime, victim=4)
    assert game.refused(4, kind, **fields).code == "asesino_social.dead_may_write_letter"
    game.end_day()
    assert game.refused(4, kind, **fields).code == "asesino_social.dead"


def test_murder_voids_open_judgements_against_the_victim() -> None:
    """A judgement cannot stand against a dead player."""
    game = recruited(1)
    game.act(2, OpenJudgement, accused=3)
    events = game.act(0, Crime, victim=3)
    assert find(events, "asesino_social.judgement.void").params == {"judgement": 1, "accused": 3}
    assert game.state.judgements[0].status == "void"
