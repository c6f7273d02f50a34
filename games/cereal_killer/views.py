"""What each seat sees, how a finished game is scored and the facts its achievements are judged on.

Public view (``seat=None``; also the Detective's)::

    {"game": "cereal_killer", "players": 2|3, "roles": ["killer", "detective", ("lola")],
     "boards": {"city": "A"|"B", "suburbs": "A"|"B"|None}, "difficulty": str|None,
     "day": int, "days": int, "phase": "killer"|"lola"|"detective"|"over",
     "waiting": [seat, ...], "pending": None | {"kind": "question"|"sniff", "question": str|None},
     "detective": int|None, "lola": int|None, "witness": int|None,
     "victims": [{"day": int, "space": int}], "arrests_left": int,
     "questions_used": [str], "questions_left": [str],
     "answers": [{"day": int, "question": str, "witness": int, "answer": str}],
     "history": [{"day": int, "detective": int|None, "lola": int|None, "witness": int|None, "misses": [int]}],
     "next_objective": None | {"day": int, "victims": int}, "bone": "sniff"|"bark"|"bite"|None,
     "turn": None | {"seat": int, "role": str, "steps_left": int, "bonus_used": bool, "asked": bool,
                     "ability": str|None},
     "result": None | {"winner": "killer"|"hunters", "reason": str, "by": int|None, "params": {...}},
     "revealed": None | {"killer_space": int|None, "routes": [[int]]}}   # filled only once the game is over

The Killer (seat 0) adds ``killer_space``, ``routes`` (one list per day: start + 3 steps), ``pending_options`` and
``pending_reference`` (the Witness or the sniffed space the pending answer is about, as its prompt said);
Lola (seat 2) adds ``lola_answers`` ([{"day", "ability", "space", "answer", "at"}]; ``at``: her space then).
Pending options are never public: they would tell whether the Killer stands diagonally from the Witness.
"""

from __future__ import annotations

from typing import Any

from games.cereal_killer.models import KILLER, LOLA, QUESTIONS, ROLES, CerealState, waiting_of
from games.core import Outcome
from games.core.controls import cancelled


def build_view(state: CerealState, seat: int | None) -> dict[str, Any]:
    """The JSON-safe view of ``seat`` (``None``: public). Never holds the Killer's space or route for others
    while the game goes on."""
    objective = state.next_objective()
    turn = state.turn
    waiting = waiting_of(state)
    view: dict[str, Any] = {
        "game": "cereal_killer",
        "players": state.players,
        "roles": list(state.seats),
        "boards": {"city": state.city, "suburbs": state.suburbs},
        "difficulty": state.difficulty,
        "day": state.day,
        "days": state.days,
        "phase": state.phase,
        "waiting": [] if waiting is None else list(waiting.seats),
        "pending": None if state.pending is None else {"kind": state.pending.kind,
                                                       "question": state.pending.question},
        "detective": state.detective,
        "lola": state.lola,
        "witness": state.witness,
        "victims": [v.model_dump() for v in state.victims],
        "arrests_left": state.arrests_left,
        "questions_used": list(state.questions_used),
        "questions_left": [q for q in QUESTIONS[state.players] if q not in state.questions_used],
        "answers": [a.model_dump() for a in state.answers],
        "history": [entry.model_dump() for entry in state.log],
        "next_objective": None if objective is None else {"day": objective[0], "victims": objective[1]},
        "bone": state.bone,
        "turn": None if turn is None else {
            "seat": turn.seat, "role": ROLES[turn.seat], "steps_left": turn.steps_left,
            "bonus_used": turn.bonus_used, "asked": turn.asked, "ability": turn.ability},
        "result": None if state.result is None else state.result.model_dump(mode="json"),
        "revealed": None if state.result is None and not cancelled(state) else {
            "killer_space": state.killer, "routes": [list(r) for r in state.routes]},
    }
    if seat == KILLER:
        view |= {"killer_space": state.killer, "routes": [list(r) for r in state.routes],
                 "pending_options": None if state.pending is None else list(state.pending.options),
                 "pending_reference": None if state.pending is None else state.pending.reference}
    elif seat == LOLA:
        view["lola_answers"] = [a.model_dump() for a in state.lola_answers]
    return view


def achievement_facts(state: CerealState) -> dict[int, dict[str, Any]]:
    """The facts of a finished game that its achievements are judged on (``data/achievements.yaml``; README
    "Achievements"), per seat: ``role``, ``won``, ``players``, ``reason`` (how it ended: ``arrested``, ``bitten``,
    ``cornered``...), ``day`` (the day it ended on), ``questions`` (questions the Detective asked), ``rode`` (the
    Detective took a ride), ``sniffed_out`` (a Sniff was answered other than "no") and ``invisible`` (the Killer
    claimed a victim on the House where the Detective stood)."""
    assert state.result is not None
    winners = [KILLER] if state.result.winner == "killer" else [s for s in range(state.players) if s != KILLER]
    shared = {"players": state.players, "reason": state.result.reason, "day": state.day,
              "questions": len(state.questions_used), "rode": state.detective_rode,
              "sniffed_out": state.sniffed_out, "invisible": state.invisible}
    return {seat: {"role": ROLES[seat], "won": seat in winners, **shared} for seat in range(state.players)}


def build_outcome(state: CerealState) -> Outcome | None:
    """``None`` while the game goes on. Winners: ``[0]`` or the hunters ``[1]`` / ``[1, 2]``; reason
    ``cereal_killer.end.<arrested|bitten|cornered|objective_failed|survived|arrests_exhausted>``."""
    result = state.result
    if result is None:
        return None
    seats = range(state.players)
    winners = [KILLER] if result.winner == "killer" else [s for s in seats if s != KILLER]
    return Outcome(winners=winners, reason=f"cereal_killer.end.{result.reason}",
                   params=result.params | {"killer_space": state.killer},
                   scores={seat: 1.0 if seat in winners else 0.0 for seat in seats})
