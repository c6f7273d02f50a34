"""The edition's unit cases U1-U8 (§11.4), each an independent table with the Executioner in seat 0."""

from __future__ import annotations

from games.verdugo import ENGINE
from games.verdugo.models import Chop, Stop
from tests.games.verdugo.helpers import crowns, execution_table, play


def test_u1_jester_dies_holding_a_pardon_and_a_broke_saboteur_is_covered_by_the_treasury() -> None:
    """U1: final E 3, J 8, S 3, L 4; Treasury 62."""
    s = execution_table(["jester", "saboteur", "loyalist"], ["pardon", "hat", "hat"], "doll", crowns=[5, 5, 0, 5])
    assert crowns(s)[1] == 65
    s = play(s, (0, Chop(seat=1)))
    assert s.round.ending == "saboteurs"
    assert crowns(s) == ([3, 8, 3, 4], 62)


def test_u2_the_parasite_kills_the_princess() -> None:
    """U2: final E 4, P 4, L 4, S 8, X 8; Treasury 52; D and the Chalice unpaid."""
    s = execution_table(["princess", "loyalist", "saboteur", "saboteur"], ["parasite", "hat", "pardon", "chalice"],
                        "doll")
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    assert 1 in s.round.dead and s.round.ending == "saboteurs"
    assert crowns(s) == ([4, 4, 4, 8, 8], 52)


def test_u3_rulebook_example_2_shield_into_doll() -> None:
    """U3 (RB Example 2): E 6, P1 6, P2 6, P3 5."""
    s = execution_table(["loyalist", "loyalist", "saboteur"], ["shield", "doll", "pardon"], "pardon")
    s = play(s, (0, Chop(seat=1)))
    assert s.round.shield_candidates == [2, 3] and ENGINE.to_act(s) == [1]
    s = play(s, (1, Chop(seat=2)), (0, Stop()))
    assert crowns(s)[0] == [6, 6, 6, 5]


def test_u4_princess_holding_the_doll_escapes_counts_and_is_paid() -> None:
    """U4: no Saboteur win; D = 1; she receives +D like a Loyalist."""
    s = execution_table(["princess", "saboteur", "loyalist"], ["doll", "hat", "pardon"], "chalice")
    s = play(s, (0, Chop(seat=1)))
    assert s.round.ending is None and 1 in s.round.escaped and s.round.deaths == 1
    assert s.round.shown_roles[1] is None
    s = play(s, (0, Stop()))
    assert crowns(s)[0] == [6, 6, 5, 6]


def test_u5_shield_executes_a_pardon_holder() -> None:
    """U5: final E 4, P1 5, P2 4, P3 8, P4 8; Treasury 51."""
    s = execution_table(["loyalist", "loyalist", "saboteur", "saboteur"], ["shield", "pardon", "hat", "chalice"],
                        "doll")
    s = play(s, (0, Chop(seat=1)))
    assert s.round.shield_candidates == [2, 4]
    s = play(s, (1, Chop(seat=2)))
    assert crowns(s) == ([4, 5, 4, 8, 8], 51)


def test_u6_the_treasury_empties_and_the_match_ends_at_once() -> None:
    """U6: E is paid 2 of what he is owed, the Treasury hits 0: final E 22, A 19, B 20, C 10, L 9; E wins."""
    s = execution_table(["saboteur", "loyalist", "loyalist", "loyalist"], ["hat", "doll", "pardon", "hat"],
                        "shield", crowns=[20, 20, 20, 10, 9])
    assert crowns(s)[1] == 1
    s = play(s, (0, Chop(seat=1)), (0, Chop(seat=2)), (0, Stop()))
    assert crowns(s) == ([22, 19, 20, 10, 9], 0)
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == [0] and outcome.reason == "verdugo.over.treasury_empty"


def test_u7_a_mimic_in_the_centre_does_nothing_and_a_parasite_holder_still_dies_at_the_stop() -> None:
    """U7: nobody holds the Mimic; the Parasite holder not executed dies of it when E stops (R7)."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "parasite", "pardon"], "mimic")
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert s.round.dead == [1, 2] and s.round.deaths == 2 and s.round.ending == "safe"


def test_u7_executing_the_parasite_holder_cures_them() -> None:
    """U7 / R6: executed with the Parasite -> escapes, nothing counted."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "parasite", "pardon"], "mimic")
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    assert s.round.dead == [] and s.round.deaths == 0 and crowns(s)[0] == [5, 5, 5, 5]


def test_u8_bloodlust_ignores_shield_executions() -> None:
    """U8: E chops the Shield holder, who kills a Hat holder; E's own count is 1 of 2, so he may not stop."""
    s = execution_table(["loyalist", "loyalist", "saboteur", "saboteur"], ["shield", "hat", "hat", "chalice"],
                        "pardon", rules=("bloodlust",))
    s = play(s, (0, Chop(seat=1)), (1, Chop(seat=2)))
    assert 2 in s.round.dead and s.round.own_executions == 1
    assert Stop() not in ENGINE.legal_actions(s, 0) and not ENGINE.view(s, None)["may_stop"]
    legal = ENGINE.legal_actions(s, 0)
    assert legal == [Chop(seat=3), Chop(seat=4)]
