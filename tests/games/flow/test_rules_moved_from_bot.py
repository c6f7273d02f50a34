"""Flow rules the adapter used to decide, now the engines' own, each driven on the engine alone: Verdugo's host and
dead players, a Let's Kill! window's answers, the Killer's route timing, the social clock (``due``), the host's
letter review and the Journalist's interview talk."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.asesino.social import ENGINE as SOCIAL
from games.asesino.social.actions import EndDay, ExpireJudgements, Interview, InterviewSay, OpenJudgement
from games.cereal_killer import ENGINE as CEREAL
from games.cereal_killer.models import ChooseAnswer, KillerTurn, Pending
from games.core import HOST_SEAT, SYSTEM_SEAT, IllegalAction
from games.lets_kill import ENGINE as LETS_KILL
from games.lets_kill.models import CloseWindow, Respond
from games.verdugo import ENGINE as VERDUGO
from games.verdugo.models import Chop, EndMatch, Stop
from tests.games.asesino.social.helpers import Game, find
from tests.games.cereal_killer.helpers import at, new_game
from tests.games.lets_kill.support import build
from tests.games.verdugo.helpers import execution_table, play


def code_of(engine: object, state: object, seat: int, action: object) -> str:
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, seat, action)  # type: ignore[attr-defined]
    return refused.value.code


# --- Verdugo (was bot/cogs/verdugo/ui.py) ------------------------------------------------------------------------
def test_only_the_host_seat_ends_an_open_match() -> None:
    """§9.4: ending the match is the host's (``HOST_SEAT``, which the table gives the host's click); a player, even
    the Executioner, is refused with ``verdugo.host_only``."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield")
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert "end_match" in VERDUGO.features.host_actions
    for seat in range(len(s.seats)):
        assert code_of(VERDUGO, s, seat, EndMatch()) == "verdugo.host_only"
    ended = VERDUGO.apply(s, HOST_SEAT, EndMatch()).state
    assert VERDUGO.outcome(ended) is not None and ended.end_reason == "host_ended"


def test_the_dead_are_told_they_are_dead_before_any_menu() -> None:
    """§7.1 (V-36): the gate a control passes before its menu (``check_actor`` with no action) and every move
    refuse a dead prisoner with ``verdugo.dead``; a living prisoner not awaited hears ``core.not_your_turn``."""
    s = play(execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield"),
             (0, Chop(seat=1)))
    with pytest.raises(IllegalAction) as dead:
        VERDUGO.check_actor(s, 1)
    assert dead.value.code == "verdugo.dead"
    assert code_of(VERDUGO, s, 1, Stop()) == "verdugo.dead"
    assert code_of(VERDUGO, s, 2, Stop()) == "core.not_your_turn"


# --- Let's Kill! (was _same_window / decision_opened in bot/cogs/lets_kill/ui.py) --------------------------------
def test_a_window_stands_since_it_opened_while_its_answers_come_in() -> None:
    """LK-19: a response window is one simultaneous decision: each sealed answer is a step, and ``Waiting.open_for``
    counts them, so the window opened ``open_for`` steps ago still stands; an answer already given is refused, and
    only the game's clock closes the window."""
    state = build(hands=[[], [], []], victims_top=["V04"])
    waiting = LETS_KILL.waiting(state)
    assert waiting is not None and waiting.kind == "window" and waiting.open_for == 0
    first, second = waiting.seats
    answered = LETS_KILL.apply(state, first, Respond()).state
    after = LETS_KILL.waiting(answered)
    assert after is not None and after.kind == "window" and after.open_for == 1 and after.seats == (second,)
    assert code_of(LETS_KILL, answered, first, Respond()) == "lets_kill.already_answered"
    assert code_of(LETS_KILL, answered, second, CloseWindow()) == "core.not_your_turn"
    closed = LETS_KILL.apply(answered, SYSTEM_SEAT, CloseWindow()).state
    assert LETS_KILL.waiting(closed).kind != "window" and LETS_KILL.waiting(closed).open_for == 0


# --- Cereal Killer (was bot/cogs/cereal_killer/killer_panel.py) ---------------------------------------------------
def test_the_killer_sends_a_route_only_in_the_killers_phase_with_nothing_to_answer() -> None:
    """Rulebook "Turn": the Killer moves first each day; a question waits for its answer first; a hunter never
    sends a route. ``route_refusal`` says why, and ``apply`` refuses a route with the same code."""
    state = new_game()
    route = CEREAL.legal_actions(state, 0)[0]
    assert isinstance(route, KillerTurn) and CEREAL.route_refusal(state, 0) is None
    assert CEREAL.route_refusal(state, 1).code == "cereal_killer.route.not_killer"
    assert code_of(CEREAL, state, 1, route) == "cereal_killer.route.not_killer"
    hunters = at(state, phase="detective")
    assert CEREAL.route_refusal(hunters, 0).code == "cereal_killer.route.not_now"
    assert code_of(CEREAL, hunters, 0, route) == "cereal_killer.route.not_now"
    asked = at(state, pending=Pending(kind="question", asker=1, reference=0, options=["yes", "no"]))
    assert CEREAL.route_refusal(asked, 0).code == "cereal_killer.answer_first"
    assert code_of(CEREAL, asked, 0, route) == "cereal_killer.answer_first"
    assert isinstance(CEREAL.legal_actions(asked, 0)[0], ChooseAnswer)


# --- the social clock (was bot/cogs/asesino_social/days.py and the simulator's _social_clock) -------------------
def test_the_social_clock_ends_each_overdue_day_at_its_boundary_then_expires_judgements() -> None:
    """Ruling "Time": nothing is due before the boundary; at or after it the day's end, stamped at the boundary;
    after downtime every overdue day ends in order, then judgements past their window expire (stamped now)."""
    game = Game()
    game.act(1, OpenJudgement, accused=2)
    ends = game.state.day_ends_at
    expires = game.state.judgements[0].expires_at
    assert SOCIAL.due(game.state, expires) == []
    later = expires + timedelta(seconds=1)
    assert SOCIAL.due(game.state, later) == [ExpireJudgements(at=later)]
    late = ends + timedelta(days=2, hours=1)
    state = game.state
    for day in (1, 2, 3):
        (due,) = SOCIAL.due(state, late)
        assert due == EndDay(day=day, at=state.day_ends_at)
        state = SOCIAL.apply(state, SYSTEM_SEAT, due).state
    assert SOCIAL.due(state, late) == [] and state.day == 4
    assert code_of(SOCIAL, game.state, 1, EndDay(day=1, at=ends)) == "asesino_social.system_only"


def test_only_the_host_reviews_a_letter_and_the_interview_talk_is_an_action() -> None:
    """The host's review (``HOST_SEAT``) is refused to every player; the interview's talk reaches only the other
    side and is kept in the timeline (so the history shows it); nobody else may talk in it."""
    game = Game()
    find(game.act(7, Interview, target=2), "asesino_social.interview.opened")
    asked = game.act(7, InterviewSay, text="Where were you?")
    assert [(e.key, e.audience.seats, e.params) for e in asked] == [
        ("asesino_social.interview.asked", (2,), {"seat": 7, "text": "Where were you?"})]
    answered = game.act(2, InterviewSay, text="Home.")
    assert [(e.key, e.audience.seats) for e in answered] == [("asesino_social.interview.answered", (7,))]
    assert [(t.seat, t.kind, t.target) for t in game.state.timeline[-2:]] == [
        (7, "interview_say", 2), (2, "interview_say", 7)]
    assert game.refused(3, InterviewSay, text="me too").code == "asesino_social.no_interview"
    assert "review_letter" in SOCIAL.features.host_actions and not SOCIAL.legal_actions(game.state, HOST_SEAT)
    # a review sent and its refusal to a player: tests/games/asesino/social/test_letters.py
