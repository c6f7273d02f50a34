"""The points series (rulebook "Suggestion for a points game"; edition ruling on Journalist/Doctor, the Murder
cap and the Surviving condition; README rulings 9-11)."""

from __future__ import annotations

import pytest

from games.asesino.common import Card
from games.asesino.series import round_points, standings

# Golden series: 9 players, 3 rounds. Each round: roles by seat, murdered seats, winning side, Killer caught.
ROUND_1: list[Card] = ["victim", "victim", "victim", "detective", "prosecutor", "journalist", "doctor", "killer",
                       "accomplice"]
ROUND_2: list[Card] = ["killer", "accomplice", "victim", "victim", "victim", "detective", "prosecutor",
                       "journalist", "doctor"]
ROUND_3: list[Card] = ["detective", "prosecutor", "journalist", "doctor", "killer", "accomplice", "victim",
                       "victim", "victim"]


def murdered(count: int, seats: set[int]) -> list[bool]:
    return [seat in seats for seat in range(count)]


def test_round_one_killer_side_wins_with_three_murders() -> None:
    """Victim/Detective/Journalist murdered; evil wins. Survivors get Survive only; Killer and Accomplice get
    Survive 1 + Murder 1x3 + Victory 3 = 7."""
    points = round_points(ROUND_1, murdered(9, {0, 3, 5}), winning_side="evil", killer_caught=False)
    assert points == {0: 0, 1: 1, 2: 1, 3: 0, 4: 1, 5: 0, 6: 1, 7: 7, 8: 7}


def test_round_two_detective_catches_the_killer_after_two_murders() -> None:
    """Victim and Doctor murdered, 7 survivors, Killer caught: Victim rows get 0.5x7 = 3.5 Surviving, even the
    murdered ones; Prosecutor 1 + 3.5 + 3; Detective 1 + 5; Killer and Accomplice 1 + 1x2."""
    points = round_points(ROUND_2, murdered(9, {2, 8}), winning_side="good", killer_caught=True)
    assert points == {0: 3, 1: 3, 2: 5.5, 3: 6.5, 4: 6.5, 5: 6, 6: 7.5, 7: 6.5, 8: 5.5}


def test_round_three_murdered_killer_is_a_win_but_not_a_catch() -> None:
    """The Killer murdered (plus one Victim): good wins without the Surviving column; the dead Killer keeps
    Murder 1x2."""
    points = round_points(ROUND_3, murdered(9, {4, 6}), winning_side="good", killer_caught=False)
    assert points == {0: 6, 1: 4, 2: 3, 3: 3, 4: 2, 5: 3, 6: 2, 7: 3, 8: 3}


def test_three_round_series_totals_and_winner() -> None:
    """Totals add up per seat and the highest total wins the series."""
    rounds = [
        round_points(ROUND_1, murdered(9, {0, 3, 5}), winning_side="evil", killer_caught=False),
        round_points(ROUND_2, murdered(9, {2, 8}), winning_side="good", killer_caught=True),
        round_points(ROUND_3, murdered(9, {4, 6}), winning_side="good", killer_caught=False),
    ]
    result = standings(rounds)
    assert result.totals == {0: 9, 1: 8, 2: 9.5, 3: 9.5, 4: 9.5, 5: 9, 6: 10.5, 7: 16.5, 8: 15.5}
    assert result.winners == [7]


def test_murder_column_is_capped_at_three_points() -> None:
    """The Murder column never pays more than 3 points."""
    roles: list[Card] = ["killer", "victim", "victim", "victim", "victim"]
    points = round_points(roles, [False, True, True, True, True], winning_side="evil", killer_caught=False)
    assert points[0] == 1 + 3 + 3


@pytest.mark.parametrize(("role", "expected"), [("journalist", 6.5), ("doctor", 6.5), ("victim", 6.5),
                                                ("prosecutor", 7.5), ("detective", 6.0)])
def test_journalist_and_doctor_score_as_victim(role: Card, expected: float) -> None:
    """Journalist and Doctor use the Victim row (here: survive, 7 survivors with the Killer caught, victory)."""
    roles: list[Card] = ["killer", "accomplice", role, "victim", "victim", "victim", "victim", "victim", "victim"]
    points = round_points(roles, murdered(9, {7, 8}), winning_side="good", killer_caught=True)
    assert points[2] == expected


def test_tied_series_shares_the_win() -> None:
    """Equal best totals make several winners; no rounds make none."""
    assert standings([{0: 3, 1: 5, 2: 5}, {0: 1}]).winners == [1, 2]
    assert standings([]).winners == []
