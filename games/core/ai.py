"""Computer players: the policy contract every game's AI seats play through, and its random-legal fallback.

A policy sees what a person in that seat would see and nothing else: the seat's own view
(``engine.view(state, seat)``) and the actions the seat may take now (``engine.legal_actions(state, seat)``, the
buttons a person would get). It never reads the hidden state. A game registers its policies from its package
(e.g. ``games/cereal_killer/ai.py``) with :func:`register_policy`; a mode without one plays random legal moves.
Policies are pure and deterministic for a given ``rng`` (the caller seeds it from the game's seed and the step),
so a game with AI seats replays exactly.

The same policy moves for a person whose time runs out (:func:`timeout_move`): the default after a time limit is the
move the computer would make from that seat's view, never a random or fixed one (issue 24).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from games.core.engine import Engine
from games.core.registry import all_games


class Policy(Protocol):
    """How a computer player picks its move. A game's policy subclasses it (so it gets the defaults)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal`` (never empty) for the seat whose ``view`` this is. Free-text placeholders in a legal
        action may be filled in (the engine still validates the result)."""

    def at_table(self, action: Any) -> bool:
        """Whether a computer player seated at a real table makes ``action`` (its :meth:`choose`), or passes until
        the game changes (only a real-time mode may pass: elsewhere the game waits on the move). Every move by
        default; ``coroner simulate`` plays every choice whatever this says."""
        return True


def plays_at_table(game: str, mode: str, action: Any) -> bool:
    """Whether a computer player seated at a real table makes ``action``: its policy's :meth:`Policy.at_table`."""
    return bool(policy_for(game, mode).at_table(action))


class RandomPolicy(Policy):
    """Any legal move, uniformly: the fallback for every mode without its own policy."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return rng.choice(list(legal))


RANDOM = RandomPolicy()
_POLICIES: dict[tuple[str, str | None], Policy] = {}


def register_policy(game: str, policy: Policy, mode: str | None = None) -> Policy:
    """Use ``policy`` for ``game`` (every mode, or only ``mode``). A mode's own policy wins over the game's."""
    _POLICIES[(game, mode)] = policy
    return policy


def policy_for(game: str, mode: str) -> Policy:
    """The policy for ``game`` in ``mode``: the mode's, else the game's, else :data:`RANDOM`. The game packages
    (which register their policies when imported) are imported first if need be."""
    if (game, mode) not in _POLICIES and (game, None) not in _POLICIES:
        all_games()
    return _POLICIES.get((game, mode)) or _POLICIES.get((game, None)) or RANDOM


def choose_action(engine: Engine, state: Any, seat: int, rng: random.Random) -> Any | None:
    """The move the computer player in ``seat`` makes now, as an engine action, or ``None`` when the seat has no
    legal action. Reads only the seat's view and legal actions."""
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    return policy_for(engine.game, engine.mode.id).choose(engine.view(state, seat), legal, rng)


def timeout_move(engine: Engine, state: Any, rng: random.Random) -> tuple[int, Any] | None:
    """The move made when the awaited seat's time runs out, as ``(seat, action)``, or ``None`` when nothing is
    awaited: whose time it is comes from :meth:`~games.core.Engine.timeout_action`; a person's seat gets its
    policy's move from its own view (:func:`choose_action` with ``rng``, so the same seed makes the same move, and
    it reads no hidden state), marked by :meth:`~games.core.Engine.timeout_marked`; the game's own clock
    (``SYSTEM_SEAT``, e.g. a response window closing) and a seat with no legal action keep the engine's default."""
    move = engine.timeout_action(state)
    if move is None or move[0] < 0:
        return move
    seat = move[0]
    action = choose_action(engine, state, seat, rng)
    return move if action is None else (seat, engine.timeout_marked(state, action))
