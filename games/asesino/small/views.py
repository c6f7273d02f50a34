"""What a player may see of the 2-4 player game.

Public view keys: ``players``, ``turn``, ``waiting`` (``{"seat", "kind", "must_pass"}`` or ``None``), ``columns`` (per
column: ``column``, ``slots`` (each ``{"by", "declared", "face_up", "card"}`` — ``card`` is ``None`` unless the
card is face up or its column revealed), ``sealed``, ``revealed``, ``murder``), ``murders`` (the register:
columns in order), ``hand_sizes``, ``result`` (``{"side", "reason"}`` or ``None``) and ``roles`` (seat ->
identity, only once the game is over).

The private view adds ``seat``, ``identity``, ``hand`` and ``my_cards`` (``{"column", "index", "card"}`` for
the face-down cards this seat played).
"""

from __future__ import annotations

from typing import Any

from games.asesino.small.models import SmallState
from games.core.controls import cancelled


def public_view(state: SmallState, waiting: tuple[int, str] | None, must_pass: bool = False) -> dict[str, Any]:
    columns = []
    for index, column in enumerate(state.columns):
        slots = [{"by": slot.by, "declared": slot.declared, "face_up": slot.face_up,
                  "card": slot.card if slot.face_up or column.revealed else None} for slot in column.slots]
        columns.append({"column": index, "slots": slots, "sealed": column.sealed, "revealed": column.revealed,
                        "murder": column.murder})
    over = state.result is not None or cancelled(state)
    return {
        "players": len(state.seats),
        "turn": state.turn,
        "waiting": None if waiting is None else {"seat": waiting[0], "kind": waiting[1], "must_pass": must_pass},
        "columns": columns,
        "murders": list(state.murders),
        "hand_sizes": [len(player.hand) for player in state.seats],
        "result": None if state.result is None else {"side": state.result.side, "reason": state.result.reason},
        "roles": {str(seat): p.identity for seat, p in enumerate(state.seats)} if over else None,
    }


def private_view(state: SmallState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    me = state.seats[seat]
    mine = [{"column": c, "index": i, "card": slot.card} for c, column in enumerate(state.columns)
            if not column.revealed for i, slot in enumerate(column.slots) if slot.by == seat and not slot.face_up]
    return public | {"seat": seat, "identity": me.identity, "hand": list(me.hand), "my_cards": mine}
