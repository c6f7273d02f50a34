"""How the game ends, and what is revealed then (rulebook "Silencing the Instinct" and our rulings)."""

from __future__ import annotations

import json

import pytest

from games.asesino.social import (
    ENGINE,
    AnonymousPost,
    BackJudgement,
    Crime,
    Inspect,
    ManiacKill,
    OpenJudgement,
    Protect,
    Recruit,
    SocialRole,
    WriteLetter,
)
from games.core import Audience

from .helpers import DOC, JOU, MAN, NINE, PRO, Game, K, V, find, keys


def judge_killer(game: Game, accusers: tuple[int, int, int]) -> list:
    game.act(accusers[0], OpenJudgement, accused=game.state.killer)
    game.act(accusers[1], BackJudgement, judgement=len(game.state.judgements))
    return game.act(accusers[2], BackJudgement, judgement=len(game.state.judgements))


def test_judging_the_killer_ends_the_game_for_the_accusers() -> None:
    """The Killer's judgement stands: the good side wins, the criminals lose."""
    game = Game()
    game.act(0, Recruit, target=1)
    events = judge_killer(game, (2, 3, 4))
    outcome = ENGINE.outcome(game.state)
    assert outcome is not None and outcome.reason == "asesino_social.end.killer_judged"
    assert outcome.winners == [2, 3, 4, 5, 6, 7, 8]
    assert outcome.params == {"killer": 0, "accusers": [2, 3, 4]}
    assert find(events, "asesino_social.judgement.stood").params["card"] == "killer"
    ends = [e for e in events if e.key == "asesino_social.end.killer_judged"]
    assert [e.audience for e in ends] == [Audience.public(), Audience.medium()]


def test_an_accomplice_who_accuses_the_killer_wins_with_the_accusers() -> None:
    """Accusing the Killer makes every accuser a winner."""
    game = Game()
    game.act(0, Recruit, target=1)
    judge_killer(game, (1, 3, 4))
    assert 1 in ENGINE.outcome(game.state).winners


@pytest.mark.parametrize(("roles", "to_win"), [
    ([K, V, V, DOC, JOU, PRO], 3),
    ([K, V, V, V, DOC, JOU, PRO], 3),
    (NINE, 4),
    ([K] + [V] * 6 + [DOC, JOU, PRO, MAN, SocialRole.DETECTIVE], 6),
])
def test_criminals_win_at_half_the_players_murdered_rounded_down(roles: list[SocialRole], to_win: int) -> None:
    """floor(N/2) murders with the Killer alive: with 9 players the 4th murder wins."""
    game = Game(roles)
    game.act(0, Recruit, target=1)
    for victim in range(2, 1 + to_win):
        game.act(0, Crime, victim=victim)
        game.end_day()
    assert ENGINE.outcome(game.state) is None and game.state.murders == to_win - 1
    events = game.act(0, Crime, victim=1 + to_win)
    outcome = ENGINE.outcome(game.state)
    assert outcome is not None and outcome.reason == "asesino_social.end.criminals_win"
    assert outcome.winners == [0, 1] and game.state.murders == to_win
    win = [e for e in events if e.key == "asesino_social.end.criminals_win"]
    assert Audience.medium() in [e.audience for e in win]
    assert win[0].params == {"killer": 0, "accomplice": 1, "murders": to_win}


def test_maniac_kills_count_toward_the_criminals_win() -> None:
    """6 players: 2 crimes and 1 Maniac kill of an innocent make 3 murders, and the criminals win."""
    game = Game([K, V, V, V, MAN, DOC])
    game.act(0, Recruit, target=1)
    game.act(0, Crime, victim=2)
    game.end_day()
    game.act(0, Crime, victim=3)
    game.act(4, ManiacKill, target=5)
    assert ENGINE.outcome(game.state).reason == "asesino_social.end.criminals_win"


def test_maniac_killing_the_killer_gives_the_good_side_the_win() -> None:
    """The Killer falls to the Maniac: everyone but the criminals wins."""
    game = Game()
    game.act(0, Recruit, target=1)
    events = game.act(5, ManiacKill, target=0)
    outcome = ENGINE.outcome(game.state)
    assert outcome.reason == "asesino_social.end.maniac_killed_killer"
    assert outcome.winners == [2, 3, 4, 5, 6, 7, 8] and outcome.params == {"killer": 0, "maniac": 5}
    assert outcome.scores[0] == 0.0 and outcome.scores[5] == 1.0
    assert "asesino_social.end.timeline" in keys(events)


def test_end_reveals_roles_authors_timeline_and_pending_letters() -> None:
    """The end posts the day's letters at once, then every role, the anonymous authors and the timeline."""
    game = Game()
    game.act(3, AnonymousPost, text="Watch the doctor.")
    game.act(0, Recruit, target=1)
    game.act(6, Protect, target=2)
    game.act(1, Crime, victim=4)
    game.act(4, WriteLetter, text="The rain was loud.")
    events = judge_killer(game, (2, 3, 5))
    assert keys(events)[-6:] == ["asesino_social.letter", "asesino_social.end.killer_judged",
                                 "asesino_social.end.killer_judged", "asesino_social.end.roles",
                                 "asesino_social.end.authors", "asesino_social.end.timeline"]
    authors = find(events, "asesino_social.end.authors")
    assert authors.audience == Audience.public()
    assert authors.params == {"posts": [{"post": 1, "character": game.state.seats[3].character, "seat": 3}]}
    roles = find(events, "asesino_social.end.roles").params["roles"]
    assert roles[1] == {"seat": 1, "card": "victim", "role": "accomplice"}
    entries = find(events, "asesino_social.end.timeline").params["entries"]
    json.dumps(entries)
    assert [(e["seat"], e["kind"], e["target"], e["detail"]) for e in entries[:4]] == [
        (3, "anonymous_post", None, None), (0, "recruit", 1, None), (6, "protect", 2, None), (1, "crime", 4, "killed")]
    assert entries[-1]["detail"] == "stood"
    public = ENGINE.view(game.state, None)
    assert public["authors"] == {"1": 3} and public["roles"][0]["card"] == "killer"


def test_nothing_is_accepted_after_the_end() -> None:
    """A finished game refuses every action and offers none."""
    game = Game()
    game.act(5, ManiacKill, target=0)
    assert game.refused(4, Inspect, target=1).code == "core.game_over"
    assert all(ENGINE.legal_actions(game.state, seat) == [] for seat in range(-1, 9))
