"""The scoring unit cases of §8.3 with their exact points, and declaration legality (U6, U10)."""

from __future__ import annotations

import pytest

from games.lets_kill import rules
from games.lets_kill.models import Incident, PlayCard, Pledge

from .support import act, answer_window, build


@pytest.mark.parametrize(("incident", "expected"), [
    (Incident(id=1, owner=0, weapon="W22", victims=["V42"], surprises={"V42": "S03"}, location="L02"), 18),  # U1
    (Incident(id=1, owner=0, weapon="W01", victims=["V43"], surprises={"V43": "S09"}), 2),  # U2
    (Incident(id=1, owner=0, weapon="W05", victims=["V37", "V25"], location="L12"), 15),  # U3
    (Incident(id=1, owner=0, weapon="W23", victims=["V06"], surprises={"V06": "S06"}), 3),  # U4
    (Incident(id=1, owner=0, weapon="W12", victims=["V32"], media="E10"), 10),  # U7
    (Incident(id=1, owner=0, weapon="W19", victims=["V18", "V06"], location="L08", media="E12"), 10),  # U8
    (Incident(id=1, owner=0, weapon="W04", victims=["V21"], location="L01"), 5),  # U9 (the whacker won)
], ids=["U1", "U2", "U3", "U4", "U7", "U8", "U9"])
def test_unit_case_scores(incident: Incident, expected: int) -> None:
    """§8.3: each Incident's exact score."""
    assert rules.incident_score(incident) == expected


def test_u5_tallulah_nearby_gives_minus_two_and_moves_out() -> None:
    """U5: Mini-Fridge on Brayden at the Warehouse with Tallulah there: 4 - 2 = 2; Tallulah goes out on the town."""
    state = build(hands=[["W13"], [], []], locations={"L08": ["V08", "V03"]}, victims_top=["V05"], active=0)
    state = answer_window(state)  # V05 placed
    state = answer_window(act(state, 0, PlayCard(card="W13", victims=["V08"])))
    inc = state.incidents[-1]
    assert inc.modifiers == [-2] and rules.incident_score(inc) == 2
    assert "V03" in state.town


def test_u6_hank_counts_double_against_body_count() -> None:
    """U6: Bowling Ball (2) with Hank: Hank alone is legal; Hank + Dwayne is not (effective body count 1)."""
    state = build(hands=[["W14"], [], []], locations={"L08": ["V36", "V14"]}, start=False)
    assert rules.effective_body_count("W14", ["V36"], "L08") == 1
    assert rules.declaration_error(state, "W14", ["V36"]) is None
    error = rules.declaration_error(state, "W14", ["V36", "V14"])
    assert error is not None and error.code == "lets_kill.body_count"


def test_u10_grenade_launcher_must_take_everyone_at_bingo_night() -> None:
    """U10: Grenade Launcher at Bingo Night: effective body count 6, all four must be declared."""
    state = build(hands=[["W10"], [], []], locations={"L03": ["V09", "V11", "V12", "V33"]}, start=False)
    assert rules.effective_body_count("W10", ["V09"], "L03") == 6
    error = rules.declaration_error(state, "W10", ["V09", "V11", "V12"])
    assert error is not None and error.code == "lets_kill.must_whack_all"
    assert rules.declaration_error(state, "W10", ["V09", "V11", "V12", "V33"]) is None
    assert rules.legal_declarations(state, "W10") == [["V09", "V11", "V12", "V33"]]


def test_u9_police_station_queues_a_shootout_against_the_whacker() -> None:
    """U9: a whacking at the Police Station queues a shootout; the whacker wins it and scores 5."""
    state = build(hands=[["W04", "W05"], ["W01"], []], locations={"L01": ["V21"]}, victims_top=["V05"], active=0)
    state = answer_window(state)
    state = answer_window(act(state, 0, PlayCard(card="W04", victims=["V21"])))
    assert state.shootout is not None and state.shootout.target == 0
    state = act(state, 0, Pledge(cards=["W05"]))
    state = act(act(state, 1, Pledge()), 2, Pledge())
    state = answer_window(state)
    assert rules.score(state, 0) == 5
