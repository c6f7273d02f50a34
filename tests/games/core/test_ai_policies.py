"""Every game's computer players (``games/<game>/ai.py``): registered for every mode, always choosing one of the
legal actions (free text filled in), reading nothing but the view (never changing it), deterministic for an rng.

Seeded loops over whole games of every mode at its smallest and largest table, half the seats playing the policy
and half random, so the policies meet the states random play leads to."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.simulate.driver import play
from games.cereal_killer.models import CerealOptions
from games.core import SeatInfo, all_games, get_engine
from games.core.ai import RANDOM, RandomPolicy, choose_action, policy_for
from games.core.registry import game_packages

#: the shipped games (not test stand-ins such as Hot Potato that other test modules register)
SHIPPED = {package.rsplit(".", 1)[1] for package in game_packages()}
MODES = [(g.id, m.id, n) for g in all_games() if g.id in SHIPPED for m in g.modes
         for n in sorted({m.min_players, m.max_players})]
IDS = [f"{game}-{mode}-{n}" for game, mode, n in MODES]
#: seeds per mode and table size (the social mode is slower: a day is many moves)
SEEDS = {"social": 1}


class Checked:
    """Wraps a policy: asserts that each choice is legal (up to filled-in free text and the order of the fields
    the engine leaves to the player, :meth:`games.core.Engine.free_order`) and leaves the view as it was, and that
    the same view and rng seed choose the same action again."""

    def __init__(self, policy: Any, engine: Any) -> None:
        self.policy, self.engine, self.calls = policy, engine, 0

    def _sorted(self, action: Any) -> Any:
        fields = self.engine.free_order(action)
        return action.model_copy(update={name: sorted(getattr(action, name)) for name in fields}) if fields else action

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        before, state = copy.deepcopy(view), rng.getstate()
        choice = self.policy.choose(view, legal, rng)
        assert view == before
        again = random.Random()
        again.setstate(state)
        assert self.policy.choose(copy.deepcopy(view), list(legal), again) == choice
        placeholder = next((a.text for a in legal if a.type == choice.type and hasattr(a, "text")), None)
        blank = choice.model_copy(update={"text": placeholder}) if placeholder is not None else choice
        listed = [self._sorted(a) for a in legal]
        assert self._sorted(choice) in listed or self._sorted(blank) in listed, (choice, legal[:5])
        self.calls += 1
        return choice


def test_every_mode_has_its_own_policy() -> None:
    """No mode falls back to random play."""
    for game, mode, _ in MODES:
        assert not isinstance(policy_for(game, mode), RandomPolicy), (game, mode)


@pytest.mark.parametrize(("game", "mode", "players"), MODES, ids=IDS)
def test_policies_choose_legal_moves_from_the_view_alone(game: str, mode: str, players: int) -> None:
    """Whole games where every even seat plays the checked policy and every odd seat random moves: each choice is
    legal, the engine accepts it, and the game ends."""
    engine = get_engine(game, mode)
    checked = Checked(policy_for(game, mode), engine)
    for seed in range(SEEDS.get(mode, 3)):
        policies = {seat: checked if seat % 2 == 0 else RANDOM for seat in range(players)}
        result = play(game, mode, players, seed, policies=policies, timeout_rate=0.05)
        assert engine.outcome(result.state) is not None
    assert checked.calls > 0


@pytest.mark.parametrize(("game", "mode", "players"), [("cereal_killer", "classic", 3), ("asesino", "small", 3),
                                                      ("lets_kill", "classic", 3), ("verdugo", "classic", 4)])
def test_a_seeded_game_of_computer_players_is_the_same_game(game: str, mode: str, players: int) -> None:
    """The same seed replays the same moves (every seat its game's policy)."""
    first = play(game, mode, players, 5)
    again = play(game, mode, players, 5)
    assert [m.action for m in first.moves] == [m.action for m in again.moves]


def test_choose_action_is_none_for_a_seat_with_nothing_to_do() -> None:
    """The contract's entry point: a seat that may not act gets no move; one that may gets a legal one."""
    engine = get_engine("cereal_killer", "classic")
    state = engine.setup(CerealOptions(), [SeatInfo(), SeatInfo()], 3)
    assert choose_action(engine, state, 1, random.Random(0)) is None
    assert choose_action(engine, state, 0, random.Random(0)) in engine.legal_actions(state, 0)


def _swap_secrets(game: str, state: Any, seat: int) -> Any | None:
    """``state`` with two other seats' secrets exchanged (Asesino small: identities and hands of equal size;
    Verdugo: the roles of two prisoners not shown), or ``None`` when no such pair exists."""
    new = state.model_copy(deep=True)
    if game == "asesino":
        others = [s for s in range(len(new.seats)) if s != seat]
        for i, a in enumerate(others):
            for b in others[i + 1:]:
                pa, pb = new.seats[a], new.seats[b]
                if len(pa.hand) == len(pb.hand) and (pa.identity, pa.hand) != (pb.identity, pb.hand):
                    pa.identity, pb.identity, pa.hand, pb.hand = pb.identity, pa.identity, pb.hand, pa.hand
                    return new
        return None
    r = new.round
    hidden = [s for s in r.prisoners() if s != seat and r.roles[s] is not None and r.shown_roles[s] is None]
    pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:] if r.roles[a] != r.roles[b]]
    if not pairs or r.phase == "over":
        return None
    a, b = pairs[0]
    r.roles[a], r.roles[b] = r.roles[b], r.roles[a]
    return new


@pytest.mark.parametrize(("game", "mode", "players"), [("asesino", "small", 4), ("verdugo", "classic", 6)])
def test_other_seats_secrets_change_neither_the_view_nor_the_choice(game: str, mode: str, players: int) -> None:
    """Exchanging two other players' secrets leaves the acting seat's view, its legal moves and its policy's
    choice as they were (the Cereal Killer's version: ``tests/games/cereal_killer/test_ai.py``)."""
    engine, policy = get_engine(game, mode), policy_for(game, mode)
    compared = 0
    for seed in range(2):
        for move in play(game, mode, players, seed, timeout_rate=0.0).moves[:-1]:
            state = move.state
            for seat in engine.to_act(state):
                changed = _swap_secrets(game, state, seat)
                legal = engine.legal_actions(state, seat)
                if changed is None or not legal:
                    continue
                view = engine.view(state, seat)
                assert engine.view(changed, seat) == view
                assert engine.legal_actions(changed, seat) == legal
                assert policy.choose(engine.view(changed, seat), legal, random.Random(seed)) == policy.choose(
                    view, legal, random.Random(seed))
                compared += 1
    assert compared > 20
