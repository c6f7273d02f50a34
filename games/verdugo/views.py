"""What each seat may see: the edition's §12 visibility matrix.

Public: seating, the Executioner, everyone's Crowns and the Treasury; the active roles and objects; the Scaffold
cards drawn, their choices, who acted and how (positions, never a Peek's content); the Town Crier's centre card;
every executed prisoner's object (and the centre card when a Mimic resolved); the roles a death or Open Trial
revealed. After REVEAL ALL: every role and object, the centre card and the discarded role.

Private to one seat: their own role (any time), their dealt object (only until the first Scaffold card is drawn:
"shown once", see README), and what they were shown privately this round (Peek, Secret Deal, Examination, Spy,
Royal Inspection).
"""

from __future__ import annotations

from typing import Any

from games.core.controls import cancelled
from games.verdugo.execution import min_executions
from games.verdugo.models import VerdugoState
from games.verdugo.treasury import treasury


def build_view(s: VerdugoState, seat: int | None) -> dict[str, Any]:
    """The JSON-safe view of ``seat`` (``None``: public)."""
    r = s.round
    view: dict[str, Any] = {
        "players": len(s.seats), "match": s.options.match, "cheese_variant": s.options.cheese_variant,
        "phase": s.phase, "round": r.number, "rounds_played": s.rounds_played, "executioner": r.executioner,
        "served": list(s.served), "crowns": list(s.crowns), "treasury": treasury(s), "end_reason": s.end_reason,
        "round_phase": r.phase, "active_roles": list(r.active_roles), "active_objects": list(r.active_objects),
        "set_aside": list(r.set_aside), "drawn": list(r.drawn), "rules": list(r.rules),
        "pending": r.pending.model_dump(mode="json") if r.pending else None, "acted": list(r.acted),
        "actor": r.actor, "extra": r.extra, "executed": list(r.executed), "dead": list(r.dead),
        "escaped": list(r.escaped), "own_executions": r.own_executions, "minimum": min_executions(r),
        "deaths": r.deaths, "chalice_bonus": r.chalice_bonus, "shield_holder": r.shield_holder,
        "shield_candidates": list(r.shield_candidates), "shown_objects": list(r.shown_objects),
        "shown_roles": list(r.shown_roles), "centre_shown": r.centre_shown, "crier": r.crier, "ending": r.ending,
        "reveal": None,
    }
    if r.phase == "over" or cancelled(s):
        view["reveal"] = {"roles": list(r.roles), "objects": list(r.objects), "centre": r.centre,
                          "discarded_role": r.discarded_role,
                          "deltas": [c - b for c, b in zip(s.crowns, r.start_crowns, strict=True)]}
    if seat is None or not 0 <= seat < len(s.seats):
        return view
    mine = r.seen[seat] if r.seen else []
    view["you"] = {
        "seat": seat,
        "role": r.roles[seat] if r.roles else None,
        "dealt": next((x.card for x in mine if x.kind == "dealt"), None) if not r.drawn else None,
        "seen": [x.model_dump(mode="json") for x in mine if x.kind != "dealt"],
    }
    return view
