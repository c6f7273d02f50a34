"""Property tests: random day-by-day games with random legal actions and EndDay rolls.

Properties:
* if the Killer strikes first thing every day (recruiting on day 1), every crime lands (no protection yet that
  day), so the game ends by day floor(N/2) at the latest;
* in any random game: per-day limits hold, the murder tally equals the dead, no public or medium event and no
  public view reveals a role or a secret action's author before the end, the state survives a JSON round trip,
  and replaying the log from the seed reproduces the state.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.asesino.social import ENGINE, SYSTEM_SEAT, Crime, EndDay, Recruit, SocialOptions, SocialRole, SocialState
from games.core import IllegalAction
from games.core.replay import replay

from .helpers import START, seats
from .leaks import check_public_event, check_public_view

DAILY_ONCE = ("protect", "inspect", "interview", "maniac_kill")


class Driver:
    """Plays a game from a hypothesis data stream, checking invariants after every step."""

    def __init__(self, players: int, seed: int, data: st.DataObject) -> None:
        self.options = SocialOptions(started_at=START, day_length_minutes=240, judgement_window_minutes=15)
        self.seats = seats(players)
        self.seed = seed
        self.data = data
        self.state: SocialState = ENGINE.setup(self.options, self.seats, seed)
        self.now = START
        self.log: list[tuple[int, dict[str, Any]]] = []

    def apply(self, seat: int, action: Any) -> None:
        step = ENGINE.apply(self.state, seat, action)
        self.state = step.state
        self.log.append((seat, ENGINE.dump_action(action)))
        for event in step.events:
            if event.audience.is_public:
                check_public_event(event, self.state)
        check_invariants(self.state)

    def random_action(self) -> None:
        seat = self.data.draw(st.integers(-1, self.state.players - 1))
        choices = ENGINE.legal_actions(self.state, seat)
        if not choices or seat == SYSTEM_SEAT and self.data.draw(st.booleans()):
            return
        self.now += timedelta(minutes=self.data.draw(st.integers(0, 10)))
        action = self.data.draw(st.sampled_from(choices))
        if isinstance(action, EndDay):
            return
        action = action.model_copy(update={"at": self.now})
        try:
            self.apply(seat, action)
        except IllegalAction as exc:  # the clock moved past a judgement's window since legal_actions
            assert exc.code == "asesino_social.judgement_expired"

    def killer_strikes(self) -> None:
        killer = self.state.killer
        if self.state.accomplice is None:
            self.apply(killer, self.data.draw(st.sampled_from(
                [a for a in ENGINE.legal_actions(self.state, killer) if isinstance(a, Recruit)])))
        self.apply(killer, self.data.draw(st.sampled_from(
            [a for a in ENGINE.legal_actions(self.state, killer) if isinstance(a, Crime)])))

    def end_day(self) -> None:
        assert self.state.day_ends_at is not None
        self.now = max(self.now, self.state.day_ends_at)
        self.apply(SYSTEM_SEAT, EndDay(at=self.now, day=self.state.day))

    def day(self, strike: bool, actions: int) -> None:
        self.now = max(self.now, self.state.day_started_at)
        if strike:
            self.killer_strikes()
        for _ in range(actions):
            if ENGINE.outcome(self.state) is not None:
                return
            self.random_action()
        if ENGINE.outcome(self.state) is None:
            self.end_day()

    def check_persistence(self) -> None:
        dumped = json.loads(json.dumps(ENGINE.dump_state(self.state)))
        assert ENGINE.parse_state(dumped) == self.state
        rebuilt = replay(ENGINE, self.options, self.seats, self.seed, self.log)
        assert ENGINE.dump_state(rebuilt) == ENGINE.dump_state(self.state)


def check_invariants(state: SocialState) -> None:
    """Per-day limits, the murder tally and the public view's secrecy."""
    per_day = Counter((entry.day, entry.kind) for entry in state.timeline)
    judging = Counter((entry.day, entry.seat) for entry in state.timeline
                      if entry.kind in ("open_judgement", "back_judgement"))
    assert all(per_day[key] <= 1 for key in per_day if key[1] in ("crime", *DAILY_ONCE))
    assert sum(per_day[key] for key in per_day if key[1] == "recruit") <= 1
    prosecutor = state.seat_with_power(SocialRole.PROSECUTOR)
    assert all(count <= (2 if seat == prosecutor else 1) for (_, seat), count in judging.items())
    assert state.murders == sum(not seat.alive for seat in state.seats)
    if state.result is None:
        assert state.seats[state.killer].alive and state.murders < state.murders_to_win
    check_public_view(ENGINE.view(state, None), state)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 2**32), data=st.data())
def test_game_ends_by_day_half_n_when_the_killer_strikes_every_morning(players: int, seed: int,
                                                                       data: st.DataObject) -> None:
    """Every morning crime lands, so floor(N/2) days suffice; replay and JSON round trip hold at the end."""
    driver = Driver(players, seed, data)
    while ENGINE.outcome(driver.state) is None:
        assert driver.state.day <= players // 2
        driver.day(strike=True, actions=data.draw(st.integers(0, 12)))
    outcome = ENGINE.outcome(driver.state)
    assert outcome is not None and outcome.winners
    driver.check_persistence()


@settings(max_examples=25, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_keep_every_invariant(players: int, seed: int, data: st.DataObject) -> None:
    """Fully random play for up to 2N days: limits hold, nothing leaks, the state persists and replays."""
    driver = Driver(players, seed, data)
    for _ in range(2 * players):
        if ENGINE.outcome(driver.state) is not None:
            break
        driver.day(strike=False, actions=data.draw(st.integers(0, 25)))
    driver.check_persistence()
