"""The points series: three tabletop rounds scored with the rulebook's points table ("Suggestion for a points
game"), then totals and the series winner(s).

Ruling (edition file): Journalist and Doctor score as Victim; the Murder column is multiplied by the murders
and capped at 3 points; the Surviving column is multiplied by the survivors only when the Killer was caught
(by the Detective or the Prosecutor — a murdered Killer was not caught). Our ruling (README): "survive" and
"survivors" mean not murdered, so a caught Killer is a survivor.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from games.asesino.common import Card, Side, side_of


class Points(BaseModel):
    """One row of the points table."""

    survive: float
    murder: float
    surviving: float
    victory: float


POINTS: dict[str, Points] = {
    "victim": Points(survive=1, murder=0, surviving=0.5, victory=2),
    "killer": Points(survive=1, murder=1, surviving=0, victory=3),
    "accomplice": Points(survive=1, murder=1, surviving=0, victory=3),
    "detective": Points(survive=1, murder=0, surviving=0, victory=5),
    "prosecutor": Points(survive=1, murder=0, surviving=0.5, victory=3),
}
#: roles without a printed row and the row they use
SCORES_AS: dict[str, str] = {"journalist": "victim", "doctor": "victim"}
MURDER_CAP = 3.0


def row_for(role: Card) -> Points:
    return POINTS[SCORES_AS.get(role, role)]


def round_points(roles: Sequence[Card], murdered: Sequence[bool], *, winning_side: Side,
                 killer_caught: bool) -> dict[int, float]:
    """Each seat's points for one round, from the role it was dealt."""
    murders = sum(murdered)
    survivors = len(roles) - murders
    points: dict[int, float] = {}
    for seat, role in enumerate(roles):
        row = row_for(role)
        total = 0.0 if murdered[seat] else row.survive
        total += min(row.murder * murders, MURDER_CAP)
        if killer_caught:
            total += row.surviving * survivors
        if side_of(role) == winning_side:
            total += row.victory
        points[seat] = total
    return points


class Standings(BaseModel):
    """Series totals per seat and the seat(s) with the most points (ties share the win)."""

    totals: dict[int, float]
    winners: list[int]


def standings(rounds: Sequence[dict[int, float]]) -> Standings:
    """Add up the rounds (seat -> points each); the same seat number is the same player in every round."""
    totals: dict[int, float] = {}
    for scores in rounds:
        for seat, points in scores.items():
            totals[seat] = totals.get(seat, 0.0) + points
    best = max(totals.values(), default=0.0)
    winners = sorted(seat for seat, total in totals.items() if total == best) if totals else []
    return Standings(totals=dict(sorted(totals.items())), winners=winners)
