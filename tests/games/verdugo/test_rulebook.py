"""The rulebook's examples (RB §2 action example, §3 Examples 1 and 2) and every question of its Q&A as tests.
Example 2 and the Jester-with-a-Pardon, Princess-and-Parasite and out-of-coins answers are the edition's U3, U1,
U2 and U6 (``test_units.py``)."""

from __future__ import annotations

from games.core import SYSTEM_SEAT
from games.verdugo import ENGINE
from games.verdugo.models import CENTRE, Call, ChoosePrisoner, Chop, Draw, EndMatch, Peek, Stop, Swap, VerdugoState
from tests.games.verdugo.helpers import crowns, events_of, execution_table, new_match, play, rig_round

PRISONERS_4 = "Loyalist, Saboteur, Loyalist, Saboteur | Princess, Jester, Loyalist, Saboteur, Loyalist, Saboteur"


def four_players(*scaffold: str) -> VerdugoState:
    """E in seat 0; P1-P3 hold Pardon, Fancy Hat, Doll; the centre is the Golden Chalice."""
    return rig_round(new_match(("E", "P1", "P2", "P3"), executioner=0), 0, roles=PRISONERS_4,
                     objects="Pardon, Fancy Hat, Doll, Golden Chalice | Shield, Parasite, Mimic, Cheese, Pardon, "
                             "Pardon, Fancy Hat, Fancy Hat, Golden Chalice",
                     scaffold=list(scaffold), deal_roles="Loyalist, Saboteur, Loyalist, Saboteur",
                     deal_objects="Pardon, Fancy Hat, Doll, Golden Chalice")


def test_action_example_who_knows_what() -> None:
    """RB §2: P1 swaps with P2; P2 peeks (sees P1's original card); P3 swaps with P2; a second Scaffold card
    (Last Request) gives P1 an extra action: a swap with the centre. Nobody but P2 saw anything."""
    s = four_players("town_crier", "last_request")
    s = play(s, (0, Draw()), (0, Call(seat=1)), (1, Swap(a=1, b=2)), (0, Call(seat=2)), (2, Peek(position=2)),
             (0, Call(seat=3)), (3, Swap(a=3, b=2)), (0, Draw()), (0, ChoosePrisoner(seat=1)))
    s = play(s, (1, Swap(a=1, b=CENTRE)))
    assert s.round.objects == [None, "chalice", "doll", "pardon"] and s.round.centre == "hat"  # P3 holds the Pardon
    assert [x.card for x in s.round.seen[2] if x.kind == "peek"] == ["pardon"]  # P1's original card
    assert [x.kind for x in s.round.seen[1]] == [x.kind for x in s.round.seen[3]] == ["dealt"]
    assert s.round.phase == "execute" and s.round.acted == [1, 2, 3]


def test_example_1_hat_jester_then_pardon() -> None:
    """RB Example 1: the Hat holder loses 1; the Jester steals 1 from each; E could stop for +1 (D = 1); the
    third has a Pardon: living Saboteurs +3, E −1, living Loyalists nothing."""
    s = execution_table(["loyalist", "jester", "saboteur", "loyalist"], ["hat", "chalice", "pardon", "doll"],
                        "shield")
    s = play(s, (0, Chop(seat=1)))
    assert s.crowns[1] == 4
    s = play(s, (0, Chop(seat=2)))
    assert s.crowns == [4, 3, 9, 4, 4] and s.round.deaths == 1 and Stop() in ENGINE.legal_actions(s, 0)
    s = play(s, (0, Chop(seat=3)))
    assert s.round.ending == "saboteurs"
    assert s.crowns == [3, 3, 9, 3, 4]


def test_qa_parasite_death_counts_and_pays_e_one() -> None:
    """Q&A Parasite: a Parasite death counts (E +1); a Jester killed by the Parasite still steals."""
    s = execution_table(["loyalist", "saboteur", "jester"], ["hat", "parasite", "hat"], "pardon")
    s = play(s, (0, Chop(seat=3)), (0, Stop()))  # the Jester dies: steals, not counted
    assert s.round.deaths == 1 and 2 in s.round.dead
    s2 = execution_table(["loyalist", "saboteur", "jester"], ["hat", "hat", "parasite"], "pardon")
    s2 = play(s2, (0, Chop(seat=1)), (0, Stop()))
    assert 3 in s2.round.dead and s2.round.deaths == 1  # the Jester died of the Parasite: not counted
    assert s2.crowns[3] == 5 + 3  # stole 1 from each of the three others (the Loyalist had paid his −1 first)


def test_qa_mimic_holder_dies_of_a_centre_parasite_unless_executed_first() -> None:
    """Q&A Parasite / Mimic: the Mimic holder dies of a centre Parasite at the stop; executing them cures them."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "mimic", "pardon"], "parasite")
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert 2 in s.round.dead and s.round.centre_shown == "parasite" and s.round.deaths == 2
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "mimic", "pardon"], "parasite")
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    assert 2 in s.round.escaped and s.round.dead == [] and s.crowns[0] == 5


def test_qa_doll_pays_e_and_the_loyal_holder_for_their_own_execution() -> None:
    """Q&A Doll: E +1 as if the execution succeeded; a Loyal holder survives and gets +1 for it."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["doll", "hat", "pardon"], "shield")
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert crowns(s)[0] == [6, 6, 5, 6]


def test_qa_shield_holder_executes_a_neighbour() -> None:
    """Q&A Shield: the holder, not E, executes the player to their left or right."""
    s = execution_table(["saboteur", "loyalist", "loyalist", "loyalist"], ["hat", "shield", "chalice", "doll"],
                        "pardon")
    s = play(s, (0, Chop(seat=2)))
    assert ENGINE.to_act(s) == [2] and s.round.shield_candidates == [3, 1]
    assert ENGINE.legal_actions(s, 0) == []
    s = play(s, (2, Chop(seat=3)))
    assert 3 in s.round.dead and s.round.chalice_bonus == 1


def test_qa_cheese_jester_executed_pays_e_and_survivor_is_paid_like_a_loyalist() -> None:
    """Q&A Cheese: the executed Cheese-Jester counts for E; a surviving one gets the Loyalist pay."""
    s = execution_table(["jester", "loyalist", "saboteur"], ["cheese", "hat", "pardon"], "doll")
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert s.round.deaths == 1 and s.crowns == [6, 4, 6, 5]
    s = execution_table(["jester", "loyalist", "saboteur"], ["cheese", "hat", "pardon"], "doll")
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    assert s.crowns == [6, 6, 4, 5]


def test_qa_cheese_variant_steals_two_from_everyone() -> None:
    """Q&A Cheese, optional variant: a surviving Cheese-Jester steals 2 from every other player."""
    s = execution_table(["jester", "loyalist", "saboteur"], ["cheese", "hat", "pardon"], "doll", cheese_variant=True)
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    assert s.crowns == [4, 11, 2, 3]


def test_qa_a_received_card_is_not_shown() -> None:
    """Q&A: a card received through a Scaffold card (Smuggler's Switch) is not shown to its new holder."""
    s = four_players("smuggler", "town_crier")
    s = play(s, (0, Draw()))
    s, ev = events_of(s, 0, ChoosePrisoner(seat=1))
    assert all(e.audience.is_public for e in ev) and s.round.objects[1] == "chalice"
    assert ENGINE.view(s, 1)["you"]["seen"] == [] and ENGINE.view(s, 1)["you"]["dealt"] is None


def test_qa_mimic_with_a_centre_pardon_is_a_saboteur_win() -> None:
    """Q&A Mimic: with a Pardon in the centre, executing the Mimic holder makes the Saboteurs win."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["mimic", "hat", "doll"], "pardon")
    s = play(s, (0, Chop(seat=1)))
    assert s.round.ending == "saboteurs" and s.round.centre_shown == "pardon"


def test_qa_tie_every_tied_player_wins() -> None:
    """Q&A tie: every player with the most Crowns wins (R27)."""
    s = execution_table(["loyalist", "loyalist", "saboteur"], ["hat", "doll", "pardon"], "shield")
    s = play(s, (0, Chop(seat=2)), (0, Stop()))
    s = play(s, (SYSTEM_SEAT, EndMatch()))
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == [0, 1, 2] and s.crowns == [6, 6, 6, 5]
