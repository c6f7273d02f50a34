"""What a seat may see (``seat=None``: the public table). Hands, face-down Surprises and sealed window answers
never appear in the public view; a seat sees its own hand and the Surprises it placed or peeked (LK-11)."""

from __future__ import annotations

from typing import Any

from games.lets_kill import rules
from games.lets_kill.models import LetsKillState


def _pending(state: LetsKillState) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    public: dict[str, Any] = {"kind": pending.kind, "seat": pending.seat}
    if pending.kind == "place":
        public |= {"victim": pending.victim, "options": list(pending.options)}
    if pending.kind == "window" and state.window is not None:
        window = state.window
        public |= {"window": window.type, "waiting": [s for s in window.eligible if s not in window.answers],
                   "victim": window.victim, "card": window.card, "incident": window.incident}
    if pending.kind == "play":
        public |= {"extra": pending.extra}
    return public


def build_view(state: LetsKillState, seat: int | None) -> dict[str, Any]:
    """JSON-safe. Public keys: ``active``, ``turn``, ``decks`` (sizes, the discard piles' included), ``discard``
    (the Let's Kill discard pile's face-up cards, top card first: README ruling 6; the face-down ones only count
    in ``decks``), ``locations`` (card, victims with a ``surprise`` flag), ``town``, ``incidents`` (per
    seat, with scores), ``scores``, ``hand_sizes``, ``skips``, ``declared_by``, ``pending``, ``shootout``,
    ``whacking``, ``ended``. A seat's view adds ``hand`` and ``known`` (victim -> Surprise it knows)."""

    def victim(v: str) -> dict[str, Any]:
        return {"card": v, "surprise": v in state.surprises}

    duel = state.shootout
    whacking = state.whacking
    public: dict[str, Any] = {
        "active": state.active, "turn": state.turn, "players": len(state.seats),
        "decks": {"lets_kill": len(state.lk_deck), "victims": len(state.victims_deck),
                  "lets_kill_discard": len(state.lk_discard), "victims_discard": len(state.victims_discard)},
        "discard": [c for c in reversed(state.lk_discard) if c not in state.face_down],
        "locations": [{"card": loc.card, "victims": [victim(v) for v in loc.victims]} for loc in state.locations],
        "town": [victim(v) for v in state.town],
        "incidents": [{"id": inc.id, "owner": inc.owner, "weapon": inc.weapon, "victims": list(inc.victims),
                       "surprises": dict(inc.surprises), "location": inc.location, "media": inc.media,
                       "attached": list(inc.attached), "modifiers": list(inc.modifiers),
                       "score": rules.incident_score(inc)} for inc in state.incidents],
        "scores": [rules.score(state, s) for s in range(len(state.seats))],
        "hand_sizes": [len(h) for h in state.hands],
        "skips": list(state.skips),
        "declared_by": state.declared_by,
        "pending": _pending(state),
        "shootout": None if duel is None else {
            "target": duel.target, "target_total": duel.target_total, "posse_total": duel.posse_total,
            "phase": duel.phase, "posse": list(duel.posse), "rounds": duel.rounds},
        "whacking": None if whacking is None else {
            "whacker": whacking.whacker, "weapon": whacking.weapon, "targets": list(whacking.targets),
            "location": whacking.location, "revealed": dict(whacking.revealed)},
        "ended": state.ended,
    }
    if seat is None:
        return public
    known = {v: s for v, s in state.surprises.items() if s in state.known[seat]}
    return public | {"seat": seat, "hand": list(state.hands[seat]), "known": known}
