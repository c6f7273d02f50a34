"""The Cereal Killer engine: the contract (setup, who acts, legal moves, views, the time-out move); what each
action does is :mod:`games.cereal_killer.steps`.

A day: the Killer's secret turn -> (3 players) Lola -> the Detective -> next day (rulebook "Turn", "Turns";
edition rulings: hunters place after the Killer's first turn and act that day; Lola acts before the Detective).
A direction question or a Sniff always waits for the Killer's :class:`ChooseAnswer` (even with a single true
option), so that nobody learns from the wait whether the Killer had a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from games.cereal_killer import hunters, killer, steps
from games.cereal_killer.board import Geometry, geometry
from games.cereal_killer.models import (
    DETECTIVE,
    KILLER,
    QUESTIONS,
    ROLES,
    Arrest,
    Ask,
    Bark,
    Bite,
    CerealAction,
    CerealOptions,
    CerealState,
    ChooseAnswer,
    EndTurn,
    KillerTurn,
    Move,
    PlaceDetective,
    Sniff,
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
        handler = steps.handler_of(new, action)  # (what each action does: games.cereal_killer.steps)
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


ENGINE = CerealKiller()
