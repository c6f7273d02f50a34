"""Property tests: random day-by-day games with random legal actions, random texts, late and out-of-order
timestamps, downtime catch-up and EndDay rolls, played to the end.

Properties:
* if the Killer strikes first thing every day (recruiting on day 1), every crime lands (no protection yet that
  day), so the game ends by day floor(N/2) at the latest;
* every random game ends by its ``max_days`` (README ruling "Maximum length");
* in any random game: per-day limits hold, the murder tally equals the dead, every open judgement counts only
  living respected backers, every action lies inside the day it counts for (ruling "Time"), every published letter
  or clue passes the letter checks unless the host approved it, no public or medium event and no public view
  reveals a role or a secret action's author before the end, the state survives a JSON round trip, and replaying
  the log from the seed reproduces the state;
* over a fixed set of seeds the random games really reach judgements that stand, refused and accepted letters,
  reviews, clues, refused late and out-of-order actions, and catch-ups after downtime.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.asesino.social import (
    ENGINE,
    SYSTEM_SEAT,
    BackJudgement,
    Crime,
    EndDay,
    OpenJudgement,
    Recruit,
    RequestReview,
    SendClue,
    SocialOptions,
    SocialRole,
    SocialState,
    WriteLetter,
)
from games.asesino.social.writing import check_text
from games.core import IllegalAction, SeatInfo
from games.core.replay import replay

from .helpers import START
from .leaks import check_public_event, check_public_view

DAILY_ONCE = ("protect", "inspect", "interview", "maniac_kill")
NAMES = ["Roberto", "Mercedes", "José", "William", "Francisca", "Pablo", "Jorge", "Dolores", "Ignacio", "Susan",
         "Michael", "Elizabeth"]
TEXTS = ["Red was their colour.", "They prefer vanilla.", "Robertito did it", "Ask Pepe", "Bill knows",
         "at seven in the evening, in the kitchen", "around 18:00 hours, before dusk", "in the alley by the garden",
         "It was <@123456789012345678>", "Merche, at 9 pm, in the garden", "Lola and Paco, always together"]
LETTER_CODES = {"asesino_social.letter_names_player", "asesino_social.letter_names_role",
                "asesino_social.letter_time_and_place",
                "asesino_social.letter_names_and_time_place"}
WRITING = (WriteLetter, SendClue, RequestReview)


def named_seats(players: int) -> list[SeatInfo]:
    return [SeatInfo(names=(f"u{i}x", NAMES[i])) for i in range(players)]


class Driver:
    """Plays a game from a ``random.Random``, checking invariants after every step and counting what happened."""

    def __init__(self, players: int, seed: int, rng: random.Random, max_days: int = 14, *,
                 downtime: bool = True) -> None:
        self.options = SocialOptions(started_at=START, day_length_minutes=240, judgement_window_minutes=15,
                                     max_days=max_days)
        self.seats = named_seats(players)
        self.seed = seed
        self.rng = rng
        self.state: SocialState = ENGINE.setup(self.options, self.seats, seed)
        self.now = START
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.seen: Counter[str] = Counter()
        self.bounds: dict[int, tuple[datetime, datetime]] = {}
        self.approved: set[str] = set()
        self.downtime = downtime

    def apply(self, seat: int, action: Any) -> None:
        day = self.state.day
        start, end = self.state.day_started_at, self.state.day_ends_at
        step = ENGINE.apply(self.state, seat, action)
        self.state = step.state
        self.log.append((seat, ENGINE.dump_action(action)))
        self.seen[action.type] += 1
        if isinstance(action, EndDay):
            self.bounds[day] = (start, end)
        for event in step.events:
            self.seen[event.key] += 1
            if event.audience.is_public:
                check_public_event(event, self.state)
        check_invariants(self.state, self.approved)

    def text(self) -> str:
        return self.rng.choice(TEXTS)

    def random_action(self) -> None:
        """A random legal action (judgements and writing favoured), stamped a few minutes on; sometimes stamped
        before the last action (refused), sometimes past the boundary (refused, then the overdue days end)."""
        roll = self.rng.random()
        if roll < 0.05 and self.state.last_at is not None:
            self.try_refused(self.state.last_at - timedelta(minutes=1), "asesino_social.out_of_order")
            return
        if roll < 0.12 and self.downtime:
            late = self.state.day_ends_at + timedelta(minutes=self.rng.randint(0, 600))
            self.try_refused(late, "asesino_social.day_over")
            self.catch_up(late)
            return
        seat = self.rng.randrange(self.state.players)
        choices = ENGINE.legal_actions(self.state, seat)
        if not choices:
            return
        favoured = [a for a in choices if isinstance(a, OpenJudgement | BackJudgement | WriteLetter | SendClue)]
        action = self.rng.choice(favoured if favoured and self.rng.random() < 0.6 else choices)
        self.now = min(self.now + timedelta(minutes=self.rng.randint(0, 20)),
                       self.state.day_ends_at - timedelta(seconds=1))
        update: dict[str, Any] = {"at": self.now}
        if hasattr(action, "text"):
            update["text"] = self.text()
        action = action.model_copy(update=update)
        try:
            self.apply(seat, action)
        except IllegalAction as exc:
            self.seen[exc.code] += 1
            if exc.code in LETTER_CODES and isinstance(action, WriteLetter) and self.rng.random() < 0.5:
                self.request_review(seat, action.text)
            else:  # the clock moved past a judgement's window since legal_actions
                assert exc.code in LETTER_CODES | {"asesino_social.judgement_expired"}, exc

    def request_review(self, seat: int, text: str) -> None:
        try:
            self.apply(seat, RequestReview(at=self.now, text=text))
        except IllegalAction as exc:
            assert exc.code == "asesino_social.review_pending"
            return
        approve = self.rng.random() < 0.5
        if approve:
            self.approved.add(text)
        review = self.state.reviews[-1].id
        self.apply(SYSTEM_SEAT, ENGINE.parse_action({"type": "review_letter", "at": self.now.isoformat(),
                                                     "review": review, "approve": approve}))

    def try_refused(self, at: datetime, code: str) -> None:
        seat = self.rng.randrange(self.state.players)
        actions = ENGINE.legal_actions(self.state, seat)
        if not actions:
            return
        action = self.rng.choice(actions).model_copy(update={"at": at})
        before = self.state.model_dump()
        try:
            ENGINE.apply(self.state, seat, action)
        except IllegalAction as exc:
            assert exc.code == code, exc
            assert self.state.model_dump() == before
            self.seen[code] += 1
            return
        raise AssertionError(f"{action} at {at} was accepted")

    def catch_up(self, now: datetime) -> None:
        """What the bot does after downtime: end every overdue day at its boundary, in order."""
        overdue = 0
        while ENGINE.outcome(self.state) is None and self.state.day_ends_at <= now:
            self.end_day()
            overdue += 1
        self.seen["catch_up_days"] += overdue
        self.now = max(self.now, min(now, self.state.day_ends_at - timedelta(seconds=1)))

    def killer_strikes(self) -> None:
        killer = self.state.killer
        if self.state.accomplice is None:
            self.apply(killer, self.rng.choice(
                [a for a in ENGINE.legal_actions(self.state, killer) if isinstance(a, Recruit)]))
        self.apply(killer, self.rng.choice(
            [a for a in ENGINE.legal_actions(self.state, killer) if isinstance(a, Crime)]))

    def end_day(self) -> None:
        self.now = self.state.day_ends_at
        self.apply(SYSTEM_SEAT, EndDay(at=self.now, day=self.state.day))

    def day(self, strike: bool, actions: int) -> None:
        self.now = max(self.now, self.state.day_started_at, self.state.last_at or self.now)
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
        for entry in self.state.timeline:  # ruling "Time": every action lies inside the day it counts for
            if entry.kind != "end_day" and entry.day in self.bounds:
                start, end = self.bounds[entry.day]
                assert start <= entry.at < end, entry


def check_invariants(state: SocialState, approved: set[str]) -> None:
    """Per-day limits, the murder tally, judgement backers, letter limits and the public view's secrecy."""
    per_day = Counter((entry.day, entry.kind) for entry in state.timeline)
    judging = Counter((entry.day, entry.seat) for entry in state.timeline
                      if entry.kind in ("open_judgement", "back_judgement"))
    assert all(per_day[key] <= 1 for key in per_day if key[1] in ("crime", *DAILY_ONCE))
    assert sum(per_day[key] for key in per_day if key[1] == "recruit") <= 1
    prosecutor = state.seat_with_power(SocialRole.PROSECUTOR)
    assert all(count <= (2 if seat == prosecutor else 1) for (_, seat), count in judging.items())
    assert state.murders == sum(not seat.alive for seat in state.seats)
    for judgement in state.judgements:
        if judgement.status == "open":
            assert all(state.seats[b].alive and state.seats[b].judged_day is None for b in judgement.backers)
        if judgement.status == "stood":
            assert len(judgement.backers) >= 3
    for published in state.published:
        if published.kind in ("letter", "clue") and published.text not in approved:
            check_text(state, published.text)
    assert [e.at for e in state.timeline] == sorted(e.at for e in state.timeline)
    if state.result is None:
        assert state.seats[state.killer].alive and state.murders < state.murders_to_win
        assert state.day <= state.options.max_days
    check_public_view(ENGINE.view(state, None), state)


def play_out(players: int, seed: int, choices: int, max_days: int) -> Driver:
    """A fully random game played until it ends (it must end by ``max_days``)."""
    driver = Driver(players, seed, random.Random(choices), max_days=max_days)
    while ENGINE.outcome(driver.state) is None:
        assert driver.state.day <= max_days
        driver.day(strike=driver.rng.random() < 0.3, actions=driver.rng.randint(0, 25))
    driver.check_persistence()
    return driver


@settings(max_examples=20, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_game_ends_by_day_half_n_when_the_killer_strikes_every_morning(players: int, seed: int,
                                                                       choices: int) -> None:
    """Every morning crime lands, so floor(N/2) days suffice; replay and JSON round trip hold at the end."""
    driver = Driver(players, seed, random.Random(choices), downtime=False)
    while ENGINE.outcome(driver.state) is None:
        assert driver.state.day <= players // 2
        driver.day(strike=True, actions=driver.rng.randint(0, 12))
    outcome = ENGINE.outcome(driver.state)
    assert outcome is not None and outcome.winners
    driver.check_persistence()


@settings(max_examples=20, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32),
       max_days=st.integers(2, 14))
def test_random_games_keep_every_invariant_and_end_by_the_maximum_length(players: int, seed: int, choices: int,
                                                                        max_days: int) -> None:
    """Fully random play to the end: limits hold, nothing leaks, time is respected, the state persists and
    replays, and the game is over by ``max_days``."""
    driver = play_out(players, seed, choices, max_days)
    outcome = ENGINE.outcome(driver.state)
    assert outcome is not None and outcome.winners and driver.state.day <= max_days


def test_random_games_really_exercise_judgements_letters_and_time() -> None:
    """Over fixed seeds the random games reach what the rules above are about (a property test that never gets
    there could not fail)."""
    seen: Counter[str] = Counter()
    for seed in range(12):
        seen += play_out(6 + seed % 7, seed, seed, 14).seen
    for key in ("asesino_social.judgement.stood", "write_letter", "send_clue", "request_review", "review_letter",
                "asesino_social.letter", "asesino_social.clue", "asesino_social.letter_names_player",
                "asesino_social.letter_time_and_place", "asesino_social.day_over", "asesino_social.out_of_order",
                "catch_up_days", "asesino_social.end.time_up"):
        assert seen[key] > 0, (key, seen)
