"""The facts Verdugo's achievements are judged on (``data/achievements.yaml``; the book's rules are in
:mod:`games.core.achievements`), from a finished match's steps.

Per seat: ``won`` (the most Crowns, R27), ``crowns`` (held at the end), ``served`` (rounds played as the
Executioner), ``pardon_chops`` (prisoners the seat executed as the Executioner while they held a Pardon, the object
whose holder's death hands the round to the Saboteurs, §4 step 4), ``best_round`` (the most prisoners the seat
executed as the Executioner in one round) and ``chopped`` (times the seat was executed as a prisoner, by the
Executioner or a Shield holder).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core import Outcome
from games.core.achievements import Moment
from games.verdugo.cards import is_pardon
from games.verdugo.models import VerdugoState


def match_facts(final: VerdugoState, moments: Sequence[Moment], outcome: Outcome | None) -> dict[int, dict[str, Any]]:
    """See the module docstring."""
    winners = set(outcome.winners) if outcome is not None else set()
    served: dict[int, set[int]] = {seat: set() for seat in range(len(final.seats))}
    pardons: Counter[int] = Counter()
    per_round: Counter[tuple[int, int]] = Counter()
    chopped: Counter[int] = Counter()
    for moment in moments:
        rnd = moment.before.round
        served[rnd.executioner].add(rnd.number)
        if getattr(moment.action, "type", None) != "chop":
            continue
        target = moment.action.seat
        chopped[target] += 1
        if moment.seat == rnd.executioner:
            per_round[(moment.seat, rnd.number)] += 1
            held = rnd.objects[target] if target < len(rnd.objects) else None
            if held is not None and is_pardon(held):
                pardons[moment.seat] += 1
    served[final.round.executioner].add(final.round.number)
    return {seat: {"won": seat in winners, "crowns": final.crowns[seat], "served": len(served[seat]),
                   "pardon_chops": pardons[seat],
                   "best_round": max((n for (s, _), n in per_round.items() if s == seat), default=0),
                   "chopped": chopped[seat]}
            for seat in range(len(final.seats))}
