"""The independent rules checker (``checker/``) against the engine: seeded random matches at 3, 4 and 5 players,
every step compared (state, legal actions, refusals, views, outcome), and focused positions the edition settles.

The larger run is ``python -m tests.bench.lets_kill_checker``."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import PlayCard

from .checker.arrange import arrange
from .checker.cards import EDITION, load
from .checker.compare import Tally, compare_match
from .checker.decisions import play_ok
from .checker.rules import incident_score

pytestmark = pytest.mark.skipif(not EDITION.exists(), reason="the card edition (shared/rules) is not on this machine")


def accepted(state, action: PlayCard) -> bool:
    try:
        ENGINE.apply(state, 0, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("players,seed", [(3, 101), (4, 202), (5, 303)])
def test_random_match_agrees_with_the_checker(players: int, seed: int) -> None:
    tally = Tally()
    state = compare_match(players, seed, tally)
    assert state.ended in {"deck", "victims", "declared"}
    assert tally.matches == 1 and tally.steps > 20 and tally.refusals > 0 and tally.accepted_probes > 0


def test_the_checker_reads_the_whole_edition() -> None:
    cards = load()
    assert len(cards) == 110
    assert sum(c.is_gun for c in cards.values()) == 10  # §5
    assert sum(c.body_count for c in cards.values() if c.is_gun) == 24


GRENADE = ["V36", "V05", "V06", "V07", "V08", "V10", "V12"]  # Hank and six more at the Fireworks Warehouse (7 - 1)

# (hand, play area, the play, legal?) — each verdict from the edition; the engine and the checker must both agree.
POSITIONS = [
    pytest.param(dict(town=["V36", "V14"]), PlayCard(card="W14", victims=["V36"]), True, id="U6-hank-alone"),
    pytest.param(dict(town=["V36", "V14"]), PlayCard(card="W11", victims=["V36"]), False, id="9.8-hank-bc1"),
    pytest.param(dict(locations={"L08": ["V36", "V14"]}), PlayCard(card="W14", victims=["V36", "V14"]), False,
                 id="U6-hank-plus-one"),
    pytest.param(dict(locations={"L03": ["V09", "V11", "V12", "V33"]}),
                 PlayCard(card="W10", victims=["V09", "V11", "V12"]), False, id="U10-grenade-not-maximal"),
    pytest.param(dict(locations={"L03": ["V09", "V11", "V12", "V33"]}),
                 PlayCard(card="W10", victims=["V09", "V11", "V12", "V33"]), True, id="U10-grenade-all"),
    pytest.param(dict(town=["V14", "V05", "V06", "V07"]), PlayCard(card="W16", victims=["V14", "V05", "V06"]), True,
                 id="steamroller-three-out"),
    pytest.param(dict(town=["V14", "V05", "V06", "V07"]),
                 PlayCard(card="W16", victims=["V14", "V05", "V06", "V07"]), False, id="steamroller-bc3"),
    pytest.param(dict(locations={"L08": ["V14"]}), PlayCard(card="W16", victims=["V14"]), False,
                 id="steamroller-never-at-location"),
    pytest.param(dict(town=["V14", "V05"]), PlayCard(card="W07", victims=["V14", "V05"]), False,
                 id="W1-two-out-on-the-town"),
    pytest.param(dict(locations={"L07": ["V01"]}, town=["V14"]), PlayCard(card="S01", victims=["V01"]), False,
                 id="LK-10-no-surprise-under-child"),
    pytest.param(dict(town=["V14"], surprises={"V14": "S02"}), PlayCard(card="S01", victims=["V14"]), False,
                 id="RB-one-surprise-per-victim"),
    pytest.param(dict(town=["V43"]), PlayCard(card="W11", victims=["V43"]), False, id="chip-bodyguards"),
    pytest.param(dict(locations={"L05": ["V41"]}), PlayCard(card="W20", victims=["V41"]), False,
                 id="country-club-no-explosive"),
    pytest.param(dict(locations={"L11": ["V14", "V05", "V06"]}), PlayCard(card="W04", victims=["V14", "V05", "V06"]),
                 True, id="shooting-range-gun-plus-one"),
    pytest.param(dict(locations={"L11": ["V14"]}), PlayCard(card="W11", victims=["V14"]), False,
                 id="shooting-range-guns-only"),
    pytest.param(dict(town=["V14"]), PlayCard(card="E13-1"), False, id="LK-05-response-not-step2"),
    pytest.param(dict(town=["V14"], locations={"L09": ["V05"]}), PlayCard(card="E05", victims=["V14"], location="L09"),
                 False, id="free-samples-capacity"),
    pytest.param(dict(town=["V04"], locations={"L08": []}), PlayCard(card="E05", victims=["V04"], location="L08"),
                 False, id="LK-14-mimi-never-on-location"),
    pytest.param(dict(town=["V14", "V15"], locations={"L08": []}),
                 PlayCard(card="E05", victims=["V14", "V15"], location="L08"), True, id="free-samples-two"),
    pytest.param(dict(town=["V14"]), PlayCard(card="E05"), True, id="9.10-free-samples-none"),
    pytest.param(dict(town=["V36", "V14", "V05"]), PlayCard(card="W16", victims=["V36", "V14"]), True,
                 id="9.4-steamroller-hank"),
    pytest.param(dict(town=["V36", "V14", "V05"]), PlayCard(card="W16", victims=["V36", "V14", "V05"]), False,
                 id="9.4-steamroller-hank-three"),
    pytest.param(dict(locations={"L08": GRENADE}), PlayCard(card="W10", victims=GRENADE[1:]), True,
                 id="9.8-grenade-six-without-hank"),
    pytest.param(dict(locations={"L08": GRENADE}), PlayCard(card="W10", victims=GRENADE[:6]), True,
                 id="9.8-grenade-hank-and-five"),
    pytest.param(dict(locations={"L08": GRENADE}), PlayCard(card="W10", victims=GRENADE[1:6]), False,
                 id="9.8-grenade-five-not-maximal"),
    pytest.param(dict(locations={"L08": GRENADE}), PlayCard(card="W10", victims=GRENADE), False,
                 id="9.8-grenade-seven-over"),
]


@pytest.mark.parametrize("zones,action,legal", POSITIONS)
def test_position_verdicts(zones: dict, action: PlayCard, legal: bool) -> None:
    hand = [action.card, *(["W11"] if action.card != "W11" else [])]
    state = arrange(hand=hand, **zones)
    assert play_ok(state, 0, state.pending.kinds, 0, action.card, action.victims, action.location, action.incident,
                   action.seat) is legal
    assert accepted(state, action) is legal


def test_incident_targets_for_events() -> None:
    """LK-05, LK-22, LK-27: a Media Event needs an Incident without one, Gruesome Souvenir one of your own, Framed!
    another player's worth at most 6."""
    incidents = [dict(owner=1, weapon="W11", victims=["V12"]),  # 3
                 dict(owner=1, weapon="W12", victims=["V08"], media="E08-2"),  # 6
                 dict(owner=2, weapon="W20", victims=["V41"]),  # 9
                 dict(owner=0, weapon="W18", victims=["V05"])]
    state = arrange(hand=["E08-1", "E07", "E06", "W11"], town=["V14"], incidents=incidents)
    assert [incident_score(i) for i in state.incidents] == [3, 6, 9, 1]
    verdicts = {(c, i): accepted(state, PlayCard(card=c, incident=i)) for c in ("E08-1", "E07", "E06")
                for i in (1, 2, 3, 4)}
    assert verdicts == {("E08-1", 1): True, ("E08-1", 2): False, ("E08-1", 3): True, ("E08-1", 4): True,
                        ("E07", 1): False, ("E07", 2): False, ("E07", 3): False, ("E07", 4): True,
                        ("E06", 1): True, ("E06", 2): True, ("E06", 3): False, ("E06", 4): False}


def test_killing_spree_gives_the_extra_weapon_plus_one() -> None:
    """E03, LK-25, §9.4: after Killing Spree the Steamroller may whack four Victims out on the town; the extra
    play is Weapons only and the hand cannot be discarded instead."""
    state = arrange(hand=["E03", "W16", "S01"], town=["V14", "V05", "V06", "V07"])
    state = ENGINE.apply(state, 0, PlayCard(card="E03")).state
    assert state.pending.kind == "play" and state.pending.extra
    listed = ENGINE.legal_actions(state, 0)
    assert {a.card for a in listed} == {"W16"} and "E03" in state.lk_discard
    assert accepted(state, PlayCard(card="W16", victims=["V14", "V05", "V06", "V07"]))
    assert not accepted(state, PlayCard(card="S01", victims=["V14"]))
