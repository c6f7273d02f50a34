"""Ruling 30 (computer players in the social mode): role powers and judgement backings only, as often as the
rules allow, then a pass."""

from __future__ import annotations

import random
from datetime import timedelta

from games.asesino.social import ENGINE, OpenJudgement, PublishNote, WriteLetter
from games.asesino.social.ai import POLICY, QUIET_ACTIONS
from games.core.ai import choose_action, policy_for
from tests.games.asesino.social.helpers import START, Game


def test_the_social_mode_has_its_own_computer_player() -> None:
    assert policy_for("asesino", "social") is POLICY and policy_for("asesino", "tabletop") is not POLICY


def test_a_computer_player_uses_its_power_and_backs_judgements_then_passes() -> None:
    """Nine seats (Killer, three Victims, Detective, Maniac, Doctor, Journalist, Prosecutor) each played by the
    social policy on day 1, after a person accused seat 1: the Killer recruits, commits its crime and backs the
    judgement, a Victim backs it (the third backer: it stands), the Detective, Maniac and Doctor use their power
    once; the Journalist (no interviews), the accused and those left pass at once. Nobody writes or accuses."""
    game = Game()
    game.act(2, OpenJudgement, accused=1)
    moves: dict[int, list[str]] = {}
    for seat in range(9):
        rng = random.Random(seat)
        for _ in range(10):
            action = choose_action(ENGINE, game.state, seat, rng)
            if action is None:
                break
            assert isinstance(action, QUIET_ACTIONS)
            game.now += timedelta(minutes=1)
            game.state = ENGINE.apply(game.state, seat, action.model_copy(update={"at": game.now})).state
            moves.setdefault(seat, []).append(type(action).__name__)
        else:
            raise AssertionError(f"seat {seat} never passes")
    assert moves == {0: ["Recruit", "Crime", "BackJudgement"], 3: ["BackJudgement"], 4: ["Inspect"],
                     5: ["ManiacKill"], 6: ["Protect"]}


def test_only_writing_left_is_a_pass() -> None:
    legal = [PublishNote(at=START, text="..."), WriteLetter(at=START, text="..."), OpenJudgement(at=START, accused=2)]
    assert POLICY.choose({}, legal, random.Random(1)) is None
