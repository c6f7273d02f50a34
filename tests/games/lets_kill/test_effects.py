"""One test per effect kind (edition §2.3), through the engine wherever the kind is triggered."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.lets_kill import effects, rules
from games.lets_kill.dsl import KINDS, parse_effects
from games.lets_kill.engine import ENGINE
from games.lets_kill.flow import Flow
from games.lets_kill.models import ChooseCards, DiscardHand, Incident, PlaceVictim, PlayCard, Pledge, Respond

from .support import act, answer_window, build, card_total, ready

TESTED: set[str] = set()


def kind(name: str):  # type: ignore[no-untyped-def]
    TESTED.add(name)
    return lambda f: f


@kind("points")
def test_points_add_each_victim_and_incident() -> None:
    """Exploding Birthday Cake +1 per Victim, Dark Alley +2 to the Incident."""
    inc = Incident(id=1, owner=0, weapon="W19", victims=["V05"], location="L09")
    assert rules.incident_score(inc) == 1 + 1 + 2


@kind("body_count")
def test_body_count_from_location_and_killing_spree() -> None:
    """Shooting Range gives Guns +1; Killing Spree's extra Weapon gets +1 and is mandatory (LK-25)."""
    assert rules.effective_body_count("W01", ["V05"], "L11") == 2
    state = ready([["E03", "W11"], [], []], locations={"L08": ["V05", "V06"]})
    state = act(state, 0, PlayCard(card="E03"))
    assert state.pending is not None and state.pending.extra and state.pending.bonus == 1
    assert state.lk_discard[-1] == "E03"
    assert DiscardHand() not in ENGINE.legal_actions(state, 0)
    state = answer_window(answer_window(act(state, 0, PlayCard(card="W11", victims=["V05", "V06"]))))
    assert state.incidents[-1].victims == ["V05", "V06"]


@kind("placement_restriction")
def test_placement_restriction_location_and_victim() -> None:
    """Gallery Opening refuses a Stupid Victim; Mimi is never placed on a Location."""
    state = build(hands=[[], [], []], locations={"L02": [], "L08": []}, start=False)
    assert rules.placement_options(state, "V14") == ["L08"]
    assert rules.placement_options(state, "V42") == ["L02", "L08"]
    assert rules.placement_options(state, "V04") == []


@kind("capacity")
def test_capacity_counts_children() -> None:
    """Dark Alley holds one Victim, a Child included (LK-13)."""
    state = build(hands=[[], [], []], locations={"L09": ["V01"]}, start=False)
    assert rules.placement_options(state, "V05") == []


@kind("whack_restriction")
def test_whack_restriction_victim_and_location() -> None:
    """Grandma Mildred resists Sharp & Pointy; nothing at the Playground can be whacked; Children never."""
    state = build(hands=[[], [], []], locations={"L07": ["V02"], "L03": ["V09"]}, start=False)
    assert rules.declaration_error(state, "W24", ["V09"]) is not None
    assert rules.declaration_error(state, "W11", ["V09"]) is None
    assert rules.declaration_error(state, "W20", ["V02"]) is not None
    assert rules.surprise_targets(state) == ["V09"]


@kind("whack_scope")
def test_whack_scope_steamroller_out_on_the_town() -> None:
    """Steamroller whacks up to 3 Victims out on the town, never at a Location; normal Weapons take one."""
    state = build(hands=[[], [], []], locations={"L08": ["V05"]}, town=["V06", "V07", "V10", "V12"], start=False)
    assert rules.declaration_error(state, "W16", ["V06", "V07", "V10"]) is None
    assert rules.declaration_error(state, "W16", ["V06", "V07", "V10", "V12"]) is not None
    assert rules.declaration_error(state, "W16", ["V05"]) is not None
    assert rules.declaration_error(state, "W20", ["V06", "V07"]) is not None


@kind("draw")
def test_draw_on_incident_harpoon_gun() -> None:
    """Harpoon Gun: the whacker draws 1 right after the Incident forms (W8), above the Step-3 refill."""
    state = ready([["W03"], [], []], town=["V05"], lk_top=["E14"])
    state = act(state, 0, PlayCard(card="W03", victims=["V05"]))
    state = answer_window(state)
    assert state.hands[0] == ["E14"]


@kind("place_victims")
def test_place_victims_block_party_opens_a_window_per_placement() -> None:
    """Block Party: two Victims placed (Locations drawn do not count), each followed by a window."""
    state = ready([["E02"], [], []], victims_top=["L09", "V05", "V06"])
    state = act(state, 0, PlayCard(card="E02"))
    assert state.window is not None and state.window.victim == "V05"
    state = answer_window(state)
    assert state.window is not None and state.window.victim == "V06"
    state = answer_window(state)
    assert state.locations[0].victims == ["V05"] and "V06" in state.town
    assert state.placers["V05"] == 0


@kind("discard")
def test_discard_random_light_fingered_larry() -> None:
    """Larry: the whacker loses one card at random from hand (seeded)."""
    state = ready([["W11", "E01", "E02", "E05"], [], []], town=["V19"])
    state = answer_window(act(state, 0, PlayCard(card="W11", victims=["V19"])))
    assert len([c for c in ("E01", "E02", "E05") if c in state.lk_discard]) == 1


def test_discard_owner_choice_waits_for_the_owner() -> None:
    """``choice=owner`` (no card of the edition uses it): the owner picks which cards go, then play goes on."""
    state = ready([["E01", "E02", "E05"], [], []])
    flow = Flow(state.model_copy(deep=True))
    (effect,) = parse_effects("on_whacked: discard(who=whacker, n=2, choice=owner)", "victim")
    effects.discard(flow, effect, {"whacker": 0})
    state = flow.state
    assert state.pending is not None and (state.pending.kind, state.pending.n) == ("discard_choice", 2)
    assert len(ENGINE.legal_actions(state, 0)) == 3
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, ChooseCards(cards=["E01"]))
    after = act(state, 0, ChooseCards(cards=["E01", "E05"]))
    assert after.lk_discard[-2:] == ["E01", "E05"] and "E02" in after.hands[0]


@kind("trigger_shootout")
def test_trigger_shootout_anonymous_tip_target_without_guns_loses() -> None:
    """Anonymous Tip: the target pledges nothing, loses and skips a turn; the tipper is in the posse."""
    state = ready([["E01"], ["E02"], []])
    state = act(state, 0, PlayCard(card="E01", seat=1))
    assert state.shootout is not None and state.shootout.posse == [2, 0]
    assert ENGINE.legal_actions(state, 1) == [Pledge()]
    step = ENGINE.apply(state, 1, Pledge())
    keys = [e.key for e in step.events]
    assert keys.index("lets_kill.shootout_lost") < keys.index("lets_kill.skipped")
    assert step.state.shootout is None and step.state.active == 2 and len(step.state.hands[1]) == 5


@kind("cancel")
def test_cancel_banana_peel_and_played_dead() -> None:
    """Banana Peel cancels the whacking (nothing revealed); Played Dead makes its Victim escape (no Incident)."""
    state = ready([["W11"], ["E14"], []], town=["V05"], surprises={"V05": "S12"})
    peeled = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])), s1=Respond(card="E14"))
    assert peeled.surprises == {"V05": "S12"} and "W11" in peeled.lk_discard and not peeled.incidents
    escaped = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])))
    assert not escaped.incidents and "V05" in escaped.town and {"S12", "W11"} <= set(escaped.lk_discard)


@kind("steal_incident")
def test_steal_incident_framed_only_up_to_six() -> None:
    """Framed! takes another player's Incident worth at most 6, to the end of the thief's list."""
    small = Incident(id=1, owner=1, weapon="W11", victims=["V12"])
    big = Incident(id=2, owner=1, weapon="W12", victims=["V18"], media="E08-2")  # 3 + 2 + 2 = 7
    state = ready([["E06"], [], []], incidents=[small, big])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, PlayCard(card="E06", incident=2))
    state = act(state, 0, PlayCard(card="E06", incident=1))
    assert [(i.id, i.owner) for i in state.incidents] == [(2, 1), (1, 0)] and rules.score(state, 0) == 3


@kind("move_victim")
def test_move_victim_free_samples_and_rubbernecker() -> None:
    """Free Samples moves Victims out on the town onto one Location that takes them all; Rubbernecker moves the
    placed Victim to another legal position."""
    state = ready([["E05"], [], []], town=["V05", "V14"], locations={"L09": []})
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, PlayCard(card="E05", victims=["V05", "V14"], location="L09"))
    state = act(state, 0, PlayCard(card="E05", victims=["V14"], location="L09"))
    assert state.locations[0].victims == ["V14"]
    placed = build(hands=[[], ["E17"], []], locations={"L08": []}, victims_top=["V05"])
    assert placed.locations[0].victims == ["V05"]
    moved = answer_window(placed, s1=Respond(card="E17", location=None))
    assert "V05" in moved.town and moved.locations[0].victims == []


@kind("revive")
def test_revive_last_victim_discards_the_incident() -> None:
    """Not Dead Yet! on a one-Victim Incident: the Victim goes out on the town and the Incident is discarded."""
    state = ready([["W11"], ["E15"], []], town=["V05"])
    state = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])))
    state = answer_window(state, s1=Respond(card="E15", victim="V05"))
    assert not state.incidents and "V05" in state.town and "W11" in state.lk_discard
    assert card_total(state) == (55, 55)


@kind("skip_turn")
def test_skip_turn_nosy_neighbour() -> None:
    """Nosy Neighbour: the whacker's next turn is only Step 3."""
    state = ready([["W11"], [], []], town=["V05"], surprises={"V05": "S11"})
    state = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])))
    assert state.skips[0] == 1


@kind("extra_play")
def test_extra_play_is_lost_without_a_weapon() -> None:
    """Killing Spree with no legal Weapon: the extra play is lost and the turn goes on."""
    state = ready([["E03", "E02"], [], []])
    state = act(state, 0, PlayCard(card="E03"))
    assert state.active == 1


@kind("peek_surprise")
def test_peek_surprise_stakeout_discards_face_down_then_draws() -> None:
    """Stakeout: look at up to 2 Surprises, discard any, then draw 1."""
    state = ready([["E04"], [], []], town=["V05", "V06"], surprises={"V05": "S01", "V06": "S10"})
    state = act(state, 0, PlayCard(card="E04", victims=["V05", "V06"]))
    assert ENGINE.view(state, 0)["known"] == {"V05": "S01", "V06": "S10"}
    assert "known" not in ENGINE.view(state, None)
    state = act(state, 0, ChooseCards(cards=["V06"]))
    assert state.surprises == {"V05": "S01"} and "S10" in state.lk_discard and len(state.hands[0]) == 5


@kind("grant_attribute")
def test_grant_attribute_counts_for_filters() -> None:
    """Secretly a Hypocrite makes Kevin a Hypocrite for the Scissors' filter."""
    inc = Incident(id=1, owner=0, weapon="W23", victims=["V06"], surprises={"V06": "S06"})
    assert "Hypocrite" in rules.incident_attrs(inc, "V06") and rules.incident_score(inc) == 3


@kind("leave_play")
def test_leave_play_child_goes_home_at_placers_next_turn() -> None:
    """Li'l Lenny goes home at the start of its placer's next turn, to the Victims discard pile."""
    state = build(hands=[[], [], []], town=["V01"], placers={"V01": 0}, victims_top=["V04"])
    assert "V01" not in state.town and state.victims_discard == ["V01"]


def test_every_kind_has_a_test() -> None:
    """The 19 kinds of §2.3 are each covered above."""
    assert TESTED == set(KINDS) and len(KINDS) == 19


def test_place_choice_is_asked_when_several_locations_qualify() -> None:
    """LK-04: the active player chooses among legal Locations; a bad choice is refused."""
    state = build(hands=[[], [], []], locations={"L08": [], "L01": []}, victims_top=["V05"])
    assert state.pending is not None and state.pending.options == ["L08", "L01"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, PlaceVictim(location="L02"))
    assert act(state, 0, PlaceVictim(location="L01")).locations[1].victims == ["V05"]
