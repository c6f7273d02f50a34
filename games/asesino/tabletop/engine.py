"""The tabletop engine (5-10 players): actions, legality, views, outcome and timeout defaults.

Who must act (:meth:`TabletopEngine.waiting`): the seat of the pending prompt if any; else the murdered
player on top of the obligation stack (they declare their remaining cards one ``Declare`` at a time, the turn
marker does not move); else the player holding the turn marker (``Declare``, or ``Pass`` when no one is a
legal target).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any, ClassVar

from pydantic import BaseModel

from games.asesino.achievements import tabletop_facts
from games.asesino.common import SEAT_PARAMS, side_of, waiting_for
from games.asesino.series import round_points
from games.asesino.tabletop.flow import advance, can_declare, end, next_seat, seal, targets
from games.asesino.tabletop.models import (
    Accuse,
    ChooseDirection,
    Declare,
    LastWords,
    OrderEffects,
    Pass,
    Played,
    Said,
    Statement,
    TabletopAction,
    TabletopOptions,
    TabletopState,
)
from games.asesino.tabletop.setup import deal
from games.asesino.tabletop.views import private_view, public_view
from games.core import (
    Audience,
    Engine,
    Event,
    Features,
    IllegalAction,
    ModeInfo,
    Outcome,
    SeatInfo,
    Step,
    Waiting,
)
from games.core.achievements import Moment
from games.core.copying import deep_copy, replace

#: which action answers which prompt kind ("turn" and "declare_all" take ``Declare`` / ``Pass``)
_ANSWERS: dict[str, type[BaseModel]] = {"direction": ChooseDirection, "order": OrderEffects,
                                        "statement": Statement, "accuse": Accuse, "last_words": LastWords}


class TabletopEngine(Engine[TabletopState]):
    """Asesino en Serie, tabletop mode."""

    game: ClassVar[str] = "asesino"
    mode: ClassVar[ModeInfo] = ModeInfo(id="tabletop", min_players=5, max_players=10)
    State = TabletopState
    Options = TabletopOptions
    Action: ClassVar[Any] = TabletopAction
    features: ClassVar[Features] = Features(timeouts=True, ai=True, series=True)
    seat_params: ClassVar[tuple[str, ...]] = SEAT_PARAMS

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> TabletopState:
        assert isinstance(options, TabletopOptions)
        return deal(options, len(seats), seed)

    def intro(self, state: TabletopState) -> list[Event]:
        """Each seat's role and hand by DM; Killer and Accomplice learn each other; the first player is asked
        for the direction (ruling "Starting ritual")."""
        events = [Event(key="asesino.intro.role", params={"role": p.role, "hand": list(p.hand)},
                        audience=Audience.to(seat)) for seat, p in enumerate(state.seats)]
        evil = [seat for seat, p in enumerate(state.seats) if side_of(p.role) == "evil"]
        if len(evil) == 2:
            killer = next(seat for seat in evil if state.seats[seat].role == "killer")
            accomplice = next(seat for seat in evil if seat != killer)
            events.append(Event(key="asesino.intro.partners", params={"killer": killer, "accomplice": accomplice},
                                audience=Audience.to(*evil)))
        events.append(Event(key="asesino.intro.first", params={"seat": state.first}))
        events.append(Event(key="asesino.prompt.direction", params={"seat": state.first}))
        return events

    def _pending(self, state: TabletopState) -> tuple[int, str] | None:
        """``(seat, kind)`` the game waits on; kind is a prompt kind, ``declare_all`` or ``turn``."""
        if state.result is not None:
            return None
        if state.prompt is not None:
            return state.prompt.seat, state.prompt.kind
        if state.obligations:
            return state.obligations[-1], "declare_all"
        return state.turn, "turn"

    def step_state(self, state: TabletopState, action: Any = None) -> TabletopState:
        """A card declared on a turn with nothing else pending, on a front it does not seal, by a player left with a
        card to declare (so the round goes on), changes only the turn's counters, the mover's hand and the target's
        front (:meth:`_declare`; the mover is the turn's seat, as the contract checked): its step gets a copy of
        those two players and shares the others. Any other move gets the contract's copy."""
        if action.__class__ is Declare and state.prompt is None and state.resolution is None and \
                not state.obligations and state.result is None and 0 <= action.target < len(state.seats) and \
                action.target != state.turn and len(state.seats[action.target].front) < 2 and \
                len(state.seats[state.turn].hand) >= 2:
            seats = list(state.seats)
            seats[state.turn] = deep_copy(seats[state.turn])
            seats[action.target] = deep_copy(seats[action.target])
            return replace(state, seats=seats, discard=list(state.discard),  # type: ignore[no-any-return]
                           sealed_order=list(state.sealed_order), deaths=list(state.deaths), said=list(state.said))
        return super().step_state(state, action)

    def waiting(self, state: TabletopState) -> Waiting | None:
        """The seat the game waits on: a turn (``turn``, ``declare_all``) or a prompt (any other kind)."""
        return waiting_for(self._pending(state))

    def legal_actions(self, state: TabletopState, seat: int) -> list[Any]:
        waiting = self._pending(state)
        if waiting is None or waiting[0] != seat:
            return []
        kind = waiting[1]
        if kind == "direction":
            return [ChooseDirection(clockwise=True), ChooseDirection(clockwise=False)]
        if kind == "order":
            assert state.resolution is not None
            return [OrderEffects(order=list(order)) for order in permutations(state.resolution.effects)]
        if kind == "statement":
            return [Statement()]
        if kind == "last_words":
            return [LastWords()]
        if kind == "accuse":
            return [Accuse(target=other) for other in range(len(state.seats)) if other != seat]
        declares = _declares(tuple(dict.fromkeys(state.seats[seat].hand)), tuple(targets(state, seat)))
        return list(declares) or [Pass()]

    def _apply(self, state: TabletopState, seat: int, action: Any) -> Step:
        """Raises ``asesino.error.prompt_pending`` (the action does not answer the pending question) and the
        action-specific codes below (game over and the turn are the contract's, :meth:`Engine.apply`)."""
        waiting = self._pending(state)
        assert waiting is not None
        kind = waiting[1]
        expected = _ANSWERS.get(kind)
        if (expected is not None and not isinstance(action, expected)) or (
                expected is None and not isinstance(action, Declare | Pass)):
            raise IllegalAction("asesino.error.prompt_pending", prompt=kind)
        new = state  # the contract's copy (Engine.apply)
        new.counter += 1
        events: list[Event] = []
        if kind not in ("turn", "declare_all"):
            new.prompt = None
        if isinstance(action, ChooseDirection):
            new.clockwise = action.clockwise
            way = "clockwise" if action.clockwise else "counterclockwise"
            events.append(Event(key=f"asesino.direction.{way}", params={"seat": seat}))
        elif isinstance(action, Declare):
            self._declare(new, seat, action, kind == "turn", events)
        elif isinstance(action, Pass):
            if can_declare(new, seat):
                raise IllegalAction("asesino.error.cannot_pass")
            events.append(Event(key="asesino.passed", params={"seat": seat}))
            new.turn = next_seat(new, seat)
            new.turn_announced = False
        elif isinstance(action, OrderEffects):
            assert new.resolution is not None
            if sorted(action.order) != sorted(new.resolution.effects):
                raise IllegalAction("asesino.error.bad_order", effects=list(new.resolution.effects))
            new.resolution.effects = list(action.order)
            new.resolution.ordered = True
            events.append(Event(key="asesino.effects_ordered", params={"seat": seat, "order": list(action.order)}))
        elif isinstance(action, Statement | LastWords):
            said = "statement" if isinstance(action, Statement) else "last_words"
            new.said.append(Said(seat=seat, kind=said, text=action.text))
            events.append(Event(key=f"asesino.{said}", params={"seat": seat, "text": action.text}))
        elif isinstance(action, Accuse):
            self._accuse(new, seat, action, events)
        advance(new, events)
        return Step(state=new, events=events)

    @staticmethod
    def _declare(state: TabletopState, seat: int, action: Declare, own_turn: bool, events: list[Event]) -> None:
        player = state.seats[seat]
        if action.card not in player.hand:
            raise IllegalAction("asesino.error.card_not_in_hand", card=action.card)
        if not 0 <= action.target < len(state.seats) or action.target == seat:
            raise IllegalAction("asesino.error.bad_target", seat_params=("target",), target=action.target)
        target = state.seats[action.target]
        if target.sealed:
            raise IllegalAction("asesino.error.target_sealed", seat_params=("target",), target=action.target)
        player.hand.remove(action.card)
        target.front.append(Played(card=action.card, by=seat, words=action.words))
        events.append(Event(key="asesino.declared", params={"seat": seat, "target": action.target,
                                                            "words": action.words, "count": len(target.front)}))
        events.append(Event(key="asesino.you_declared", params={"card": action.card, "target": action.target},
                            audience=Audience.to(seat)))
        if own_turn:
            state.turn = next_seat(state, seat)
            state.turn_announced = False
        if len(target.front) == 3:
            seal(state, action.target, events)

    @staticmethod
    def _accuse(state: TabletopState, seat: int, action: Accuse, events: list[Event]) -> None:
        """The accusation and its truthful answer, public; ``at_random`` says the bot named the player."""
        if not 0 <= action.target < len(state.seats) or action.target == seat:
            raise IllegalAction("asesino.error.bad_target", seat_params=("target",), target=action.target)
        correct = state.seats[action.target].role == "killer"
        verdict = ("random_" if action.at_random else "") + ("right" if correct else "wrong")
        events.append(Event(key=f"asesino.accusation.{verdict}", params={"seat": seat, "target": action.target}))
        if correct:
            end(state, "good", "asesino.end.prosecutor_sentenced", events, caught=True)

    def timeout_action(self, state: TabletopState) -> tuple[int, Any] | None:
        """The waiting seat whose time limit runs out, with the first legal move as the engine's fallback: the bot
        plays the seat's policy from its view (:func:`games.core.ai.timeout_move`, edition ruling 3 in the README
        for the Prosecutor, whose accusation is flagged as the bot's, :meth:`timeout_marked`)."""
        waiting = self._pending(state)
        if waiting is None:
            return None
        seat, _ = waiting
        return seat, self.legal_actions(state, seat)[0]

    def timeout_marked(self, state: TabletopState, action: Any) -> Any:
        """An accusation made for a silent Prosecutor says so (``at_random``: "the bot named ..."); other moves are
        unchanged."""
        return action.model_copy(update={"at_random": True}) if isinstance(action, Accuse) else action

    def view(self, state: TabletopState, seat: int | None) -> dict[str, Any]:
        waiting = self._pending(state)
        must_pass = waiting is not None and [a.type for a in self.legal_actions(state, waiting[0])] == ["pass"]
        public = public_view(state, waiting, must_pass)
        return public if seat is None else private_view(state, seat, public)

    def outcome(self, state: TabletopState) -> Outcome | None:
        if state.result is None:
            return None
        roles = [player.role for player in state.seats]
        winners = [seat for seat, role in enumerate(roles) if side_of(role) == state.result.side]
        scores = round_points(roles, [p.murdered for p in state.seats], winning_side=state.result.side,
                              killer_caught=state.result.caught)
        return Outcome(winners=winners, reason=state.result.reason, scores=scores,
                       params={"side": state.result.side, "deaths": len(state.deaths)})

    def facts(self, final: TabletopState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.asesino.achievements.tabletop_facts`."""
        return tabletop_facts(final, moments, self.outcome(final))


@lru_cache(maxsize=4096)
def _declares(cards: tuple[str, ...], seats: tuple[int, ...]) -> tuple[Declare, ...]:
    """Every ``Declare`` of ``cards`` (distinct, in hand order) on ``seats``: made once per hand and table (the
    legal moves of a turn, asked after every move) and shared (an action is never changed)."""
    return tuple(Declare(card=card, target=target) for card in cards for target in seats)
