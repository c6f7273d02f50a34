"""The Verdugo engine: a match of rounds (edition §4, §7, §9.4-9.5) on the engine contract.

Phases of a round: ``set_aside`` (safe-object loop) -> ``draw`` (Scaffold card 1) -> [``choose``] -> ``call`` /
``act`` until every prisoner acted -> ``draw`` (card 2) -> [``choose``] -> ``execute`` / ``shield`` -> ``over``;
then the match's ``successor`` phase, or ``over``. Every decision has one awaited seat and a
:meth:`Verdugo.timeout_action`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel

from games.core import (
    Engine,
    Event,
    Features,
    IllegalAction,
    ModeInfo,
    Outcome,
    SeatInfo,
    Step,
    Waiting,
    rng_for,
)
from games.core.achievements import Moment
from games.verdugo import actions, execution, setup
from games.verdugo.achievements import match_facts
from games.verdugo.cards import rewards
from games.verdugo.models import (
    CENTRE,
    Call,
    ChooseDirection,
    ChoosePair,
    ChoosePrisoner,
    Chop,
    Draw,
    EndMatch,
    Forfeit,
    Peek,
    RoundState,
    SetAside,
    Stop,
    Successor,
    Swap,
    VerdugoAction,
    VerdugoOptions,
    VerdugoState,
)
from games.verdugo.treasury import TreasuryEmpty
from games.verdugo.views import build_view

MIN_PLAYERS, MAX_PLAYERS = 4, 8


class Verdugo(Engine[VerdugoState]):
    """Verdugo for 4-8 players, Executioner included (edition §2)."""

    game: ClassVar[str] = "verdugo"
    mode: ClassVar[ModeInfo] = ModeInfo(id="classic", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS)
    State = VerdugoState
    Options = VerdugoOptions
    Action: ClassVar[Any] = VerdugoAction
    #: §9.4: only the host ends an open match (as ``HOST_SEAT``; the dead and the waited-on are the contract's)
    features: ClassVar[Features] = Features(timeouts=True, ai=True, host_actions=frozenset({"end_match"}),
                                            host_only="verdugo.host_only")

    # ------------------------------------------------------------ contract

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> VerdugoState:
        """Every player gets 5 Crowns; the first Executioner is ``options.first_executioner`` or random (V-35).
        Raises ``core.bad_player_count`` outside 4-8 and ``verdugo.bad_seat`` for a first Executioner not seated."""
        assert isinstance(options, VerdugoOptions)
        n = len(seats)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise IllegalAction("core.bad_player_count", count=n)
        first = options.first_executioner
        if first is None:
            first = rng_for(seed, "first_executioner").randrange(n)
        elif first >= n:
            raise IllegalAction("verdugo.bad_seat", number=first)
        names = [info.names[0] if info.names else f"#{i + 1}" for i, info in enumerate(seats)]
        placeholder = RoundState(number=0, executioner=first, phase="over", object_deck=[], active_roles=[],
                                 active_objects=[], scaffold_deck=[])
        state = VerdugoState(seed=seed, seats=names, options=options, crowns=[rewards().start_crowns] * n,
                             round=placeholder)
        setup.start_round(state, first, [])
        return state

    def intro(self, state: VerdugoState) -> list[Event]:
        """The first round's opening: the active cards and each prisoner's role and dealt object by DM."""
        events: list[Event] = [Event(key="verdugo.match.started", params={
            "players": len(state.seats), "match": state.options.match, "seat": state.round.executioner,
            "cheese_variant": state.options.cheese_variant})]
        if state.rounds_played == 0 and state.round.number == 1:
            # the first round's opening events, made again from the seed (setup has no event list to return)
            setup.start_round(self.copy_state(state), state.round.executioner, events)
        return events

    def waiting(self, state: VerdugoState) -> Waiting | None:
        """One seat at a time, on its turn; ``kind`` is the decision: the round phase (``set_aside``, ``draw``,
        ``choose``, ``call``, ``act``, ``execute``, ``shield``) or ``successor``."""
        seat = self.awaited(state)
        if seat is None:
            return None
        return Waiting.turn(seat, "successor" if state.phase == "successor" else state.round.phase)

    def awaited(self, state: VerdugoState) -> int | None:
        """The one seat the match waits on, or ``None`` when it is over."""
        r = state.round
        if state.phase == "over":
            return None
        if state.phase == "successor" or r.phase in ("set_aside", "draw", "call", "execute"):
            return r.executioner
        if r.phase == "choose":
            assert r.pending is not None
            return r.pending.chooser
        if r.phase == "act":
            return r.actor
        if r.phase == "shield":
            return r.shield_holder
        return None

    def legal_actions(self, state: VerdugoState, seat: int) -> list[Any]:
        if seat != self.awaited(state):
            return []
        r = state.round
        if state.phase == "successor":
            return [Successor(seat=s) for s in self.successors(state)]
        if r.phase == "set_aside":
            return [SetAside(index=i) for i in setup.set_aside_allowed(r)]
        if r.phase == "draw":
            return [Draw()]
        if r.phase == "call":
            return [Call(seat=p) for p in r.prisoners() if p not in r.acted]
        if r.phase == "act":
            return list(_act_moves((*r.prisoners(), CENTRE)))
        if r.phase == "choose":
            return actions.choices(r)
        if r.phase == "execute":
            stop: list[Any] = [Stop()] if execution.may_stop(r) else []
            return [Chop(seat=p) for p in r.eligible()] + stop
        if r.phase == "shield":
            return [Chop(seat=p) for p in r.shield_candidates]
        return []

    def successors(self, state: VerdugoState) -> list[int]:
        """Who the outgoing Executioner may name (§9.5, V-34): anyone else; in ``tour`` only who has not served."""
        out = [s for s in range(len(state.seats)) if s != state.round.executioner]
        if state.options.match == "tour":
            out = [s for s in out if s not in state.served]
        return out

    def refusal(self, state: VerdugoState, seat: int) -> IllegalAction:
        """§7.1 (V-36): a dead prisoner is told so (``verdugo.dead``) until the round ends; anyone else not
        awaited gets ``core.not_your_turn`` naming who is."""
        if state.phase == "round" and seat in state.round.dead:
            return IllegalAction("verdugo.dead")
        return IllegalAction("core.not_your_turn", seat=self.awaited(state))

    def _apply(self, s: VerdugoState, seat: int, action: Any) -> Step:
        """Raises ``verdugo.not_open`` (EndMatch), ``verdugo.wrong_action`` and the codes of each handler (game
        over, the host's action, the dead and the turn are the contract's, :meth:`Engine.apply`). Nothing changes
        when it raises."""
        if isinstance(action, EndMatch):
            return self._end_match(s)
        s.actions += 1
        ev: list[Event] = []
        try:
            self._dispatch(s, seat, action, ev)
        except TreasuryEmpty:
            self._finish(s, "treasury_empty", ev)
        return Step(state=s, events=ev)

    def view(self, state: VerdugoState, seat: int | None) -> dict[str, Any]:
        """See :func:`games.verdugo.views.build_view` (the §12 visibility matrix), plus ``awaiting`` (the seat the
        match waits on), ``menu`` (that seat's legal actions as JSON) and ``may_stop``."""
        out = build_view(state, seat)
        awaited = self.awaited(state)
        out["awaiting"] = awaited
        # the awaited seat's choices depend only on public facts (phase, who acted, who is dead or escaped)
        out["menu"] = [] if awaited is None else [self.dump_action(a) for a in self.legal_actions(state, awaited)]
        out["may_stop"] = state.phase == "round" and state.round.phase == "execute" and execution.may_stop(
            state.round)
        return out

    def outcome(self, state: VerdugoState) -> Outcome | None:
        """At match end: every player with the most Crowns wins (R27); scores are the Crowns held."""
        if state.phase != "over":
            return None
        best = max(state.crowns)
        return Outcome(winners=[s for s, c in enumerate(state.crowns) if c == best],
                       reason=f"verdugo.over.{state.end_reason}", params={"crowns": best},
                       scores={s: float(c) for s, c in enumerate(state.crowns)})

    def facts(self, final: VerdugoState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.verdugo.achievements.match_facts`."""
        return match_facts(final, moments, self.outcome(final))

    def timeout_action(self, state: VerdugoState) -> tuple[int, Any] | None:
        """The awaited seat whose time runs out, with the engine's fallback (a prisoner's ``Forfeit``, else the
        first legal move): the bot plays the seat's policy from its view (:func:`games.core.ai.timeout_move`;
        ruling B-1 in the README: the Executioner stops or chops as his computer player would, V-39 as revised)."""
        seat = self.awaited(state)
        if seat is None:
            return None
        if state.phase == "round" and state.round.phase == "act":
            return seat, Forfeit()
        return seat, self.legal_actions(state, seat)[0]

    # ------------------------------------------------------------ flow

    def _dispatch(self, s: VerdugoState, seat: int, action: Any, ev: list[Event]) -> None:
        r = s.round
        phase = "successor" if s.phase == "successor" else r.phase
        if isinstance(action, Chop):
            if phase not in ("execute", "shield"):
                raise IllegalAction("verdugo.wrong_action", action=action.type)
        elif _PHASE_OF.get(type(action)) != phase:
            raise IllegalAction("verdugo.wrong_action", action=action.type)
        handlers = {SetAside: actions.set_aside, Draw: actions.draw, Call: actions.call, Swap: actions.act,
                    Peek: actions.act, Forfeit: actions.act, ChoosePrisoner: actions.choose,
                    ChoosePair: actions.choose, ChooseDirection: actions.choose, Chop: self._chop, Stop: self._stop,
                    Successor: self._successor}
        handlers[type(action)](s, seat, action, ev)

    def _chop(self, s: VerdugoState, seat: int, action: Chop, ev: list[Event]) -> None:
        """Codes: ``verdugo.not_eligible`` (seat), ``verdugo.not_a_candidate`` (seat)."""
        r = s.round
        if r.phase == "shield":
            if action.seat not in r.shield_candidates:
                raise IllegalAction("verdugo.not_a_candidate", seat=action.seat)
            r.phase, r.shield_holder, r.shield_candidates = "execute", None, []
        else:
            if action.seat not in r.eligible():
                raise IllegalAction("verdugo.not_eligible", seat=action.seat)
            r.own_executions += 1
        result = execution.execute(s, action.seat, seat, ev)
        if result == execution.SABOTEUR_WIN:
            r.phase = "execute"
            execution.end_saboteur(s, ev)
            self._end_round(s, ev)
        elif r.phase == "execute" and not r.eligible():
            execution.end_safe(s, ev)
            self._end_round(s, ev)

    def _stop(self, s: VerdugoState, seat: int, action: Stop, ev: list[Event]) -> None:
        """Codes: ``verdugo.minimum`` (minimum, done)."""
        r = s.round
        if not execution.may_stop(r):
            raise IllegalAction("verdugo.minimum", minimum=execution.min_executions(r), done=r.own_executions)
        ev.append(Event(key="verdugo.stopped", params={"seat": seat, "executions": r.own_executions}))
        execution.end_safe(s, ev)
        self._end_round(s, ev)

    def _end_round(self, s: VerdugoState, ev: list[Event]) -> None:
        execution.reveal_all(s, ev)
        s.rounds_played += 1
        s.served.append(s.round.executioner)
        if s.options.match == "tour" and not self.successors(s):
            self._finish(s, "tour_complete", ev)
        else:
            s.phase = "successor"
            ev.append(Event(key="verdugo.successor.choose", params={"seat": s.round.executioner}))

    def _successor(self, s: VerdugoState, seat: int, action: Successor, ev: list[Event]) -> None:
        """Codes: ``verdugo.bad_successor`` (seat)."""
        if action.seat not in self.successors(s):
            raise IllegalAction("verdugo.bad_successor", seat=action.seat)
        ev.append(Event(key="verdugo.successor.named", params={"seat": seat, "next_seat": action.seat}))
        setup.start_round(s, action.seat, ev)

    def _end_match(self, s: VerdugoState) -> Step:
        """Codes: ``verdugo.not_open`` (only ``open`` matches, between rounds)."""
        if s.options.match != "open" or s.phase != "successor":
            raise IllegalAction("verdugo.not_open")
        s.actions += 1
        ev: list[Event] = []
        self._finish(s, "host_ended", ev)
        return Step(state=s, events=ev)

    def _finish(self, s: VerdugoState, reason: str, ev: list[Event]) -> None:
        if s.round.phase != "over":
            execution.reveal_all(s, ev)
        s.phase, s.end_reason = "over", reason  # type: ignore[assignment]
        best = max(s.crowns)
        ev.append(Event(key=f"verdugo.over.{reason}", params={
            "crowns": best, "winner_seats": [i for i, c in enumerate(s.crowns) if c == best]}))


ENGINE = Verdugo()


#: the phase each action answers (a ``Chop`` answers ``execute`` and ``shield``)
_PHASE_OF: dict[type, str] = {SetAside: "set_aside", Draw: "draw", Call: "call", Swap: "act", Peek: "act",
                              Forfeit: "act", ChoosePrisoner: "choose", ChoosePair: "choose",
                              ChooseDirection: "choose", Stop: "execute", Successor: "successor"}


@lru_cache(maxsize=256)
def _act_moves(positions: tuple[int, ...]) -> tuple[Peek | Swap, ...]:
    """The acting prisoner's moves over ``positions`` (the prisoners', then the centre's): a ``Peek`` at each, then a
    ``Swap`` of each pair; made once per table and shared (an action is never changed)."""
    return (*(Peek(position=p) for p in positions),
            *(Swap(a=a, b=b) for i, a in enumerate(positions) for b in positions[i + 1:]))
