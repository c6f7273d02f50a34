"""Setup, role table, intro and the day clock of the social mode."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, time, timedelta

import pytest
from pydantic import ValidationError

from games.asesino.social import ENGINE, SocialOptions, SocialRole, day_end, next_boundary
from games.core import Audience, IllegalAction, get_engine

from .helpers import START, seats

SPECIALS = {SocialRole.DETECTIVE, SocialRole.MANIAC, SocialRole.DOCTOR, SocialRole.JOURNALIST, SocialRole.PROSECUTOR}


@pytest.mark.parametrize(("players", "victims", "specials"),
                         [(6, 2, 3), (7, 3, 3), (8, 3, 4), (9, 4, 4), (10, 4, 5), (11, 5, 5), (12, 6, 5)])
def test_role_table_per_player_count(players: int, victims: int, specials: int) -> None:
    """1 Killer, the rulebook's Victims and distinct specials; the 12 row is our ruling (1, 6, 5)."""
    for seed in range(5):
        state = ENGINE.setup(SocialOptions(started_at=START), seats(players), seed)
        count = Counter(seat.card for seat in state.seats)
        assert count[SocialRole.KILLER] == 1 and count[SocialRole.VICTIM] == victims
        drawn = [role for role in count if role in SPECIALS]
        assert len(drawn) == specials and all(count[role] == 1 for role in drawn)
        assert SocialRole.ACCOMPLICE not in count
        assert state.seats[state.killer].card == SocialRole.KILLER


def test_specials_in_play_vary_with_the_seed() -> None:
    """With fewer than five specials, which ones are in play is drawn at random."""
    drawn = {frozenset(s.card for s in ENGINE.setup(SocialOptions(), seats(6), seed).seats) for seed in range(30)}
    assert len(drawn) > 1


@pytest.mark.parametrize("players", [5, 13])
def test_bad_player_count_is_refused(players: int) -> None:
    """The social mode is for 6-12 players."""
    with pytest.raises(IllegalAction) as err:
        ENGINE.setup(SocialOptions(), seats(players), 1)
    assert err.value.code == "core.bad_player_count"


def test_engine_is_registered_with_mode_limits() -> None:
    """Importing the package registers ("asesino", "social") for 6-12 players."""
    engine = get_engine("asesino", "social")
    assert engine is ENGINE
    assert (engine.mode.min_players, engine.mode.max_players) == (6, 12)


def test_intro_tells_each_seat_its_card_privately() -> None:
    """Each seat gets its own card and character name by DM; the public start names no role."""
    state = ENGINE.setup(SocialOptions(started_at=START), seats(8), 3)
    events = ENGINE.intro(state)
    private = [e for e in events if e.key == "asesino_social.intro.role"]
    assert [e.audience for e in private] == [Audience.to(i) for i in range(8)]
    assert [e.params["card"] for e in private] == [s.card.value for s in state.seats]
    assert len({e.params["character"] for e in private}) == 8
    (start,) = [e for e in events if e.audience.is_public]
    assert start.params == {"players": 8, "to_win": 4, "ends_at": "2024-03-02T09:00:00+00:00"}


def test_characters_are_catalogue_keys() -> None:
    """A character name is a catalogue key the adapter renders."""
    state = ENGINE.setup(SocialOptions(), seats(12), 0)
    assert all(s.character.startswith("asesino_social.character.") for s in state.seats)


def test_day_without_boundary_lasts_the_day_length() -> None:
    """No boundary: a day ends day_length_minutes after it began."""
    state = ENGINE.setup(SocialOptions(started_at=START, day_length_minutes=90), seats(6), 1)
    assert next_boundary(state) == START + timedelta(minutes=90)


@pytest.mark.parametrize(("start", "expected"), [
    (datetime(2024, 3, 1, 9, 0, tzinfo=UTC), datetime(2024, 3, 1, 23, 0, tzinfo=UTC)),
    (datetime(2024, 3, 1, 22, 50, tzinfo=UTC), datetime(2024, 3, 2, 23, 0, tzinfo=UTC)),
    (datetime(2024, 3, 30, 23, 0, tzinfo=UTC), datetime(2024, 3, 31, 22, 0, tzinfo=UTC)),
])
def test_boundary_is_local_midnight_at_least_half_a_day_away(start: datetime, expected: datetime) -> None:
    """Madrid midnight boundary: short first days roll to the next midnight; DST gives a 23-hour day."""
    options = SocialOptions(boundary=time(0, 0), time_zone="Europe/Madrid")
    assert day_end(start, options) == expected


def test_first_day_end_can_be_given_by_the_adapter() -> None:
    """first_day_ends_at overrides the computed end of day 1."""
    end = START + timedelta(hours=3)
    state = ENGINE.setup(SocialOptions(started_at=START, first_day_ends_at=end), seats(6), 1)
    assert next_boundary(state) == end


def test_clock_starts_with_the_first_action_without_started_at() -> None:
    """Without started_at, day 1 starts at the first action's time."""
    from games.asesino.social import AnonymousPost

    state = ENGINE.setup(SocialOptions(), seats(6), 1)
    assert next_boundary(state) is None
    state = ENGINE.apply(state, 0, AnonymousPost(at=START, text="hello")).state
    assert state.day_started_at == START and next_boundary(state) == START + timedelta(days=1)


def test_unknown_time_zone_is_rejected() -> None:
    """Options validate the IANA zone name."""
    with pytest.raises(ValidationError):
        SocialOptions(time_zone="Mars/Olympus")


def test_naive_times_are_rejected() -> None:
    """Actions carry aware datetimes only."""
    with pytest.raises(ValidationError):
        ENGINE.parse_action({"type": "crime", "victim": 1, "at": "2024-03-01T10:00:00"})
