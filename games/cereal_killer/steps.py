"""What each Cereal Killer action does to the state: the checks the rules make and the effects of an accepted
move (:meth:`games.cereal_killer.engine.CerealKiller._apply` picks the handler with :func:`handler_of` and runs it
on its copy of the state). A handler ``(state, geometry, seat, action, events)`` changes ``state`` in place and
appends the step's events; it raises :class:`~games.core.IllegalAction` (codes on each handler) before it changes
anything.
"""

from __future__ import annotations

from typing import Any

from games.cereal_killer import hunters, killer
from games.cereal_killer.board import Geometry
from games.cereal_killer.models import (
    CALENDAR,
    DETECTIVE,
    DETECTIVE_STEPS,
    KILLER,
    LOLA,
    LOLA_STEPS,
    QUESTIONS,
    ROLES,
    Answer,
    Arrest,
    Ask,
    Bark,
    Bite,
    CerealState,
    ChooseAnswer,
    DayLog,
    EndTurn,
    HunterTurn,
    KillerTurn,
    LolaAnswer,
    Move,
    Pending,
    PlaceDetective,
    Result,
    Sniff,
    Victim,
)
from games.core import Audience, Event, IllegalAction

# ------------------------------------------------------------ dispatch

def handler_of(state: CerealState, action: Any) -> Any:
    """The handler of ``action`` in ``state``'s phase. Raises ``cereal_killer.answer_first`` (action: the Killer's
    answer is due first), ``cereal_killer.no_pending``, ``cereal_killer.wrong_action`` (action: not this phase's)
    and ``cereal_killer.place_first`` (the Detective places before anything else)."""
    expected: dict[type, tuple[str, ...]] = {
        KillerTurn: ("killer",), PlaceDetective: ("detective",), Ask: ("detective",), Arrest: ("detective",),
        Sniff: ("lola",), Bark: ("lola",), Bite: ("lola",), Move: ("lola", "detective"),
        EndTurn: ("lola", "detective"),
    }
    if state.pending is not None:
        if not isinstance(action, ChooseAnswer):
            raise IllegalAction("cereal_killer.answer_first", action=action.type)
    elif isinstance(action, ChooseAnswer):
        raise IllegalAction("cereal_killer.no_pending")
    elif state.phase not in expected[type(action)]:
        raise IllegalAction("cereal_killer.wrong_action", action=action.type)
    elif state.phase == "detective" and (state.turn is None) != isinstance(action, PlaceDetective):
        raise IllegalAction("cereal_killer.place_first" if state.turn is None else "cereal_killer.wrong_action",
                            action=action.type)
    return {
        KillerTurn: killer_turn, ChooseAnswer: choose, PlaceDetective: place,
        Move: move, Ask: ask, Arrest: attempt, Bite: attempt, Sniff: sniff,
        Bark: bark, EndTurn: end_turn,
    }[type(action)]


# ------------------------------------------------------------ the Killer

def killer_turn(s: CerealState, geo: Geometry, seat: int, action: KillerTurn, ev: list[Event]) -> None:
    """Codes: see :func:`games.cereal_killer.killer.check_killer_turn`."""
    route, victim, witness = killer.check_killer_turn(s, geo, action)
    s.log.append(DayLog(day=s.day, detective=s.detective, lola=s.lola, witness=witness))
    s.killer = route[-1]
    s.routes.append(route)
    s.killer_rode = s.killer_rode or killer.rode_transit(geo, route)
    ev.append(Event(key="cereal_killer.route_recorded", audience=Audience.to(KILLER),
                    params={"day": s.day, "route": route, "space": s.killer}))
    ev.append(Event(key="cereal_killer.killer_moved", params={"day": s.day}))
    if victim is not None:
        s.invisible = s.invisible or victim == s.detective
        s.victims.append(Victim(day=s.day, space=victim))
        ev.append(Event(key="cereal_killer.victim", params={"space": victim, "day": s.day,
                                                             "count": len(s.victims)}))
    s.witness = witness
    if witness is not None:
        ev.append(Event(key="cereal_killer.witness_placed", params={"space": witness}))
    needed = CALENDAR[s.players].get(s.day)
    if needed is not None and len(s.victims) < needed:
        _finish(s, ev, "hunters", "objective_failed", None, day=s.day, needed=needed, have=len(s.victims),
                count=len(s.victims))
        return
    if s.players == 3:
        if s.lola is None:
            s.lola = geo.of_kind("F")[0]
            ev.append(Event(key="cereal_killer.lola_placed", params={"space": s.lola}))
        _begin(s, LOLA, ev)
    else:
        _begin(s, DETECTIVE, ev)


def choose(s: CerealState, geo: Geometry, seat: int, action: ChooseAnswer, ev: list[Event]) -> None:
    """Codes: ``bad_answer`` (answer, options)."""
    pending = s.pending
    assert pending is not None
    if action.answer not in pending.options:
        raise IllegalAction("cereal_killer.bad_answer", answer=action.answer, options=", ".join(pending.options))
    s.pending = None
    if pending.kind == "question":
        assert pending.question is not None
        _answer(s, pending.question, action.answer, ev)
    else:
        s.sniffed_out = s.sniffed_out or action.answer != "no"
        s.lola_answers.append(LolaAnswer(day=s.day, ability="sniff", space=pending.reference,
                                         answer=action.answer, at=s.lola))
        ev.append(Event(key="cereal_killer.sniff_answer", audience=Audience.to(LOLA),
                        params={"space": pending.reference, "answer": action.answer}))


# ------------------------------------------------------------ the hunters

def _begin(s: CerealState, seat: int, ev: list[Event]) -> None:
    s.phase = "lola" if seat == LOLA else "detective"
    here = hunters.position(s, seat)
    steps = LOLA_STEPS if seat == LOLA else DETECTIVE_STEPS
    s.turn = None if here is None else HunterTurn(seat=seat, start=here, steps_left=steps)
    ev.append(Event(key="cereal_killer.turn", params={"seat": seat, "role": ROLES[seat], "day": s.day,
                                                      "place": here is None}))


def place(s: CerealState, geo: Geometry, seat: int, action: PlaceDetective, ev: list[Event]) -> None:
    """Codes: ``not_a_space`` (space, last), ``not_a_cafe`` (space)."""
    if not geo.is_space(action.space):
        raise IllegalAction("cereal_killer.not_a_space", space=action.space, last=geo.spaces[-1])
    if geo.kind(action.space) != "C":
        raise IllegalAction("cereal_killer.not_a_cafe", space=action.space)
    s.detective = action.space
    s.turn = HunterTurn(seat=DETECTIVE, start=action.space, steps_left=DETECTIVE_STEPS)
    ev.append(Event(key="cereal_killer.detective_placed", params={"space": action.space}))


def move(s: CerealState, geo: Geometry, seat: int, action: Move, ev: list[Event]) -> None:
    """Codes: see :func:`games.cereal_killer.hunters.check_hunter_path`."""
    assert s.turn is not None
    end, left, bonus, rode = hunters.check_hunter_path(s, geo, s.turn, action.path)
    if seat == DETECTIVE:
        s.detective, s.detective_rode = end, s.detective_rode or rode
    else:
        s.lola = end
    s.turn.steps_left, s.turn.bonus_used = left, s.turn.bonus_used or bonus
    ev.append(Event(key="cereal_killer.moved", params={"seat": seat, "role": ROLES[seat], "path": action.path,
                                                       "space": end, "steps_left": left, "bonus": bonus}))


def ask(s: CerealState, geo: Geometry, seat: int, action: Ask, ev: list[Event]) -> None:
    """Codes: ``no_witness``, ``already_asked``, ``question_unavailable`` (question), ``question_used``
    (question), ``too_far_from_witness`` (witness)."""
    assert s.turn is not None and s.detective is not None
    if s.witness is None:
        raise IllegalAction("cereal_killer.no_witness")
    if s.turn.asked:
        raise IllegalAction("cereal_killer.already_asked")
    if action.question not in QUESTIONS[s.players]:
        raise IllegalAction("cereal_killer.question_unavailable", question=action.question)
    if action.question in s.questions_used:
        raise IllegalAction("cereal_killer.question_used", question=action.question)
    if s.witness not in hunters.reach(geo, s.detective):
        raise IllegalAction("cereal_killer.too_far_from_witness", witness=s.witness)
    s.turn.asked = True
    s.questions_used.append(action.question)
    ev.append(Event(key="cereal_killer.asked", params={"question": action.question, "witness": s.witness}))
    options = hunters.question_options(s, geo, action.question)
    if action.question == "direction":
        _prompt(s, Pending(kind="question", asker=seat, reference=s.witness, options=options,
                           question=action.question), ev)
    else:
        _answer(s, action.question, options[0], ev)


def _answer(s: CerealState, question: str, answer: str, ev: list[Event]) -> None:
    assert s.witness is not None
    s.answers.append(Answer(day=s.day, question=question, witness=s.witness, answer=answer))
    ev.append(Event(key="cereal_killer.answered", params={"question": question, "answer": answer,
                                                          "witness": s.witness}))


def _prompt(s: CerealState, pending: Pending, ev: list[Event]) -> None:
    s.pending = pending
    ev.append(Event(key=f"cereal_killer.prompt.{pending.kind}", audience=Audience.to(KILLER), params={
        "question": pending.question, "reference": pending.reference, "options": list(pending.options)}))


def _use_ability(s: CerealState, geo: Geometry, ability: str, space: int | None) -> None:
    """Codes: ``ability_used``, ``bone`` (ability), ``not_in_reach`` (space)."""
    assert s.turn is not None and s.lola is not None
    if s.turn.ability is not None:
        raise IllegalAction("cereal_killer.ability_used", ability=s.turn.ability)
    if s.bone == ability:
        raise IllegalAction("cereal_killer.bone", ability=ability)
    if space is not None and space not in hunters.reach(geo, s.lola):
        raise IllegalAction("cereal_killer.not_in_reach", space=space)
    s.turn.ability = s.bone = ability


def sniff(s: CerealState, geo: Geometry, seat: int, action: Sniff, ev: list[Event]) -> None:
    _use_ability(s, geo, "sniff", action.space)
    ev.append(Event(key="cereal_killer.sniffed", params={"space": action.space}))
    _prompt(s, Pending(kind="sniff", asker=seat, reference=action.space,
                       options=hunters.sniff_options(s, geo, action.space)), ev)


def bark(s: CerealState, geo: Geometry, seat: int, action: Bark, ev: list[Event]) -> None:
    _use_ability(s, geo, "bark", None)
    answer = hunters.bark_answer(s, geo)
    s.lola_answers.append(LolaAnswer(day=s.day, ability="bark", space=None, answer=answer,
                                     at=s.lola))
    ev.append(Event(key="cereal_killer.barked", params={"space": s.lola}))
    ev.append(Event(key="cereal_killer.bark_answer", audience=Audience.to(LOLA), params={"answer": answer}))


def attempt(s: CerealState, geo: Geometry, seat: int, action: Arrest | Bite, ev: list[Event]) -> None:
    """Arrest or Bite. Codes: ``not_in_reach`` (space) and Lola's ability codes."""
    here = hunters.position(s, seat)
    assert here is not None
    if isinstance(action, Bite):
        _use_ability(s, geo, "bite", action.space)
    elif action.space not in hunters.reach(geo, here):
        raise IllegalAction("cereal_killer.not_in_reach", space=action.space)
    reason = "bitten" if isinstance(action, Bite) else "arrested"
    if action.space == s.killer:
        _finish(s, ev, "hunters", reason, seat, space=action.space)
        return
    s.arrests_left -= 1
    if not s.log or s.log[-1].day != s.day:  # a state built without its history (tests)
        s.log.append(DayLog(day=s.day))
    s.log[-1].misses.append(action.space)
    ev.append(Event(key="cereal_killer.missed", params={"seat": seat, "role": ROLES[seat],
                                                        "space": action.space, "left": s.arrests_left,
                                                        "count": s.arrests_left}))
    if s.arrests_left == 0:
        _finish(s, ev, "killer", "arrests_exhausted", None)
    else:
        end_turn(s, geo, seat, EndTurn(), ev)


def end_turn(s: CerealState, geo: Geometry, seat: int, action: EndTurn, ev: list[Event]) -> None:
    ev.append(Event(key="cereal_killer.turn_ended", params={"seat": seat, "role": ROLES[seat]}))
    if seat == LOLA:
        _begin(s, DETECTIVE, ev)
        return
    s.turn = None
    if s.witness is not None:
        ev.append(Event(key="cereal_killer.witness_left", params={"space": s.witness}))
        s.witness = None
    if s.day == s.days:
        _finish(s, ev, "killer", "survived", None, days=s.days)
        return
    s.day += 1
    s.phase = "killer"
    if killer.is_cornered(s, geo):
        _finish(s, ev, "hunters", "cornered", None, day=s.day)
        return
    objective = s.next_objective()
    params = {"day": s.day, "objective_day": objective and objective[0],
              "objective_victims": objective and objective[1]}
    ev.append(Event(key="cereal_killer.day", params=params))  # (the Killer's turn: no DM, see the README's rulings)


def _finish(s: CerealState, ev: list[Event], winner: str, reason: str, by: int | None,
            **params: Any) -> None:
    s.result = Result(winner=winner, reason=reason, by=by, params=params)  # type: ignore[arg-type]
    s.phase, s.turn, s.pending = "over", None, None
    ev.append(Event(key=f"cereal_killer.end.{reason}", params=params | {
        "winner": winner, "seat": by, "killer_space": s.killer,
        "routes": [list(r) for r in s.routes]}))
