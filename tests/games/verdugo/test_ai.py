"""The Verdugo Executioner's stopping rule (``games/verdugo/ai.py``): the expected Crown change of one more chop,
from public counts only (edition §9.1)."""

from __future__ import annotations

from typing import Any

import pytest

from games.verdugo.ai import chop_gain, known_centre

OBJECTS = ["pardon", "hat", "hat", "chalice", "doll"]
ROLES = ["loyalist", "loyalist", "saboteur", "saboteur", "saboteur"]


def _view(**changes: Any) -> dict[str, Any]:
    """An Executioner's (seat 0) view of a 5-player round in the Execution phase, nothing executed yet."""
    view: dict[str, Any] = {
        "players": 5, "executioner": 0, "active_objects": OBJECTS, "active_roles": ROLES, "rules": [],
        "drawn": ["spy", "riot"], "crier": None, "centre_shown": None, "executed": [], "dead": [],
        "shown_objects": [None] * 5, "shown_roles": [None] * 5, "deaths": 0, "chalice_bonus": 0,
        "you": {"seat": 0, "role": None, "dealt": None, "seen": []}}
    return view | changes


def test_first_chop_with_one_pardon_in_five_pays() -> None:
    """-1/5 for the Pardon, +3/5 for a counted death, +1/5 more for the Chalice, +1/5 for the Doll."""
    assert chop_gain(_view()) == pytest.approx(0.8)


def test_two_deaths_earned_make_the_last_pardon_in_three_an_even_bet() -> None:
    """Pardon, Chalice, Doll left: -3/3 (two wages and one Crown) against +1/3 + 1/3 (Chalice) + 1/3."""
    view = _view(executed=[1, 2], dead=[1, 2], deaths=2, shown_objects=[None, "hat", "hat", None, None])
    assert chop_gain(view) == pytest.approx(0.0)


def test_double_wages_doubles_both_sides() -> None:
    assert chop_gain(_view(rules=["double_wages"])) == pytest.approx(-0.2 + 0.6 * 2 + 0.2 + 0.2 * 2)


def test_a_princess_or_a_jester_among_the_hidden_roles_lowers_the_gain() -> None:
    """Princess 1/5: a killing object loses 1 with her; Jester 1/5: a killing object costs 1 (his steal)."""
    roles = ["loyalist", "princess", "jester", "saboteur", "saboteur"]
    gain = -0.2 + 0.6 * (0.2 * -1 + 0.2 * -1 + 0.6 * 1) + 0.2 * 0.6 + 0.2
    assert chop_gain(_view(active_roles=roles)) == pytest.approx(gain)


def test_blunt_axe_test_cut_is_always_taken() -> None:
    assert chop_gain(_view(rules=["blunt_axe"])) > 0


def test_town_crier_drawn_last_takes_the_centre_out_of_the_pool() -> None:
    """The centre shown is the Pardon, so no prisoner holds one: hats 1/2, Chalice 1/4 (+1), Doll 1/4."""
    view = _view(drawn=["spy", "town_crier"], crier="pardon")
    assert known_centre(view) == "pardon"
    assert chop_gain(view) == pytest.approx(1.25)


def test_town_crier_drawn_first_is_stale() -> None:
    """Prisoners may have swapped the centre since: the Executioner does not rely on it."""
    assert known_centre(_view(drawn=["town_crier", "spy"], crier="pardon")) is None
