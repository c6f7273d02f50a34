"""What a player may see of the tabletop game.

Public view keys: ``players``, ``first``, ``turn``, ``clockwise`` (``None`` before chosen), ``waiting``
(``{"seat", "kind", "must_pass"}`` or ``None``; ``must_pass``: passing is the only legal move; while the
Prosecutor is asked to accuse, ``{"seat": None, "kind": "effect"}``), ``seats`` (one
dict per seat: ``seat``, ``hand_size``, ``front`` (list of ``{"by", "words"}`` in play order — never the card),
``cards_in_front``, ``sealed``, ``sealing`` (1-based sealing order or ``None``), ``resolved``, ``revealed``
(the shuffled cards, only once resolved), ``murdered``),
``sealed_order``, ``deaths``, ``said`` (``{"seat", "kind", "text"}``), ``resolving`` (``{"seat", "effects"}``
while a destiny's effects run), ``discard_size``, ``result`` (``{"side", "reason"}`` or ``None``) and ``roles``
(seat -> role, only once the game is over).

The private view adds ``seat``, ``role``, ``hand``, ``partner`` (the other evil seat for the Killer and the
Accomplice, else ``None``) and ``my_plays`` (``{"target", "position", "card"}`` for the cards this seat played).
"""

from __future__ import annotations

from typing import Any

from games.asesino.common import side_of
from games.asesino.tabletop.models import TabletopState
from games.core.controls import cancelled


def public_view(state: TabletopState, waiting: tuple[int, str] | None, must_pass: bool = False) -> dict[str, Any]:
    seats = []
    for seat, player in enumerate(state.seats):
        seats.append({
            "seat": seat,
            "hand_size": len(player.hand),
            "front": [{"by": played.by, "words": played.words} for played in player.front],
            "cards_in_front": len(player.front),
            "sealed": player.sealed,
            "sealing": state.sealed_order.index(seat) + 1 if player.sealed else None,
            "resolved": player.resolved,
            "revealed": list(player.revealed) if player.resolved else [],
            "murdered": player.murdered,
        })
    over = state.result is not None or cancelled(state)
    return {
        "players": len(state.seats),
        "first": state.first,
        "turn": state.turn,
        "clockwise": state.clockwise,
        "waiting": _public_waiting(waiting, must_pass),
        "seats": seats,
        "sealed_order": list(state.sealed_order),
        "deaths": list(state.deaths),
        "said": [said.model_dump() for said in state.said],
        "resolving": None if state.resolution is None else {"seat": state.resolution.subject,
                                                             "effects": list(state.resolution.effects)},
        "discard_size": len(state.discard),
        "result": None if state.result is None else {"side": state.result.side, "reason": state.result.reason},
        "roles": {str(seat): p.role for seat, p in enumerate(state.seats)} if over else None,
    }


def _public_waiting(waiting: tuple[int, str] | None, must_pass: bool) -> dict[str, Any] | None:
    """Who the game waits on, for everyone; the Prosecutor's accusation shows only as ``{"seat": None, "kind":
    "effect"}`` (edition ruling: "The public table never says that a Prosecutor is being asked")."""
    if waiting is None:
        return None
    if waiting[1] == "accuse":
        return {"seat": None, "kind": "effect", "must_pass": False}
    return {"seat": waiting[0], "kind": waiting[1], "must_pass": must_pass}


def private_view(state: TabletopState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    me = state.seats[seat]
    partner = None
    if side_of(me.role) == "evil":
        partner = next((other for other, p in enumerate(state.seats)
                        if other != seat and side_of(p.role) == "evil"), None)
    plays = [{"target": target, "position": position, "card": played.card}
             for target, player in enumerate(state.seats)
             for position, played in enumerate(player.front) if played.by == seat]
    return public | {"seat": seat, "role": me.role, "hand": list(me.hand), "partner": partner, "my_plays": plays}
