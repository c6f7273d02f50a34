"""Tabletop end conditions (rulebook 4; README rulings 5-6) and the round's points in the outcome."""

from __future__ import annotations

from games.asesino.common import Card
from games.asesino.series import round_points
from games.asesino.tabletop.models import Declare
from games.core import Waiting
from tests.games.asesino.support import TABLE, keys, table

SIX: list[Card] = ["victim", "detective", "prosecutor", "killer", "accomplice", "victim"]


def test_third_murder_wins_for_killer_and_accomplice_at_once() -> None:
    """Two deaths already; a third ends the game with no last words and the evil pair winning."""
    fronts = {0: [("bad", 3), ("bad", 4), ("good", 1)], 5: [("good", 2), ("good", 4)]}
    state = table(SIX, fronts=fronts, sealed=[0], deaths=[1, 2], turn=3)
    step = TABLE.apply(state, 3, Declare(card="bad", target=5))
    assert keys(step.events)[-2:] == ["asesino.destiny.murdered", "asesino.over"]
    outcome = TABLE.outcome(step.state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners) == ("asesino.end.three_deaths", [3, 4])
    assert step.state.prompt is None and step.state.obligations == []


def test_murdered_killer_is_a_good_win_even_as_third_death() -> None:
    """Ruling 6: two Bad cards on the Killer end the game for the good side, whatever the death count."""
    fronts = {3: [("bad", 0), ("bad", 4), ("good", 1)], 5: [("good", 2), ("good", 4)]}
    state = table(SIX, fronts=fronts, sealed=[3], deaths=[1, 2], turn=0)
    step = TABLE.apply(state, 0, Declare(card="good", target=5))
    outcome = TABLE.outcome(step.state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners) == ("asesino.end.killer_murdered", [0, 1, 2, 5])
    assert step.state.result is not None and not step.state.result.caught


def test_running_out_of_cards_resolves_pending_destinies_then_good_wins() -> None:
    """All hands empty: the destinies still sealed are resolved in order; fewer than 3 deaths wins for good."""
    empty: dict[int, list[Card]] = {seat: [] for seat in range(6)}
    empty[0] = ["bad"]
    fronts = {1: [("bad", 3), ("bad", 4), ("good", 0)], 2: [("good", 3), ("good", 4)]}
    state = table(SIX, hands=empty, fronts=fronts, sealed=[1], turn=0)
    step = TABLE.apply(state, 0, Declare(card="bad", target=2))
    names = keys(step.events)
    assert [e.params["seat"] for e in step.events if e.key == "asesino.destiny.revealed"] == [1]
    assert TABLE.waiting(step.state) == Waiting.prompt(1, "last_words")
    step = TABLE.apply(step.state, 1, TABLE.timeout_action(step.state)[1])  # type: ignore[index]
    names = keys(step.events)
    assert names.index("asesino.final_round") < names.index("asesino.destiny.revealed")
    assert [e.params["seat"] for e in step.events if e.key == "asesino.destiny.revealed"] == [2]
    outcome = TABLE.outcome(step.state)
    assert outcome is not None and outcome.reason == "asesino.end.survived"
    assert outcome.winners == [0, 1, 2, 5]


def test_final_resolution_can_still_reach_three_deaths() -> None:
    """The last card played seals nobody; the destiny still pending is then resolved and is the third murder."""
    hands: dict[int, list[Card]] = {seat: [] for seat in range(6)}
    hands[2] = ["good"]
    fronts = {5: [("bad", 3), ("bad", 4), ("good", 1)]}
    state = table(SIX, hands=hands, fronts=fronts, sealed=[5], deaths=[0, 1], turn=2)
    step = TABLE.apply(state, 2, Declare(card="good", target=4))
    assert keys(step.events)[2:] == ["asesino.final_round", "asesino.destiny.revealed", "asesino.destiny.murdered",
                                     "asesino.over"]
    outcome = TABLE.outcome(step.state)
    assert outcome is not None and outcome.reason == "asesino.end.three_deaths"


def test_outcome_scores_use_the_points_table() -> None:
    """Outcome.scores holds each seat's points for the round."""
    fronts = {0: [("bad", 3), ("bad", 4), ("good", 1)], 5: [("good", 2), ("good", 4)]}
    state = table(SIX, fronts=fronts, sealed=[0], deaths=[1, 2], turn=3)
    outcome = TABLE.outcome(TABLE.apply(state, 3, Declare(card="bad", target=5)).state)
    assert outcome is not None
    assert outcome.scores == {0: 0.0, 1: 0.0, 2: 0.0, 3: 7.0, 4: 7.0, 5: 1.0}
    assert outcome.scores == round_points(SIX, [True, True, True, False, False, False], winning_side="evil",
                                          killer_caught=False)
