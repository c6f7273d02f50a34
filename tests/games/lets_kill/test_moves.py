"""Every legal move is listed (issue 21): no cut at 60 for crowded declarations, Free Samples or Stakeout; a listed
play stands for every ordering of its Victims (``free_order``), and each ordering is accepted as its own move."""

from __future__ import annotations

import random
from itertools import combinations
from math import factorial

from games.core.ai import choose_action
from games.lets_kill import plays, rules
from games.lets_kill.cards import CARDS
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import PlayCard

from .support import ready

CROWD = ["V05", "V06", "V07", "V08", "V09", "V10", "V11", "V12", "V13", "V14"]


def plays_of(state, card: str) -> list[PlayCard]:  # type: ignore[no-untyped-def]
    return [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, PlayCard) and a.card == card]


def test_every_declaration_at_a_crowded_location_is_listed_once_and_every_order_is_legal() -> None:
    """W1: a Weapon with body count 4 at a Location of 10 Victims has hundreds of target sets (the list stopped at
    60); each is listed once, and each of its orderings is a legal declaration, whacked in that order."""
    state = ready([["W09"], [], []], locations={"L08": CROWD})
    listed = plays_of(state, "W09")
    brute = {frozenset(c) for n in range(1, 7) for c in combinations([*CROWD, "V04"], n)
             if rules.declaration_error(state, "W09", list(c)) is None}
    assert len(listed) == len(brute) > 60 and {frozenset(a.victims) for a in listed} == brute
    widest = max(listed, key=lambda a: len(a.victims))
    orders = list(ENGINE.orderings(widest))
    assert len(orders) == factorial(len(widest.victims)) == len({tuple(o.victims) for o in orders})
    for order in orders[::5]:
        whacking = ENGINE.apply(state, 0, order).state.whacking
        assert whacking is not None and whacking.targets == order.victims


def test_every_free_samples_move_is_listed() -> None:
    """§9.10: up to three Victims from the town to one Location that takes them all (zero allowed): every such
    set with each Location is listed (the list stopped at 60), and the arrival order is the player's."""
    state = ready([["E05"], [], []], town=CROWD, locations={"L08": [], "L09": []})
    listed = plays_of(state, "E05")
    town = state.town
    brute = {(frozenset(c), loc) for n in range(1, 4) for c in combinations(town, n) for loc in ("L08", "L09")
             if plays.play_error(state, 0, PlayCard(card="E05", victims=list(c), location=loc)) is None}
    assert {(frozenset(a.victims), a.location) for a in listed if a.victims} == brute
    assert len(listed) == len(brute) + 1 > 60 and PlayCard(card="E05") in listed
    last = listed[-1]
    for order in ENGINE.orderings(last):
        moved = ENGINE.apply(state, 0, order).state
        here = rules.location(moved, order.location or "")
        assert here is not None and here.victims[-len(order.victims):] == order.victims


def test_every_stakeout_peek_is_listed() -> None:
    """Stakeout peeks at up to two Surprises (zero allowed): all pairs of twelve face-down Surprises are listed."""
    town = [*CROWD, "V15", "V16"]
    surprised = {v: f"S{i + 1:02d}" for i, v in enumerate(town)}
    state = ready([["E04"], [], []], town=town, surprises=surprised)
    listed = plays_of(state, "E04")
    assert len(listed) == 1 + 12 + 66 and {frozenset(a.victims) for a in listed} == {
        frozenset(c) for n in range(3) for c in combinations(town, n)}


def test_the_computer_player_declares_its_targets_most_valuable_first() -> None:
    """The policy picks among the listed sets, then uses its free order: the most valuable Victim first (each
    listed play stands for every order, so the order it declares is legal and accepted as declared)."""
    state = ready([["W09"], [], []], locations={"L08": ["V05", "V08", "V06", "V10", "V11"]})  # 1, 2, 1, 2, 2
    action = choose_action(ENGINE, state, 0, random.Random(3))
    assert isinstance(action, PlayCard) and len(action.victims) == 4  # body count 4: the most points
    assert [CARDS[v].points for v in action.victims] == [2, 2, 2, 1]
    whacking = ENGINE.apply(state, 0, action).state.whacking
    assert whacking is not None and whacking.targets == action.victims
