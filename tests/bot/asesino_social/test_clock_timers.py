"""The social clock's timers are part of the step's plan (issue 20): the deal arms day 1's end, a day's end arms
the next day's, a judgement's opening arms its expiry, in the step's own transaction; any other step arms none."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.cogs.asesino_social.days import DAY_END, GRACE, JUDGEMENTS, clock_timers
from bot.cogs.asesino_social.ui import SOCIAL
from bot.tables import TimerPlan
from games.asesino.social import ENGINE, SYSTEM_SEAT, BackJudgement, EndDay, OpenJudgement
from tests.bot.asesino_social.test_render import START, make_table, new_state


def test_the_deal_arms_day_one_s_end() -> None:
    state = new_state()
    assert clock_timers(make_table(state)) == [TimerPlan(DAY_END, state.day_ends_at, {"day": 1})]
    assert SOCIAL.clock_timers(make_table(state)) == clock_timers(make_table(state))


def test_a_judgement_s_opening_arms_its_expiry_and_a_day_s_end_arms_the_next_day_s() -> None:
    state = new_state()
    opened = ENGINE.apply(state, 0, OpenJudgement(at=START + timedelta(minutes=5), accused=1)).state
    (judgement,) = opened.judgements
    assert clock_timers(make_table(opened)) == [
        TimerPlan(JUDGEMENTS, judgement.expires_at + GRACE, {"judgement": judgement.id})]
    ended = ENGINE.apply(opened, SYSTEM_SEAT, EndDay(at=opened.day_ends_at, day=1)).state
    assert ended.day == 2 and ended.day_ends_at > opened.day_ends_at
    assert clock_timers(make_table(ended)) == [TimerPlan(DAY_END, ended.day_ends_at, {"day": 2})]
    # a seat handed over right after (an idle player's, at the day's end) is a step of its own: its timer is armed
    assert clock_timers(replace(make_table(ended), seat_steps=1)) == []


def test_another_step_arms_no_clock_timer() -> None:
    state = new_state()
    opened = ENGINE.apply(state, 0, OpenJudgement(at=START + timedelta(minutes=5), accused=1)).state
    backed = ENGINE.apply(opened, 2, BackJudgement(at=START + timedelta(minutes=6), judgement=1)).state
    assert backed.judgements[0].backers == [0, 2]
    assert clock_timers(make_table(backed)) == []
