"""The Cereal Killer engine: day structure, phases, and every action's effect.

A day: the Killer's secret turn -> (3 players) Lola -> the Detective -> next day (rulebook "Turn", "Turns";
edition rulings: hunters place after the Killer's first turn and act that day; Lola acts before the Detective).
A direction question or a Sniff always waits for the Killer's :class:`ChooseAnswer` (even with a single true
option), so that nobody learns from the wait whether the Killer had a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from games.cereal_killer import hunters, killer
from games.cereal_killer.board import Geometry, geometry
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
    CerealAction,
    CerealOptions,
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
    waiting_of,
)
from games.cereal_killer.views import achievement_facts, build_outcome, build_view
from games.core import Audience, Engine, Event, Features, IllegalAction, ModeInfo, Outcome, SeatInfo, Step, Waiting
from games.core.achievements import Moment

_PUBLIC = Audience.public()


def geo_of(state: CerealState) -> Geometry:
    return geometry(state.city, state.suburbs)


class CerealKiller(Engine[CerealState]):
    """One engine for 2 and 3 players; the seat count picks the rules (seat 2 = Lola)."""

    game: ClassVar[str] = "cereal_killer"
    mode: ClassVar[ModeInfo] = ModeInfo(id="classic", min_players=2, max_players=3)
    State = CerealState
    Options = CerealOptions
    Action: ClassVar[Any] = CerealAction
    features: ClassVar[Features] = Features(timeouts=True, ai=True)

    # ------------------------------------------------------------ contract

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> CerealState:
        """Raises ``core.bad_player_count`` unless 2 or 3 seats."""
        assert isinstance(options, CerealOptions)
        players = len(seats)
        if players not in (2, 3):
            raise IllegalAction("core.bad_player_count", count=players)
        city, suburbs = options.boards(players)
        return CerealState(seed=seed, players=players, seats=list(ROLES[:players]), city=city, suburbs=suburbs,
                           difficulty=options.difficulty if players == 3 else None)

    def intro(self, state: CerealState) -> list[Event]:
        objective = state.next_objective()
        if state.suburbs is None:
            events = [Event(key="cereal_killer.started.city", params={
                "players": state.players, "city": state.city, "days": state.days})]
        else:
            events = [Event(key="cereal_killer.started.suburbs", params={
                "players": state.players, "city": state.city, "suburbs": state.suburbs,
                "difficulty": state.difficulty, "days": state.days})]
        events += [Event(key=f"cereal_killer.role.{role}", audience=Audience.to(seat))
                   for seat, role in enumerate(state.seats)]
        events.append(Event(key="cereal_killer.prompt.first_route", audience=Audience.to(KILLER),
                            params={"day": 1, "objective_day": objective and objective[0],
                                    "objective_victims": objective and objective[1]}))
        return events

    def waiting(self, state: CerealState) -> Waiting | None:
        return waiting_of(state)

    def legal_actions(self, state: CerealState, seat: int) -> list[Any]:
        if seat not in self.to_act(state):
            return []
        geo = geo_of(state)
        if state.pending is not None:
            return [ChooseAnswer(answer=option) for option in state.pending.options]
        if state.phase == "killer":
            return list(killer.killer_turns(state, geo))
        if state.turn is None:
            return [PlaceDetective(space=s) for s in geo.of_kind("C")]
        turn, here = state.turn, hunters.position(state, seat)
        assert here is not None
        out: list[Any] = [EndTurn()]
        out += [Move(path=[s]) for s in hunters.next_steps(state, geo, turn)]
        if seat == DETECTIVE:
            if state.witness is not None and not turn.asked and state.witness in hunters.reach(geo, here):
                out += [Ask(question=q) for q in QUESTIONS[state.players] if q not in state.questions_used]
            out += [Arrest(space=s) for s in hunters.reach(geo, here)]
        elif turn.ability is None:
            if state.bone != "sniff":
                out += [Sniff(space=s) for s in hunters.reach(geo, here)]
            if state.bone != "bark":
                out.append(Bark())
            if state.bone != "bite":
                out += [Bite(space=s) for s in hunters.reach(geo, here)]
        return out

    def route_refusal(self, state: CerealState, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not send the Killer's route now, ``None`` when they may (rulebook "Turn": the Killer
        moves first each day, in secret; a direction question or Sniff is answered before anything else):
        ``core.game_over``, ``cereal_killer.route.not_killer`` (another seat), ``cereal_killer.answer_first`` (the
        hunters' question waits for the Killer's answer), ``cereal_killer.route.not_now`` (the hunters are
        playing). The adapter asks before it takes a route by DM or modal; :meth:`apply` refuses the same."""
        if state.result is not None:
            return IllegalAction("core.game_over")
        if seat != KILLER:
            return IllegalAction("cereal_killer.route.not_killer")
        if state.pending is not None:
            return IllegalAction("cereal_killer.answer_first", action="killer_turn")
        if state.phase != "killer":
            return IllegalAction("cereal_killer.route.not_now")
        return None

    def check_actor(self, state: CerealState, seat: int, action: Any = None) -> None:
        """The contract's check (:meth:`Engine.check_actor`); a route says why it cannot be sent now
        (:meth:`route_refusal`)."""
        if isinstance(action, KillerTurn):
            refusal = self.route_refusal(state, seat)
            if refusal is not None:
                raise refusal
        super().check_actor(state, seat, action)

    def _apply(self, new: CerealState, seat: int, action: Any) -> Step:
        """Raises ``cereal_killer.wrong_action`` (action) and the rule codes documented on each handler (game over
        and the turn are the contract's, :meth:`Engine.apply`)."""
        new.actions += 1
        events: list[Event] = []
        handler = self._handler(new, action)
        handler(new, geo_of(new), seat, action, events)
        return Step(state=new, events=events)

    def view(self, state: CerealState, seat: int | None) -> dict[str, Any]:
        """See :mod:`games.cereal_killer.views`; every view also carries ``hunter_moves``: the acting hunter's legal
        moves grouped for menus (``None`` while the Killer moves or answers). They depend only on public pieces
        (the hunters, the Witness, the Bone, the questions used), never on where the Killer is."""
        return build_view(state, seat) | {"hunter_moves": self.hunter_moves(state)}

    def hunter_moves(self, state: CerealState) -> dict[str, Any] | None:
        """``{"place"|"step"|"arrest"|"sniff"|"bite": [space], "ask": [question], "bark"|"end": bool}`` for the
        hunter whose turn it is, from :meth:`legal_actions`; ``None`` when no hunter is to act."""
        if state.result is not None or state.pending is not None or state.phase == "killer":
            return None
        (seat,) = self.to_act(state)
        options: dict[str, Any] = {"place": [], "step": [], "ask": [], "arrest": [], "sniff": [], "bite": [],
                                   "bark": False, "end": False}
        for action in self.legal_actions(state, seat):
            if isinstance(action, PlaceDetective):
                options["place"].append(action.space)
            elif isinstance(action, Move):
                options["step"].append(action.path[0])
            elif isinstance(action, Ask):
                options["ask"].append(action.question)
            elif isinstance(action, Arrest | Sniff | Bite):
                options[action.type].append(action.space)
            elif isinstance(action, Bark | EndTurn):
                options["bark" if isinstance(action, Bark) else "end"] = True
        return options

    def outcome(self, state: CerealState) -> Outcome | None:
        return build_outcome(state)

    def facts(self, final: CerealState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.cereal_killer.views.achievement_facts` (the final state says it all)."""
        return achievement_facts(final)

    def timeout_action(self, state: CerealState) -> tuple[int, Any] | None:
        """The seat whose turn timer runs out (the Killer for a pending answer or its route, else the hunter to
        act; ``None`` once the game is over), with the engine's fallback (its first legal move, ``EndTurn`` for a
        hunter's turn): the bot plays the seat's policy from its view (:func:`games.core.ai.timeout_move`), so an
        absent Killer never stalls the game (issue 9)."""
        if state.result is not None:
            return None
        seat = KILLER if state.pending is not None or state.phase == "killer" else self.to_act(state)[0]
        if state.turn is not None and seat != KILLER:
            return seat, EndTurn()
        return seat, self.legal_actions(state, seat)[0]

    # ------------------------------------------------------------ dispatch

    def _handler(self, state: CerealState, action: Any) -> Any:
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
            KillerTurn: self._killer_turn, ChooseAnswer: self._choose, PlaceDetective: self._place,
            Move: self._move, Ask: self._ask, Arrest: self._attempt, Bite: self._attempt, Sniff: self._sniff,
            Bark: self._bark, EndTurn: self._end_turn,
        }[type(action)]

    # ------------------------------------------------------------ the Killer

    def _killer_turn(self, s: CerealState, geo: Geometry, seat: int, action: KillerTurn, ev: list[Event]) -> None:
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
            self._finish(s, ev, "hunters", "objective_failed", None, day=s.day, needed=needed, have=len(s.victims),
                         count=len(s.victims))
            return
        if s.players == 3:
            if s.lola is None:
                s.lola = geo.of_kind("F")[0]
                ev.append(Event(key="cereal_killer.lola_placed", params={"space": s.lola}))
            self._begin(s, LOLA, ev)
        else:
            self._begin(s, DETECTIVE, ev)

    def _choose(self, s: CerealState, geo: Geometry, seat: int, action: ChooseAnswer, ev: list[Event]) -> None:
        """Codes: ``bad_answer`` (answer, options)."""
        pending = s.pending
        assert pending is not None
        if action.answer not in pending.options:
            raise IllegalAction("cereal_killer.bad_answer", answer=action.answer, options=", ".join(pending.options))
        s.pending = None
        if pending.kind == "question":
            assert pending.question is not None
            self._answer(s, pending.question, action.answer, ev)
        else:
            s.sniffed_out = s.sniffed_out or action.answer != "no"
            s.lola_answers.append(LolaAnswer(day=s.day, ability="sniff", space=pending.reference,
                                             answer=action.answer, at=s.lola))
            ev.append(Event(key="cereal_killer.sniff_answer", audience=Audience.to(LOLA),
                            params={"space": pending.reference, "answer": action.answer}))

    # ------------------------------------------------------------ the hunters

    def _begin(self, s: CerealState, seat: int, ev: list[Event]) -> None:
        s.phase = "lola" if seat == LOLA else "detective"
        here = hunters.position(s, seat)
        steps = LOLA_STEPS if seat == LOLA else DETECTIVE_STEPS
        s.turn = None if here is None else HunterTurn(seat=seat, start=here, steps_left=steps)
        ev.append(Event(key="cereal_killer.turn", params={"seat": seat, "role": ROLES[seat], "day": s.day,
                                                          "place": here is None}))

    def _place(self, s: CerealState, geo: Geometry, seat: int, action: PlaceDetective, ev: list[Event]) -> None:
        """Codes: ``not_a_space`` (space, last), ``not_a_cafe`` (space)."""
        if not geo.is_space(action.space):
            raise IllegalAction("cereal_killer.not_a_space", space=action.space, last=geo.spaces[-1])
        if geo.kind(action.space) != "C":
            raise IllegalAction("cereal_killer.not_a_cafe", space=action.space)
        s.detective = action.space
        s.turn = HunterTurn(seat=DETECTIVE, start=action.space, steps_left=DETECTIVE_STEPS)
        ev.append(Event(key="cereal_killer.detective_placed", params={"space": action.space}))

    def _move(self, s: CerealState, geo: Geometry, seat: int, action: Move, ev: list[Event]) -> None:
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

    def _ask(self, s: CerealState, geo: Geometry, seat: int, action: Ask, ev: list[Event]) -> None:
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
            self._prompt(s, Pending(kind="question", asker=seat, reference=s.witness, options=options,
                                    question=action.question), ev)
        else:
            self._answer(s, action.question, options[0], ev)

    def _answer(self, s: CerealState, question: str, answer: str, ev: list[Event]) -> None:
        assert s.witness is not None
        s.answers.append(Answer(day=s.day, question=question, witness=s.witness, answer=answer))
        ev.append(Event(key="cereal_killer.answered", params={"question": question, "answer": answer,
                                                              "witness": s.witness}))

    def _prompt(self, s: CerealState, pending: Pending, ev: list[Event]) -> None:
        s.pending = pending
        ev.append(Event(key=f"cereal_killer.prompt.{pending.kind}", audience=Audience.to(KILLER), params={
            "question": pending.question, "reference": pending.reference, "options": list(pending.options)}))

    def _use_ability(self, s: CerealState, geo: Geometry, ability: str, space: int | None) -> None:
        """Codes: ``ability_used``, ``bone`` (ability), ``not_in_reach`` (space)."""
        assert s.turn is not None and s.lola is not None
        if s.turn.ability is not None:
            raise IllegalAction("cereal_killer.ability_used", ability=s.turn.ability)
        if s.bone == ability:
            raise IllegalAction("cereal_killer.bone", ability=ability)
        if space is not None and space not in hunters.reach(geo, s.lola):
            raise IllegalAction("cereal_killer.not_in_reach", space=space)
        s.turn.ability = s.bone = ability

    def _sniff(self, s: CerealState, geo: Geometry, seat: int, action: Sniff, ev: list[Event]) -> None:
        self._use_ability(s, geo, "sniff", action.space)
        ev.append(Event(key="cereal_killer.sniffed", params={"space": action.space}))
        self._prompt(s, Pending(kind="sniff", asker=seat, reference=action.space,
                                options=hunters.sniff_options(s, geo, action.space)), ev)

    def _bark(self, s: CerealState, geo: Geometry, seat: int, action: Bark, ev: list[Event]) -> None:
        self._use_ability(s, geo, "bark", None)
        answer = hunters.bark_answer(s, geo)
        s.lola_answers.append(LolaAnswer(day=s.day, ability="bark", space=None, answer=answer,
                                         at=s.lola))
        ev.append(Event(key="cereal_killer.barked", params={"space": s.lola}))
        ev.append(Event(key="cereal_killer.bark_answer", audience=Audience.to(LOLA), params={"answer": answer}))

    def _attempt(self, s: CerealState, geo: Geometry, seat: int, action: Arrest | Bite, ev: list[Event]) -> None:
        """Arrest or Bite. Codes: ``not_in_reach`` (space) and Lola's ability codes."""
        here = hunters.position(s, seat)
        assert here is not None
        if isinstance(action, Bite):
            self._use_ability(s, geo, "bite", action.space)
        elif action.space not in hunters.reach(geo, here):
            raise IllegalAction("cereal_killer.not_in_reach", space=action.space)
        reason = "bitten" if isinstance(action, Bite) else "arrested"
        if action.space == s.killer:
            self._finish(s, ev, "hunters", reason, seat, space=action.space)
            return
        s.arrests_left -= 1
        if not s.log or s.log[-1].day != s.day:  # a state built without its history (tests)
            s.log.append(DayLog(day=s.day))
        s.log[-1].misses.append(action.space)
        ev.append(Event(key="cereal_killer.missed", params={"seat": seat, "role": ROLES[seat],
                                                            "space": action.space, "left": s.arrests_left,
                                                            "count": s.arrests_left}))
        if s.arrests_left == 0:
            self._finish(s, ev, "killer", "arrests_exhausted", None)
        else:
            self._end_turn(s, geo, seat, EndTurn(), ev)

    def _end_turn(self, s: CerealState, geo: Geometry, seat: int, action: EndTurn, ev: list[Event]) -> None:
        ev.append(Event(key="cereal_killer.turn_ended", params={"seat": seat, "role": ROLES[seat]}))
        if seat == LOLA:
            self._begin(s, DETECTIVE, ev)
            return
        s.turn = None
        if s.witness is not None:
            ev.append(Event(key="cereal_killer.witness_left", params={"space": s.witness}))
            s.witness = None
        if s.day == s.days:
            self._finish(s, ev, "killer", "survived", None, days=s.days)
            return
        s.day += 1
        s.phase = "killer"
        if killer.is_cornered(s, geo):
            self._finish(s, ev, "hunters", "cornered", None, day=s.day)
            return
        objective = s.next_objective()
        params = {"day": s.day, "objective_day": objective and objective[0],
                  "objective_victims": objective and objective[1]}
        ev.append(Event(key="cereal_killer.day", params=params))
        ev.append(Event(key="cereal_killer.prompt.route", audience=Audience.to(KILLER),
                        params=params | {"space": s.killer, "route": list(s.routes[-1]) if s.routes else []}))

    def _finish(self, s: CerealState, ev: list[Event], winner: str, reason: str, by: int | None,
                **params: Any) -> None:
        s.result = Result(winner=winner, reason=reason, by=by, params=params)  # type: ignore[arg-type]
        s.phase, s.turn, s.pending = "over", None, None
        ev.append(Event(key=f"cereal_killer.end.{reason}", params=params | {
            "winner": winner, "seat": by, "killer_space": s.killer,
            "routes": [list(r) for r in s.routes]}))


ENGINE = CerealKiller()
