"""The facts Asesino en Serie's achievements are judged on (``data/achievements.yaml``; the book's rules are in
:mod:`games.core.achievements`), per mode, from a finished game's final state and its steps.

Every mode: ``role`` (the role card the seat played as: ``killer``, ``accomplice``, ``victim``, ``detective``...;
in the social mode a recruited player is an ``accomplice``) and ``won``. The tabletop adds ``murdered`` and
``targeted`` (intention cards played in front of the seat, all game); the social mode adds ``alive`` and
``accused`` (judgements opened against the seat).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core import Outcome
from games.core.achievements import Moment

Facts = dict[int, dict[str, Any]]


def _base(roles: Sequence[str], outcome: Outcome | None) -> Facts:
    winners = set(outcome.winners) if outcome is not None else set()
    return {seat: {"role": str(role), "won": seat in winners} for seat, role in enumerate(roles)}


def _count(moments: Sequence[Moment], kind: str, field: str) -> Counter[int]:
    """How often each seat was the ``field`` of an action of type ``kind``."""
    return Counter(getattr(m.action, field) for m in moments if getattr(m.action, "type", None) == kind)


def tabletop_facts(final: Any, moments: Sequence[Moment], outcome: Outcome | None) -> Facts:
    """``role``, ``won``, ``murdered``, ``targeted`` per seat of a finished tabletop game."""
    facts = _base([player.role for player in final.seats], outcome)
    targeted = _count(moments, "declare", "target")
    for seat, player in enumerate(final.seats):
        facts[seat] |= {"murdered": player.murdered, "targeted": targeted[seat]}
    return facts


def small_facts(final: Any, moments: Sequence[Moment], outcome: Outcome | None) -> Facts:
    """``role`` (the identity card) and ``won`` per seat of a finished 2-4 player game."""
    return _base([player.identity for player in final.seats], outcome)


def social_facts(final: Any, moments: Sequence[Moment], outcome: Outcome | None) -> Facts:
    """``role``, ``won``, ``alive``, ``accused`` per seat of a finished social game."""
    facts = _base([seat.role.value for seat in final.seats], outcome)
    accused = _count(moments, "open_judgement", "accused")
    for index, seat in enumerate(final.seats):
        facts[index] |= {"alive": seat.alive, "accused": accused[index]}
    return facts
