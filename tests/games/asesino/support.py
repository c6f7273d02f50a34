"""Builders of hand-made Asesino positions and a random legal player, shared by the tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.asesino.common import Card
from games.asesino.small import ENGINE as SMALL
from games.asesino.small.models import Column, Slot, SmallPlayer, SmallState
from games.asesino.tabletop import ENGINE as TABLE
from games.asesino.tabletop.models import Played, Player, TabletopState
from games.asesino.tabletop.setup import hand_for
from games.core import Engine, Event


def table(roles: Sequence[Card], *, hands: dict[int, list[Card]] | None = None,
          fronts: dict[int, list[tuple[Card, int]]] | None = None, sealed: Sequence[int] = (),
          turn: int = 0, deaths: Sequence[int] = (), spared: Sequence[int] = ()) -> TabletopState:
    """A tabletop game already under way (clockwise, ``turn`` to play). ``fronts`` maps a seat to
    ``(card, played_by)`` pairs; ``sealed`` lists sealed seats in sealing order (unresolved unless dead);
    ``deaths`` lists murdered seats and ``spared`` survivors of a resolved destiny (both sealed and resolved)."""
    hands = hands or {}
    fronts = fronts or {}
    seats = []
    for seat, role in enumerate(roles):
        player = Player(role=role, hand=list(hands.get(seat, hand_for(role)[0])),
                        front=[Played(card=card, by=by) for card, by in fronts.get(seat, [])])
        if seat in deaths:
            player.sealed = player.resolved = player.murdered = True
        elif seat in spared:
            player.sealed = player.resolved = True
        elif seat in sealed:
            player.sealed = True
        seats.append(player)
    return TabletopState(seed=7, seats=seats, discard=[], first=turn, turn=turn, clockwise=True,
                         turn_announced=True, sealed_order=[*deaths, *spared, *sealed], deaths=list(deaths))


def columns(*cols: Sequence[tuple[Card, int | None]], identities: Sequence[Card] = ("detective", "killer"),
            hands: Sequence[Sequence[Card]] = ((), ()), turn: int = 0) -> SmallState:
    """A small-mode game with the given columns (each a list of ``(card, played_by)``; missing columns are
    empty), identities and hands, ``turn`` to play."""
    built = [Column(slots=[Slot(card=card, by=by, declared=None if by is None else "bad") for card, by in col])
             for col in cols]
    built += [Column() for _ in range(6 - len(built))]
    seats = [SmallPlayer(identity=identity, hand=list(hand)) for identity, hand in zip(identities, hands,
                                                                                         strict=True)]
    return SmallState(seed=11, seats=seats, columns=built, turn=turn, turn_announced=True)


def keys(events: list[Event]) -> list[str]:
    return [event.key for event in events]


def play_randomly(engine: Engine, state: Any, rng: random.Random, timeout_share: float = 0.3,
                  limit: int = 1000) -> tuple[Any, list[tuple[int, Any, list[Event]]]]:
    """Play legal moves (or the timeout default) until the game ends; returns the final state and the log of
    ``(seat, action, events)``."""
    log = []
    while engine.outcome(state) is None:
        assert len(log) < limit, "the game did not end"
        if rng.random() < timeout_share:
            seat, action = engine.timeout_action(state)  # type: ignore[attr-defined]
        else:
            (seat,) = engine.to_act(state)
            action = rng.choice(engine.legal_actions(state, seat))
        step = engine.apply(state, seat, action)
        log.append((seat, action, step.events))
        state = step.state
    return state, log


__all__ = ["SMALL", "TABLE", "columns", "keys", "play_randomly", "table"]
