"""Response windows and shootouts in positions the rulebook and the edition settle (RB Shootouts, §7.4, §7.7, LK-07,
LK-20, §8.2, §9.14), driven through the engine's public API."""

from __future__ import annotations

import pytest

from games.core import SYSTEM_SEAT
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import CloseWindow, PlayCard, Pledge, Respond

from .checker.arrange import arrange
from .checker.cards import EDITION
from .checker.rules import score

pytestmark = pytest.mark.skipif(not EDITION.exists(), reason="the card edition (shared/rules) is not on this machine")


def act(state, seat, action):
    return ENGINE.apply(state, seat, action).state


def whack_with_sirens(target_guns: list[str]):
    """Seat 0 whacks Cousin Dwayne (out on the town) with the Frozen Leg of Lamb; seats 1 and 2 both answer with
    Sirens; seat 1 also holds Antique Dueling Pistols (2), seat 2 Double-Barrel Scattergun (3)."""
    state = arrange(hand=["W11", *target_guns], town=["V14", "V05"],
                    others={1: ["E13-1", "W06", "E02", "E04", "E05"], 2: ["E13-2", "W07", "E06", "E07", "E09"],
                            3: ["E10", "E11", "E12", "S01", "S02"]})
    state = act(state, 0, PlayCard(card="W11", victims=["V14"]))
    assert state.pending.kind == "window" and state.window.type == "whack_declared"
    state = act(state, 1, Respond(card="E13-1"))
    state = act(state, 2, Respond(card="E13-2"))
    if state.pending.kind == "window":
        state = act(state, SYSTEM_SEAT, CloseWindow())
    return state


def test_a_second_sirens_goes_back_to_hand_unrevealed() -> None:
    """§7.4 "only one shootout per whacking" and LK-20: seat 1's Sirens (first from the whacker's left) starts it;
    seat 2's is no longer legal when its turn comes and returns to its owner's hand."""
    state = whack_with_sirens(["W04"])
    assert state.pending.kind == "pledge" and state.shootout.target == 0
    assert "E13-2" in state.hands[2] and "E13-1" not in state.hands[1]


def test_the_rulebook_shootout_example_target_wins() -> None:
    """RB's example as §8.2 replays it: 2, then 2 + 3 = 5, then 2 + 3 = 5 and no answer: the target wins; every
    committed Gun is discarded; the Incident forms; the posse's spent cards are not replaced (LK-07)."""
    state = whack_with_sirens(["W04", "W08"])
    state = act(state, 0, Pledge(cards=["W04"]))
    state = act(state, 1, Pledge(cards=["W06"]))
    state = act(state, 2, Pledge(cards=["W07"]))
    state = act(state, 3, Pledge())
    assert state.pending.seat == 0
    state = act(state, 0, Pledge(cards=["W08"]))
    for seat in (1, 2, 3):
        state = act(state, seat, Pledge())
    assert {"W04", "W08", "W06", "W07", "E13-1"} <= set(state.lk_discard)
    assert [(i.owner, i.weapon, i.victims) for i in state.incidents] == [(0, "W11", ["V14"])]
    assert score(state, 0) == 3  # Cousin Dwayne 2 + Frozen Leg of Lamb 1
    assert len(state.hands[1]) == 3 and len(state.hands[2]) == 4 and state.skips[0] == 0


def test_a_short_target_pledge_is_refused_and_giving_up_loses() -> None:
    """§9.14: the target's pledge must reach the posse's total; pledging nothing gives up. Branch 2-L of §8.2:
    the failed whacking puts Dwayne back, discards the Weapon, and the whacker skips the next turn."""
    state = whack_with_sirens(["W04", "W01"])
    state = act(state, 0, Pledge(cards=["W04"]))
    state = act(state, 1, Pledge(cards=["W06"]))
    state = act(state, 2, Pledge(cards=["W07"]))
    state = act(state, 3, Pledge())
    assert Pledge(cards=["W01"]) not in ENGINE.legal_actions(state, 0)  # 2 + 1 < 5
    state = act(state, 0, Pledge())
    assert state.incidents == [] and "V14" in state.town and "W11" in state.lk_discard
    assert state.skips[0] == 1 and "W01" in state.hands[0]


def test_a_short_posse_pledge_goes_back_to_hand() -> None:
    """§7.7: posse pledges that do not reach the target's total are not committed and return to hand; the target
    wins and the whacking goes on to form its Incident (only the target's Gun is spent)."""
    state = arrange(hand=["W11", "W04"], town=["V14", "V05"],
                    others={1: ["E13-1", "W01", "E02", "E04", "E05"], 2: ["W06", "E06", "E07", "E09", "E10"],
                            3: ["E11", "E12", "S01", "S02", "S03"]})
    state = act(state, 0, PlayCard(card="W11", victims=["V14"]))
    state = act(state, 1, Respond(card="E13-1"))
    state = act(state, SYSTEM_SEAT, CloseWindow())
    state = act(state, 0, Pledge(cards=["W04"]))
    state = act(state, 1, Pledge(cards=["W01"]))  # 1 < 2
    state = act(state, 2, Pledge())
    state = act(state, 3, Pledge())
    assert "W01" in state.hands[1] and "W06" in state.hands[2] and "W04" in state.lk_discard
    assert [(i.owner, i.victims) for i in state.incidents] == [(0, ["V14"])]
