"""The edition's golden turns (§8.0-§8.2): Ada's multi-Victim whacking with a revive, Ben's shootout shaped like
the rulebook's example (2 vs 3+2 vs +3), and the branch where Ben loses it."""

from __future__ import annotations

import pytest

from games.lets_kill import rules
from games.lets_kill.flow import Flow
from games.lets_kill.models import Incident, LetsKillState, PlaceVictim, PlayCard, Pledge, Respond

from .support import act, answer_window, build, card_total

ADA, BEN, CLEO, DMITRI = 0, 1, 2, 3


def shared_state(*, ben_has_w08: bool = True) -> LetsKillState:
    """§8.0: the state at the start of Turn 1."""
    return build(
        hands=[["W17", "E04", "W07", "W22", "E12"],
               ["E15", "W19", "W04", "W08" if ben_has_w08 else "W21", "E08-1"],
               ["W06", "S04", "E06", "W18", "W13"],
               ["S12", "E05", "W16", "E09", "S01"]],
        lk_top=["E13-1", "W05", "S07", "W20", "E02", "W14"], victims_top=["V19", "V18"],
        locations={"L06": ["V13"], "L08": ["V16", "V06"], "L02": []}, town=["V14"],
        surprises={"V13": "S02", "V16": "S10"},
        incidents=[Incident(id=1, owner=BEN, weapon="W12", victims=["V08"], media="E08-2"),
                   Incident(id=2, owner=CLEO, weapon="W11", victims=["V12"])])


@pytest.fixture
def larry_palms_e04(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness fixes the bot's random discard (§8.1 W4) to E04 Stakeout."""
    monkeypatch.setattr(Flow, "random_pick", lambda self, cards, n: ["E04"])


def turn_1(state: LetsKillState) -> LetsKillState:
    assert state.pending is not None and state.pending.kind == "place"
    assert state.pending.victim == "V19" and state.pending.options == ["L06", "L08", "L02"]
    state = answer_window(act(state, ADA, PlaceVictim(location="L06")))
    state = act(state, ADA, PlayCard(card="W17", victims=["V19", "V13"]))
    state = answer_window(state)  # W2: all pass
    assert state.pending is not None and state.pending.kind == "window" and state.window is not None
    assert state.window.type == "incident_formed"
    assert rules.score(state, ADA) == 10  # provisional A1: Larry 4 + Moonbeam 6
    assert state.hands[ADA] == ["W07", "W22", "E12", "E13-1"]
    return answer_window(state, s1=Respond(card="E15", victim="V13"))


def test_turn_1_ada_whacks_two_and_ben_revives_moonbeam(larry_palms_e04: None) -> None:
    """§8.1: A1 scores 10, Not Dead Yet! brings it to 4; the hands, play area and discard pile after the turn."""
    state = turn_1(shared_state())
    assert [rules.score(state, s) for s in range(4)] == [4, 6, 3, 0]
    assert state.hands[ADA] == ["W07", "W22", "E12", "E13-1", "W05"]
    assert state.hands[BEN] == ["W19", "W04", "W08", "E08-1"]
    assert len(state.hands[CLEO]) == 5 and len(state.hands[DMITRI]) == 5
    a1 = state.incidents[-1]
    assert (a1.owner, a1.weapon, a1.victims, a1.location, a1.surprises) == (ADA, "W17", ["V19"], "L06", {})
    # Ben's turn has begun: his Step 1 put V18 Bubba on the Fireworks Warehouse (the only legal Location)
    assert state.active == BEN and state.window is not None and state.window.victim == "V18"
    assert [(loc.card, loc.victims) for loc in state.locations] == [("L08", ["V16", "V06", "V18"]), ("L02", [])]
    assert state.town == ["V14", "V13"] and state.surprises == {"V16": "S10"}
    assert state.lk_discard == ["E04", "S02", "E15"]
    assert card_total(state) == (55, 55)


def turn_2_until_shootout(state: LetsKillState) -> LetsKillState:
    state = answer_window(state)  # Bubba goes to the Fireworks Warehouse, the only legal Location
    assert state.locations[0].victims == ["V16", "V06", "V18"]
    state = act(state, BEN, PlayCard(card="W19", victims=["V18", "V16", "V06"]))
    state = answer_window(state, s0=Respond(card="E13-1"))  # W2: Ada plays Sirens
    assert state.whacking is not None and state.whacking.revealed == {"V16": "S10"}
    assert state.shootout is not None and state.shootout.posse == [CLEO, DMITRI, ADA]
    state = act(state, BEN, Pledge(cards=["W04"]))
    state = act(state, CLEO, Pledge(cards=["W06"]))
    state = act(state, DMITRI, Pledge())
    state = act(state, ADA, Pledge(cards=["W07"]))
    assert state.shootout is not None and (state.shootout.target_total, state.shootout.posse_total) == (2, 5)
    return state


def test_turn_2_ben_wins_the_shootout_and_scores_9(larry_palms_e04: None) -> None:
    """§8.2: 2 vs 3+2 vs +3, the posse passes, Ben wins; B2 scores 9 and Ben 15."""
    state = turn_2_until_shootout(turn_1(shared_state()))
    state = act(state, BEN, Pledge(cards=["W08"]))
    for seat in (CLEO, DMITRI, ADA):
        state = act(state, seat, Pledge())
    assert state.shootout is None and state.skips == [0, 0, 0, 0]
    state = answer_window(state)  # W9: all pass
    b2 = state.incidents[-1]
    assert (b2.weapon, b2.victims, b2.location, b2.surprises) == ("W19", ["V18", "V16", "V06"], "L08", {"V16": "S10"})
    assert rules.incident_score(b2) == 9
    assert [rules.score(state, s) for s in range(4)] == [4, 15, 3, 0]
    assert state.hands[BEN] == ["E08-1", "S07", "W20", "E02", "W14"]
    assert state.hands[ADA] == ["W22", "E12", "W05"] and len(state.hands[CLEO]) == 4
    assert set(state.lk_discard) >= {"W04", "W08", "W06", "W07", "E13-1"}
    assert state.locations[0].card == "L02" and state.town[:2] == ["V14", "V13"]  # then Cleo's Step 1
    assert card_total(state) == (55, 55)


def test_branch_2l_ben_loses_and_the_whacking_fails(larry_palms_e04: None) -> None:
    """§8.2 branch 2-L: no W08, Ben gives up; Victims stay put, S10 and W19 are discarded, Ben skips a turn."""
    state = turn_2_until_shootout(turn_1(shared_state(ben_has_w08=False)))
    state = act(state, BEN, Pledge())
    assert state.shootout is None and state.skips[BEN] == 1
    # the Victims are back in their W1 positions (Cleo's Step 1 has since added V01 Li'l Lenny after them)
    assert state.locations[0].card == "L08" and state.locations[0].victims[:3] == ["V16", "V06", "V18"]
    assert "V16" not in state.surprises and {"S10", "W19", "W04", "W06", "W07", "E13-1"} <= set(state.lk_discard)
    assert rules.score(state, BEN) == 6 and len(state.incidents) == 3
    assert state.active == CLEO and len(state.hands[BEN]) == 5  # Step 3 still happened
    assert card_total(state) == (55, 55)


def test_follow_up_media_on_b2_and_no_comment(larry_palms_e04: None) -> None:
    """§8.2 follow-up: Viral Video on B2 makes 13; No Comment in the window leaves 9 and the slot free."""
    state = turn_2_until_shootout(turn_1(shared_state()))
    state = act(state, BEN, Pledge(cards=["W08"]))
    for seat in (CLEO, DMITRI, ADA):
        state = act(state, seat, Pledge())
    state = answer_window(state)
    b2 = state.incidents[-1]
    assert rules.incident_score(b2.model_copy(update={"media": "E10"})) == 13
    # Cleo's turn: she plays Viral Video on B2, Dmitri answers No Comment
    state.hands[CLEO].append("E10")
    state.hands[DMITRI].append("E16")
    state.lk_deck = [c for c in state.lk_deck if c not in ("E10", "E16")]
    state = answer_window(state)  # Cleo's Step 1 window
    if state.pending is not None and state.pending.kind == "place":
        state = answer_window(act(state, CLEO, PlaceVictim(location=state.pending.options[0])))
    kept = answer_window(act(state, CLEO, PlayCard(card="E10", incident=b2.id)))
    assert rules.incident_score(next(i for i in kept.incidents if i.id == b2.id)) == 13
    cancelled = answer_window(act(state, CLEO, PlayCard(card="E10", incident=b2.id)), s3=Respond(card="E16"))
    inc = next(i for i in cancelled.incidents if i.id == b2.id)
    assert inc.media is None and rules.incident_score(inc) == 9 and "E10" in cancelled.lk_discard
