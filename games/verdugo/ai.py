"""Computer players for Verdugo: moves that earn Crowns from the seat's own view (:mod:`games.core.ai`).

The Executioner chops again while that is worth more than stopping: with ``k`` deaths counted, one more pays
``k + 1`` unless it hands the round to the Saboteurs (a Pardon holder or the Princess dies: edition §9.3, R10-R11,
R13: ``-1`` and no wages), so it chops while that chance ``p`` keeps ``(1 - p)(k + 1) - p > k``; it prefers a
prisoner it knows will die without a Pardon, then the richest rival (the most Crowns win the match). A prisoner
that knows it holds a Pardon swaps it out of play (into the centre), or onto another prisoner when it is a
Saboteur (they win when a Pardon holder dies); a Jester holding an object that saves him swaps it away (he wants
to die); otherwise a prisoner Peeks at its own object, then at others'. A Shield holder passes the axe to the
richer neighbour. Everything else (set-asides, Scaffold choices, calls, the successor) is any legal move.
Rulebook §7.2-§7.3 and the edition's rewards table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.ai import register_policy
from games.verdugo.models import CENTRE, Chop, Peek, Stop, Swap

#: objects whose holder's death hands the round to the Saboteurs
FATAL_OBJECTS = frozenset({"pardon"})
#: roles whose death hands the round to the Saboteurs
FATAL_ROLES = frozenset({"princess"})
#: objects that kill their holder when chopped (the Doll, Shield and Parasite let the victim escape)
DEADLY = frozenset({"pardon", "hat", "chalice", "cheese", "mimic"})


class VerdugoPolicy:
    """See the module docstring."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if any(isinstance(a, Chop | Stop) for a in legal) and view["executioner"] == view.get("you", {}).get("seat"):
            return self._execute(view, legal, rng)
        if any(isinstance(a, Peek | Swap) for a in legal):
            return self._act(view, legal, rng)
        if all(isinstance(a, Chop) for a in legal):  # a Shield holder passing the axe: to the richer neighbour
            return max(legal, key=lambda a: view["crowns"][a.seat])
        return rng.choice(list(legal))

    @staticmethod
    def _risk(view: dict[str, Any]) -> float:
        """The chance that a prisoner not yet executed holds a Pardon or is the Princess (public counts)."""
        pardons = view["active_objects"].count("pardon") - sum(o == "pardon" for o in view["shown_objects"] if o)
        princess = sum(r in FATAL_ROLES for r in view["active_roles"]) - sum(
            r in FATAL_ROLES for r in view["shown_roles"] if r)
        unknown = max(len(view["active_objects"]) - len(view["executed"]), 1)
        return min(1.0, (max(pardons, 0) + max(princess, 0)) / unknown)

    def _execute(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        chops = [a for a in legal if isinstance(a, Chop)]
        stop = [a for a in legal if isinstance(a, Stop)]
        if stop and (not chops or self._risk(view) * (view["deaths"] + 2) >= 1):
            return stop[0]
        known = _known_objects(view)
        roles = dict(enumerate(view["shown_roles"]))
        crowns = view["crowns"]  # among equals, the richest rival: his loss counts most against me
        scored = [(_chop_value(known.get(a.seat), roles.get(a.seat)) + 0.1 * crowns[a.seat], a) for a in chops]
        top = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score == top])

    @staticmethod
    def _act(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        me, role = view["you"]["seat"], view["you"]["role"]
        mine = _own_object(view)
        swaps = [a for a in legal if isinstance(a, Swap) and me in (a.a, a.b)]
        to_centre = [a for a in swaps if CENTRE in (a.a, a.b)]
        to_others = [a for a in swaps if CENTRE not in (a.a, a.b)]
        if mine in FATAL_OBJECTS:  # a Saboteur wants it on another neck; anyone else wants it out of play
            return rng.choice((to_others if role == "saboteur" else to_centre) or swaps)
        if role == "jester" and mine is not None and mine not in DEADLY:
            return rng.choice(to_others or swaps)  # the Jester wants to die
        peeks = [a for a in legal if isinstance(a, Peek) and a.position == me]
        if peeks and mine is None:
            return peeks[0]
        others = [a for a in legal if isinstance(a, Peek) and a.position != me]
        return rng.choice(others or list(legal))


def _chop_value(known: str | None, role: str | None) -> float:
    """How good chopping a prisoner is: known to die without handing the round over best, known safe or fatal
    worst; a shown Princess or Jester never (their death costs the Executioner)."""
    if role in FATAL_ROLES or role == "jester":
        return -5.0
    if known is None:
        return 0.0
    return 1.0 if known in DEADLY - FATAL_OBJECTS else -3.0


def _known_objects(view: dict[str, Any]) -> dict[int, str]:
    """Seat -> the object this seat last saw at that seat's position this round (its own Peeks and looks)."""
    return {s["position"]: s["card"] for s in view["you"]["seen"] if isinstance(s.get("position"), int)}


def _own_object(view: dict[str, Any]) -> str | None:
    """The object this seat last saw at its own position this round (the dealt card until the first draw)."""
    me = view["you"]
    seen = [s["card"] for s in me["seen"] if s.get("position") == me["seat"]]
    return seen[-1] if seen else me.get("dealt")


POLICY = register_policy("verdugo", VerdugoPolicy())
