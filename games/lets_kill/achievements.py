"""The facts Let's Kill!'s achievements are judged on (``data/achievements.yaml``; the book's rules are in
:mod:`games.core.achievements`), from a finished game's steps and its final state.

Per seat: ``won`` (the best score, LK-33), ``score``, ``declared`` (the seat declared 20), ``shootouts_won``
(shootouts won: as the target holding the posse off, or in the posse that outgunned the target) and
``lone_guns`` (shootouts won with a single Gun card: the target's whole pledge, or the posse's whole firepower
coming from this one seat's one card), read from the shootout events of §7.7 (``lets_kill.shootout``,
``target_pledged``, ``posse_pledged``, ``posse_committed``, ``shootout_won``/``shootout_lost``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import Event, Outcome
from games.core.achievements import Moment
from games.lets_kill import rules
from games.lets_kill.models import LetsKillState


@dataclass
class _Duel:
    """One shootout as its events tell it: the target's cards, and each posse member's committed cards."""

    target: int
    target_cards: int = 0
    asked: dict[int, int] = field(default_factory=dict)  # this posse round: seat -> firepower pledged
    posse: Counter[int] = field(default_factory=Counter)  # committed rounds: seat -> rounds with firepower
    posse_cards: int = 0


@dataclass
class _Tally:
    won: Counter[int] = field(default_factory=Counter)
    lone: Counter[int] = field(default_factory=Counter)
    duel: _Duel | None = None

    def see(self, event: Event) -> None:
        name, params = event.key.removeprefix("lets_kill."), event.params
        if name == "shootout":
            self.duel = _Duel(target=params["seat"])
        duel = self.duel
        if duel is None:
            return
        if name == "target_pledged":
            duel.target_cards += len(params["cards"])
            duel.asked = {}
        elif name == "posse_pledged":
            duel.asked[params["seat"]] = params["firepower"]
        elif name == "posse_committed":
            duel.posse.update(seat for seat, power in duel.asked.items() if power > 0)
            duel.posse_cards += len(params["cards"])
            duel.asked = {}
        elif name == "shootout_won":
            self.won[duel.target] += 1
            self.lone[duel.target] += duel.target_cards == 1
            self.duel = None
        elif name == "shootout_lost":
            for seat in duel.posse:
                self.won[seat] += 1
            if duel.posse_cards == 1 and len(duel.posse) == 1:
                self.lone[next(iter(duel.posse))] += 1
            self.duel = None


def game_facts(final: LetsKillState, moments: Sequence[Moment], outcome: Outcome | None) -> dict[int, dict[str, Any]]:
    """See the module docstring."""
    winners = set(outcome.winners) if outcome is not None else set()
    tally = _Tally()
    for moment in moments:
        for event in moment.events:
            tally.see(event)
    return {seat: {"won": seat in winners, "score": rules.score(final, seat), "declared": final.declared_by == seat,
                   "shootouts_won": tally.won[seat], "lone_guns": tally.lone[seat]}
            for seat in range(len(final.seats))}
