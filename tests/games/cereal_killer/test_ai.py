"""Cereal Killer's computer players: the hunters' possible spaces always hold the Killer and shrink with clues; no
view but the Killer's changes when the Killer's secret changes; the policies see the same choice then."""

from __future__ import annotations

import random

import pytest

from bot.simulate.driver import play as simulate
from games.cereal_killer import ENGINE
from games.cereal_killer.ai import POLICY
from games.cereal_killer.belief import possible_spaces, public_part
from games.cereal_killer.models import (
    DETECTIVE,
    KILLER,
    LOLA,
    Arrest,
    Ask,
    ChooseAnswer,
    EndTurn,
    KillerTurn,
    Pending,
)
from games.core.ai import RANDOM
from tests.games.cereal_killer.helpers import at, new_game, play


def _states(players: int, seed: int) -> list:
    """Every state of a game where the hunters play the policy against a random Killer (and the reverse on odd
    seeds), before each move."""
    policies = {seat: (POLICY if (seat == KILLER) == (seed % 2 == 1) else RANDOM) for seat in range(players)}
    game = simulate("cereal_killer", "classic", players, seed, policies=policies, timeout_rate=0.0)
    return [move.state for move in game.moves]


@pytest.mark.parametrize("players", [2, 3])
def test_the_possible_spaces_always_hold_the_killer(players: int) -> None:
    """After every move of seeded games, the Detective's (public) and Lola's possible spaces contain the Killer's
    real space, and Lola's (who also has her answers) are never more than the Detective's."""
    checked = 0
    for seed in range(4):
        for state in _states(players, seed):
            if state.result is not None or not state.routes:
                continue
            public = possible_spaces(ENGINE.view(state, DETECTIVE))
            assert state.killer in public
            if players == 3:
                lola = possible_spaces(ENGINE.view(state, LOLA))
                assert state.killer in lola and lola <= public
            checked += 1
    assert checked > 20


def test_clues_narrow_the_search() -> None:
    """Day 1 on City A (route 8, 3, 2, 1; victim on House 3, Witness on Park 4): the possible spaces are the ends
    of 3-step walks through House 3, never the Witness; an odd parity answer keeps odd spaces only; a missed
    arrest on 9 removes 9; the Killer's space 1 stays throughout."""
    state = play(new_game(2), (KILLER, KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)))
    after_victim = possible_spaces(ENGINE.view(state, DETECTIVE))
    assert 1 in after_victim and 4 not in after_victim
    assert len(after_victim) < 20
    state = at(state, phase="detective", detective=9, turn_steps=3)
    state = play(state, (DETECTIVE, Ask(question="parity")))
    odd = possible_spaces(ENGINE.view(state, DETECTIVE))
    assert 1 in odd and odd < after_victim and all(space % 2 == 1 for space in odd)
    assert 9 in odd
    state = play(state, (DETECTIVE, Arrest(space=9)))
    assert state.arrests_left == 3
    assert possible_spaces(ENGINE.view(state, DETECTIVE)) == odd - {9}


def _hidden_changed(state):
    """The same game with the Killer somewhere else, another route and other pending options."""
    other = next(space for space in range(1, 21) if space not in (state.killer, state.detective, state.lola))
    routes = [list(route) for route in state.routes]
    if routes:
        routes[-1][-1] = other
    pending = state.pending
    if pending is not None:
        pending = Pending(kind=pending.kind, asker=pending.asker, reference=pending.reference,
                          options=["north", "west"] if pending.options != ["north", "west"] else ["south"],
                          question=pending.question)
    return state.model_copy(update={"killer": other, "routes": routes, "pending": pending}, deep=True)


@pytest.mark.parametrize("players", [2, 3])
def test_no_hidden_information_enters_any_view_but_the_killers(players: int) -> None:
    """While the game goes on, moving the Killer, rewriting its route and its pending options changes neither the
    public view, nor the Detective's, nor Lola's (her answers were given before), so the hunters' policy chooses
    the same move; the Killer's own view does change."""
    seen = 0
    for seed in range(3):
        for state in _states(players, seed):
            if state.result is not None or state.killer is None:
                continue
            changed = _hidden_changed(state)
            for seat in (None, DETECTIVE, LOLA)[:players]:
                assert ENGINE.view(changed, seat) == ENGINE.view(state, seat)
            assert ENGINE.view(changed, KILLER) != ENGINE.view(state, KILLER)
            for seat in (DETECTIVE, LOLA)[: players - 1]:
                legal = ENGINE.legal_actions(state, seat)
                if legal and not isinstance(legal[0], ChooseAnswer):
                    assert ENGINE.legal_actions(changed, seat) == legal
                    assert POLICY.choose(ENGINE.view(changed, seat), legal, random.Random(seed)) == POLICY.choose(
                        ENGINE.view(state, seat), legal, random.Random(seed))
                    seen += 1
    assert seen > 10


def test_the_killer_meets_its_calendar_and_the_hunters_arrest() -> None:
    """Against random hunters the Killer's policy never misses an objective; against a random Killer the hunters'
    policy wins every one of these seeded games."""
    for seed in range(6):
        killer = simulate("cereal_killer", "classic", 2, seed, policies={KILLER: POLICY, DETECTIVE: RANDOM},
                          timeout_rate=0.0)
        assert ENGINE.outcome(killer.state).reason != "cereal_killer.end.objective_failed"
        hunters = simulate("cereal_killer", "classic", 3, seed, policies={KILLER: RANDOM}, timeout_rate=0.0)
        assert ENGINE.outcome(hunters.state).winners == [DETECTIVE, LOLA]


def test_the_killer_answers_to_keep_the_most_spaces_open() -> None:
    """A diagonal direction question offers two true answers; the Killer picks the one that leaves the public
    more possible spaces."""
    state = play(new_game(2), (KILLER, KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)))
    state = state.model_copy(update={"phase": "detective"}, deep=True)
    state.pending = Pending(kind="question", asker=DETECTIVE, reference=4, options=["north", "west"],
                            question="direction")
    view = ENGINE.view(state, KILLER)
    legal = ENGINE.legal_actions(state, KILLER)
    choice = POLICY.choose(view, legal, random.Random(0))
    sizes = {a.answer: len(possible_spaces(public_part(view), extra={"answer": {
        "day": 1, "question": "direction", "witness": 4, "answer": a.answer}})) for a in legal}
    assert sizes[choice.answer] == max(sizes.values())
    assert EndTurn() not in legal
