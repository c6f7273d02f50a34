"""The edition's three worked rounds (§11.1-11.3), played through the engine with injected decks and deals, with
the exact Crowns of each table row."""

from __future__ import annotations

import pytest

from games.core import SYSTEM_SEAT
from games.verdugo import ENGINE
from games.verdugo.models import (
    CENTRE,
    Call,
    ChooseDirection,
    ChoosePrisoner,
    Chop,
    Draw,
    EndMatch,
    Peek,
    SetAside,
    Stop,
    Successor,
    Swap,
    VerdugoState,
)
from tests.games.verdugo.helpers import (
    ANA,
    BRUNO,
    CARLA,
    DIEGO,
    ELENA,
    crowns,
    events_of,
    ids,
    new_match,
    play,
    redeal,
    rig_round,
)


def round_1() -> VerdugoState:
    """§11.1 up to Ana's stop and REVEAL ALL."""
    s = rig_round(new_match(), ANA,
                  roles="Loyalist, Saboteur, Loyalist, Jester, Princess | "
                        "Saboteur, Loyalist, Saboteur, Loyalist, Saboteur",
                  objects="Fancy Hat, Doll, Golden Chalice, Shield, Fancy Hat | "
                          "Mimic, Pardon, Parasite, Cheese, Pardon, Fancy Hat, Golden Chalice, Pardon",
                  scaffold=["royal_inspection", "last_request"],
                  deal_roles="Loyalist, Saboteur, Loyalist, Jester, Princess",
                  deal_objects="Pardon, Golden Chalice, Doll, Fancy Hat, Shield")
    assert s.round.set_aside == ["hat"]
    assert s.round.active_objects == ids("Fancy Hat, Doll, Golden Chalice, Shield, Pardon")
    s, ev = events_of(s, ANA, Draw())
    assert [e.params for e in ev if e.audience.seats == (ANA,)] == [
        {"kind": "royal_inspection", "card": "shield", "position": CENTRE, "seat": None}]
    s = play(s, (ANA, Call(seat=BRUNO)), (BRUNO, Swap(a=BRUNO, b=CARLA)), (ANA, Call(seat=CARLA)))
    s, ev = events_of(s, CARLA, Peek(position=CARLA))
    assert ev[-1].params["card"] == "pardon" and ev[-1].audience.seats == (CARLA,)
    s = play(s, (ANA, Call(seat=DIEGO)), (DIEGO, Swap(a=DIEGO, b=CARLA)), (ANA, Call(seat=ELENA)))
    s, ev = events_of(s, ELENA, Peek(position=DIEGO))
    assert ev[-1].params["card"] == "pardon"
    s = play(s, (ANA, Draw()), (ANA, ChoosePrisoner(seat=BRUNO)), (BRUNO, Swap(a=BRUNO, b=CENTRE)))
    assert s.round.objects == [None, "shield", "doll", "pardon", "hat"] and s.round.centre == "chalice"
    assert s.round.phase == "execute"
    s = play(s, (ANA, Chop(seat=ELENA)))
    assert ELENA in s.round.dead and s.round.shown_roles[ELENA] == "jester" and s.round.deaths == 0
    assert crowns(s)[0] == [4, 4, 4, 4, 9]
    s = play(s, (ANA, Chop(seat=BRUNO)))
    assert s.round.phase == "shield" and s.round.shield_candidates == [CARLA, DIEGO]
    assert ENGINE.to_act(s) == [BRUNO]
    s = play(s, (BRUNO, Chop(seat=CARLA)))
    assert CARLA in s.round.escaped and s.round.deaths == 1
    s = play(s, (ANA, Stop()))
    return s


def test_round_1_pardon_rule_inspection_last_request_jester_shield_into_doll() -> None:
    """§11.1: end R1 = Ana 5, Bruno 5, Carla 4, Diego 5, Elena 9; Treasury 52; REVEAL ALL shows the rest."""
    s = round_1()
    assert crowns(s) == ([5, 5, 4, 5, 9], 52)
    assert s.round.ending == "safe" and s.phase == "successor" and ENGINE.to_act(s) == [ANA]
    reveal = ENGINE.view(s, None)["reveal"]
    assert reveal["objects"][DIEGO] == "pardon" and reveal["centre"] == "chalice"
    assert reveal["discarded_role"] == "princess"


def round_2(standard: VerdugoState) -> VerdugoState:
    """§11.2 from Ana naming Diego to Carla's Pardon death."""
    s = play(standard, (ANA, Successor(seat=DIEGO)))
    s = rig_round(s, DIEGO,
                  roles="Saboteur, Loyalist, Princess, Saboteur, Loyalist | "
                        "Loyalist, Saboteur, Jester, Loyalist, Saboteur",
                  objects="Pardon, Shield, Parasite, Mimic, Pardon | "
                          "Pardon, Cheese, Fancy Hat, Doll, Golden Chalice, Fancy Hat, Golden Chalice, Fancy Hat",
                  scaffold=["chain_gang", "open_trial"])
    assert s.round.phase == "set_aside" and ENGINE.to_act(s) == [DIEGO]
    s = play(s, (DIEGO, SetAside(index=1)))  # the Shield; draws a Pardon
    assert s.round.phase == "set_aside"
    s = play(s, (DIEGO, SetAside(index=0)))  # one Pardon (three are active); draws the Cheese
    assert sorted(s.round.active_objects) == sorted(ids("Pardon, Parasite, Mimic, Pardon, Cheese"))
    assert s.round.set_aside == ["shield", "pardon"]
    s = redeal(s, "Saboteur, Princess, Saboteur, Loyalist, Loyalist", "Pardon, Parasite, Pardon, Mimic, Cheese")
    s = play(s, (DIEGO, Draw()), (DIEGO, ChooseDirection(direction="left")))
    assert s.round.objects == ["pardon", "parasite", "pardon", None, "mimic"]
    s = play(s, (DIEGO, Call(seat=CARLA)), (CARLA, Peek(position=CARLA)), (DIEGO, Call(seat=BRUNO)),
             (BRUNO, Swap(a=CARLA, b=ELENA)), (DIEGO, Call(seat=ANA)), (ANA, Peek(position=CENTRE)),
             (DIEGO, Call(seat=ELENA)), (ELENA, Swap(a=ELENA, b=CENTRE)), (DIEGO, Draw()))
    assert s.round.objects == ["pardon", "parasite", "mimic", None, "cheese"] and s.round.centre == "pardon"
    assert s.round.rules == ["open_trial"]
    s = play(s, (DIEGO, Chop(seat=BRUNO)))
    assert BRUNO in s.round.escaped and s.round.shown_roles[BRUNO] == "saboteur" and s.round.deaths == 0
    s = play(s, (DIEGO, Chop(seat=ELENA)))
    assert s.crowns[ELENA] == 8 and s.round.shown_roles[ELENA] == "saboteur" and s.round.deaths == 1
    s = play(s, (DIEGO, Chop(seat=CARLA)))
    assert s.round.centre_shown == "pardon" and s.round.shown_objects[CARLA] == "mimic"
    assert s.round.shown_roles[CARLA] == "loyalist"
    return s


def test_round_2_safe_loop_chain_gang_parasite_cured_mimic_pardon_open_trial_saboteur_win() -> None:
    """§11.2: end R2 = Ana 5, Bruno 8, Carla 3, Diego 4, Elena 8; Treasury 52."""
    s = round_2(round_1())
    assert s.round.ending == "saboteurs"
    assert crowns(s) == ([5, 8, 3, 4, 8], 52)


def round_3(cheese_variant: bool) -> VerdugoState:
    s = round_2(round_1())
    s.options.cheese_variant = cheese_variant
    s = play(s, (DIEGO, Successor(seat=CARLA)))
    s = rig_round(s, CARLA,
                  roles="Jester, Loyalist, Saboteur, Loyalist, Saboteur | "
                        "Princess, Loyalist, Saboteur, Loyalist, Saboteur",
                  objects="Mimic, Parasite, Cheese, Golden Chalice, Pardon | "
                          "Fancy Hat, Doll, Pardon, Shield, Fancy Hat, Golden Chalice, Pardon, Fancy Hat",
                  scaffold=["blunt_axe", "double_wages"],
                  deal_roles="Loyalist, Jester, Saboteur, Loyalist, Saboteur",
                  deal_objects="Golden Chalice, Cheese, Mimic, Pardon, Parasite")
    assert s.round.set_aside == [] and s.round.phase == "draw"
    s = play(s, (CARLA, Draw()), (CARLA, Call(seat=BRUNO)), (BRUNO, Peek(position=BRUNO)), (CARLA, Call(seat=DIEGO)),
             (DIEGO, Peek(position=DIEGO)), (CARLA, Call(seat=ELENA)), (ELENA, Swap(a=ANA, b=DIEGO)),
             (CARLA, Call(seat=ANA)), (ANA, Peek(position=CENTRE)), (CARLA, Draw()))
    assert s.round.rules == ["blunt_axe", "double_wages"]
    s = play(s, (CARLA, Chop(seat=ELENA)))
    assert ELENA in s.round.escaped and s.round.shown_objects[ELENA] == "cheese" and s.round.shown_roles[ELENA] is None
    assert s.crowns == [5, 8, 3, 4, 8]
    s = play(s, (CARLA, Chop(seat=ANA)))
    assert s.crowns[ANA] == 4 and (s.round.deaths, s.round.chalice_bonus) == (1, 1)
    assert s.round.shown_roles[ANA] is None
    return play(s, (CARLA, Stop()))


@pytest.mark.parametrize(("variant", "expected"), [(False, ([4, 10, 8, 3, 10], 45)), (True, ([2, 8, 6, 1, 16], 47))])
def test_round_3_blunt_axe_double_wages_chalice_mimic_parasite_cheese_jester(
        variant: bool, expected: tuple[list[int], int]) -> None:
    """§11.3: the standard and the ``cheese_variant`` rows of the end-of-R3 table."""
    s = round_3(variant)
    assert DIEGO in s.round.dead and s.round.centre_shown == "parasite"
    assert crowns(s) == expected


def test_match_ending_after_round_3_is_a_shared_win() -> None:
    """§11.3 / R27: the host ends the open match; Bruno and Elena tie on 10 and both win."""
    s = play(round_3(False), (SYSTEM_SEAT, EndMatch()))
    outcome = ENGINE.outcome(s)
    assert outcome is not None and outcome.winners == [BRUNO, ELENA]
    assert outcome.scores == {0: 4.0, 1: 10.0, 2: 8.0, 3: 3.0, 4: 10.0}
