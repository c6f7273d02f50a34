"""Computer players for Verdugo: moves that earn Crowns from the seat's own view (:mod:`games.core.ai`).

The Executioner chops again while the expected change of his Crowns from one more chop (:func:`chop_gain`, from
the public counts of the cards not yet shown: edition §9.1 R1-R13) is positive, and stops otherwise; it prefers a
prisoner it knows will die without a Pardon, then the richest rival (the most Crowns win the match). A prisoner
that knows it holds a Pardon swaps it out of play (into the centre), or onto another prisoner when it is a
Saboteur (they win when a Pardon holder dies); a Jester holding an object that saves him swaps it away (he wants
to die); otherwise a prisoner Peeks at its own object, then at others'. A Shield holder passes the axe to the
richer neighbour. Everything else (set-asides, Scaffold choices, calls, the successor) is any legal move.
Rulebook §7.2-§7.3 and the edition's rewards table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core.ai import Policy, register_policy
from games.verdugo.models import CENTRE, Chop, Peek, Stop, Swap

#: objects whose holder's death hands the round to the Saboteurs
FATAL_OBJECTS = frozenset({"pardon"})
#: roles whose death hands the round to the Saboteurs
FATAL_ROLES = frozenset({"princess"})
#: objects that kill their holder when chopped (the Doll, Shield and Parasite let the victim escape)
DEADLY = frozenset({"pardon", "hat", "chalice", "cheese", "mimic"})


class VerdugoPolicy(Policy):
    """See the module docstring."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if any(isinstance(a, Chop | Stop) for a in legal) and view["executioner"] == view.get("you", {}).get("seat"):
            return self._execute(view, legal, rng)
        if any(isinstance(a, Peek | Swap) for a in legal):
            return self._act(view, legal, rng)
        if all(isinstance(a, Chop) for a in legal):  # a Shield holder passing the axe: to the richer neighbour
            return max(legal, key=lambda a: view["crowns"][a.seat])
        return rng.choice(list(legal))

    def _execute(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        chops = [a for a in legal if isinstance(a, Chop)]
        stop = [a for a in legal if isinstance(a, Stop)]
        if stop and (not chops or chop_gain(view) <= 0):
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


def chop_gain(view: dict[str, Any]) -> float:
    """The Executioner's expected Crown change from chopping one prisoner he knows nothing about, against stopping
    now, from public counts only (edition §9.1): the object is any card not yet shown (the centre's too, unless his
    view pins the centre down), the role any role not yet revealed (a dead prisoner whose role stayed hidden was
    neither the Princess nor the Jester). A counted death pays ``W`` (and 1 more for a Chalice); a Pardon or the
    Princess loses the ``W × D + C`` already earned and 1 more (R10-R13); the Jester's death without the Cheese costs
    the Executioner 1 (R2); a Mimic resolves as the centre, drawn from the same pool; a Shield passes the axe to a
    prisoner like this one; a Parasite or the Blunt Axe's test cut earns nothing (R5-R6, R24)."""
    wage = 2 if "double_wages" in view["rules"] else 1
    if "blunt_axe" in view["rules"] and not view["executed"]:
        return 0.5  # the test cut costs nothing and shows a card: always worth it
    pool = Counter(view["active_objects"])
    pool.subtract(o for o in view["shown_objects"] if o)
    centre = known_centre(view)
    if centre is not None:
        pool[centre] -= 1
    total = sum(max(c, 0) for c in pool.values())
    if total <= 0:
        return -1.0
    p = {o: max(c, 0) / total for o, c in pool.items()}
    p_mimic = p.pop("mimic", 0.0)
    effective = {o: q + p_mimic * q / max(1e-9, 1 - p_mimic) for o, q in p.items()}
    shown_roles = [r for r in view["shown_roles"] if r]
    hidden = len(view["active_roles"]) - len(shown_roles)  # unrevealed prisoners and the discarded role
    hidden_dead = sum(1 for seat in view["dead"] if not view["shown_roles"][seat])
    live_slots = max(hidden - hidden_dead, 1)
    princess = max(view["active_roles"].count("princess") - shown_roles.count("princess"), 0) / live_slots
    jester = max(view["active_roles"].count("jester") - shown_roles.count("jester"), 0) / live_slots
    earned = wage * view["deaths"] + view["chalice_bonus"]
    fatal = earned + 1
    killing = sum(effective.get(o, 0.0) for o in ("hat", "chalice", "cheese"))
    gain = -effective.get("pardon", 0.0) * fatal
    gain += killing * (princess * -fatal + jester * -1 + (1 - princess - jester) * wage)
    gain += effective.get("chalice", 0.0) * (1 - princess - jester)
    gain += effective.get("cheese", 0.0) * jester * (wage + 1)  # the Cheese makes the Jester's death count
    gain += effective.get("doll", 0.0) * wage
    return gain * (1 + effective.get("shield", 0.0))


def known_centre(view: dict[str, Any]) -> str | None:
    """The centre card when the Executioner's view pins it down now: a Mimic's resolution, or a Town Crier or his
    Royal Inspection drawn as the second Scaffold card (nothing moves the objects after it)."""
    if view["centre_shown"]:
        return view["centre_shown"]
    last = view["drawn"][-1] if len(view["drawn"]) == 2 else None
    if last == "town_crier":
        return view["crier"]
    if last == "royal_inspection":
        return next((s["card"] for s in view["you"]["seen"] if s["kind"] == "royal_inspection"), None)
    return None


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
