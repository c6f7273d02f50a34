"""Ruling 30 (computer players in the social mode): of its policy's choices a computer player makes only its
power and judgements, as often as the rules allow, and passes where the policy would write or interview."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

import games.asesino  # noqa: F401  (registers the modes' policies)
from games.asesino.social import (
    ENGINE,
    AnonymousPost,
    BackJudgement,
    Crime,
    Inspect,
    Interview,
    ManiacKill,
    OpenJudgement,
    Protect,
    PublishNote,
    Recruit,
    RequestReview,
    SendClue,
    WriteLetter,
)
from games.asesino.social.ai import ai_plays
from games.core.ai import choose_action, plays_at_table
from tests.games.asesino.social.helpers import START, Game


@pytest.mark.parametrize(("action", "plays"), [
    (Recruit(at=START, target=1), True), (Crime(at=START, victim=1), True), (Protect(at=START, target=1), True),
    (Inspect(at=START, target=1), True), (ManiacKill(at=START, target=1), True),
    (OpenJudgement(at=START, accused=1), True), (BackJudgement(at=START, judgement=1), True),
    (Interview(at=START, target=1), False), (PublishNote(at=START, text="x"), False),
    (WriteLetter(at=START, text="x"), False), (AnonymousPost(at=START, text="x"), False),
    (SendClue(at=START, text="x"), False), (RequestReview(at=START, text="x"), False),
])
def test_which_moves_a_computer_player_makes(action: object, plays: bool) -> None:
    assert ai_plays(action) is plays
    assert plays_at_table("asesino", "social", action) is plays  # what the bot's AI seats ask (the policy's rule)


def test_a_turn_based_mode_makes_every_move_its_policy_chooses() -> None:
    assert plays_at_table("asesino", "tabletop", WriteLetter(at=START, text="x")) is True
    assert plays_at_table("verdugo", "classic", object()) is True


def test_a_day_of_computer_players_uses_powers_and_judgements_then_passes() -> None:
    """Nine seats (Killer, three Victims, Detective, Maniac, Doctor, Journalist, Prosecutor) each played as a
    computer player on day 1, after a person accused seat 1: the Killer recruits, commits the day's crime and backs
    the judgement, a Victim backs it (the third backer), the Detective, Maniac and Doctor use their power once;
    then each passes where its policy would write or interview, and nobody moves more than three times."""
    game = Game()
    game.act(2, OpenJudgement, accused=1)
    moves: dict[int, list[str]] = {}
    for seat in range(9):
        rng = random.Random(seat)
        for _ in range(4):
            action = choose_action(ENGINE, game.state, seat, rng)
            if action is None or not ai_plays(action):
                break
            game.now += timedelta(minutes=1)
            game.state = ENGINE.apply(game.state, seat, action.model_copy(update={"at": game.now})).state
            moves.setdefault(seat, []).append(type(action).__name__)
        else:
            raise AssertionError(f"seat {seat} never passes")
    assert moves == {0: ["Recruit", "Crime", "BackJudgement"], 3: ["BackJudgement"], 4: ["Inspect"],
                     5: ["ManiacKill"], 6: ["Protect"]}
