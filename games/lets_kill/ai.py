"""Computer players for Let's Kill!: moves that score, from the seat's own view (:mod:`games.core.ai`).

Step 2 plays the Weapon whose declared Victims are worth the most points (rulebook "Whacking"; card points from
``data/cards.yaml``), else another card, and throws the hand away only when nothing else is legal. A Victim goes
to the Location that gathers the most points (future Incidents score them together). In a shootout a seat
pledges every Gun it may; it declares 20 points when it may. Response windows, peeks and discards: any legal move.
A listed play stands for every order of its Victims (``LetsKill.free_order``): a Weapon's targets are declared
the most valuable first, so its Surprises are revealed and its Victims' texts resolve in that order (W3, W4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.ai import Policy, register_policy
from games.lets_kill.cards import CARDS
from games.lets_kill.models import Declare, DiscardHand, PlaceVictim, PlayCard, Pledge


def _points(victims: Sequence[str]) -> int:
    return sum(CARDS[v].points or 0 for v in victims)


class LetsKillPolicy(Policy):
    """See the module docstring."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        first = legal[0]
        if isinstance(first, PlayCard | DiscardHand):
            return self._play(legal, rng)
        if isinstance(first, PlaceVictim):
            return self._place(view, legal, rng)
        if isinstance(first, Pledge):
            most = max(len(a.cards) for a in legal)
            return rng.choice([a for a in legal if len(a.cards) == most])
        if isinstance(first, Declare):
            return next(a for a in legal if a.declare)
        return rng.choice(list(legal))

    @staticmethod
    def _play(legal: Sequence[Any], rng: random.Random) -> Any:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if not plays:
            return legal[0]
        weapons = [a for a in plays if CARDS[a.card].type == "weapon" and a.victims]
        if weapons:
            best = max(_points(a.victims) for a in weapons)
            chosen = rng.choice([a for a in weapons if _points(a.victims) == best])
            order = sorted(chosen.victims, key=lambda v: -(CARDS[v].points or 0))  # stable: ties keep play order
            return chosen.model_copy(update={"victims": order})
        return rng.choice(plays)

    @staticmethod
    def _place(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        here = {loc["card"]: _points([v["card"] for v in loc["victims"]]) for loc in view["locations"]}
        best = max(here.get(a.location, -1) for a in legal)
        return rng.choice([a for a in legal if here.get(a.location, -1) == best])


POLICY = register_policy("lets_kill", LetsKillPolicy())
