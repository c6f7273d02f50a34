"""The public view of the discard pile (README ruling 6): every face-up card, top first; never one discarded face
down (Stakeout, LK-26)."""

from __future__ import annotations

from games.lets_kill.engine import ENGINE
from games.lets_kill.models import ChooseCards, DiscardHand, PlayCard

from .support import act, ready


def test_the_public_view_lists_the_face_up_discard_pile_top_first() -> None:
    """A thrown-away hand is public, top card first; the pile's size still counts every card."""
    state = act(ready([["W01", "E02", "S01"], [], []]), 0, DiscardHand())
    view = ENGINE.view(state, None)
    assert view["discard"] == ["S01", "E02", "W01"]
    assert view["decks"]["lets_kill_discard"] == 3


def test_a_surprise_discarded_face_down_by_stakeout_stays_unseen() -> None:
    """LK-26: the Surprise Stakeout throws away goes face down; Stakeout itself is public once it resolved."""
    state = ready([["E04"], [], []], town=["V05", "V06"], surprises={"V05": "S01", "V06": "S10"})
    state = act(act(state, 0, PlayCard(card="E04", victims=["V05", "V06"])), 0, ChooseCards(cards=["V06"]))
    view = ENGINE.view(state, None)
    assert "S10" in state.lk_discard and "S10" not in view["discard"]
    assert view["discard"] == ["E04"] and view["decks"]["lets_kill_discard"] == 2
