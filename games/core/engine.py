"""The engine contract: every game is a pure, deterministic state machine.

An engine is the game's spec in the style of boardgame.io / OpenSpiel:

* ``setup(options, seats, seed) -> State``
* ``legal_actions(state, seat) -> list[Action]`` (feeds menus and the built-in random player)
* ``apply(state, seat, action) -> Step(state, events)``; raises :class:`IllegalAction` and changes nothing. It is a
  checked wrapper (a template method, as OpenSpiel's ``apply_action`` over ``_apply_action``): it refuses a finished
  game and the wrong actor for every game (:meth:`Engine.check_actor`), copies the state (:meth:`Engine.step_state`)
  and calls the game's own step, ``_apply``
* ``features``: what the game has beyond that (a clock, host actions, time limits, an AI), declared once
  (:class:`Features`)
* ``due(state, now) -> list[Action]``: the game's own clock, for games whose ``features.clock`` is set
* ``view(state, seat)``: what ``seat`` may see; ``seat=None`` is the public view
* ``outcome(state) -> Outcome | None`` and ``is_over(state)``
* ``facts(final, moments)``: what each seat did in a finished game, which its achievements are judged on
  (:mod:`games.core.achievements`)
* ``waiting(state) -> Waiting | None``: who must act now and on what (``None`` once the game is over)
* the host's controls (pause, resume, close: :mod:`games.core.controls`), which the contract applies for every game
  whose ``State`` is :class:`~games.core.controls.Controlled`

States and actions are pydantic v2 models, so they serialise to JSON and replay bit for bit from
``(seed, actions)``. Randomness comes only from :func:`~games.core.contract.rng_for`; time enters only as data
inside actions.

This module holds the :class:`Engine` base class only; the values it speaks in (events, refusals, outcomes, seats)
are in :mod:`games.core.contract`, :class:`~games.core.waiting.Waiting` in :mod:`games.core.waiting`, and what a game
declares about itself (modes, server settings, :class:`~games.core.description.Features`) in
:mod:`games.core.description`; :mod:`games.core` exports them all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from itertools import permutations, product
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from games.core.contract import HOST_SEAT, SYSTEM_SEAT, Event, IllegalAction, Outcome, SeatInfo, Step
from games.core.controls import (
    CONTROL_TYPES,
    Closed,
    CloseGame,
    Control,
    Controls,
    Paused,
    PauseGame,
    ResumeGame,
    paused_for,
)
from games.core.copying import deep_copy, step_copy
from games.core.description import Features, ModeInfo
from games.core.seats import (
    SeatAway,
    SeatBack,
    SeatReplaced,
    is_seat_change,
    parse_seat_change,
    seat_change_event_params,
    seat_change_key,
)
from games.core.waiting import Waiting

if TYPE_CHECKING:
    from games.core.achievements import Moment

StateT = TypeVar("StateT", bound=BaseModel)
#: the host's controls' classes, for ``isinstance`` (a ``X | Y`` union would be built anew at each call)
CONTROL_CLASSES = (PauseGame, ResumeGame, CloseGame)


class Engine(ABC, Generic[StateT]):
    """Base class of every game engine (one instance per game and mode; instances hold no game data).

    Subclasses set ``game``, ``mode``, ``State``, ``Options`` and ``Action`` (a discriminated union on
    ``type``, usually ``Annotated[A | B | ..., Field(discriminator="type")]``), and may set ``seat_params``: the
    parameter names that are seats in every event, refusal and outcome of the engine (beyond the conventional
    names and what each one declares, see :func:`seat_keys`).
    """

    game: ClassVar[str]
    mode: ClassVar[ModeInfo]
    State: ClassVar[type[BaseModel]]
    Options: ClassVar[type[BaseModel]]
    Action: ClassVar[Any]
    seat_params: ClassVar[tuple[str, ...]] = ()
    features: ClassVar[Features] = Features()

    _action_adapter: ClassVar[TypeAdapter[Any] | None] = None
    _control_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Control)

    @classmethod
    def action_adapter(cls) -> TypeAdapter[Any]:
        """The pydantic adapter that parses and dumps this engine's actions (cached per class)."""
        if cls.__dict__.get("_action_adapter") is None:
            cls._action_adapter = TypeAdapter(cls.Action)
        return cls._action_adapter  # type: ignore[return-value]

    def parse_action(self, data: dict[str, Any]) -> Any:
        """Validate a JSON action (the game's own, one of the host's controls, or a change of who plays a seat:
        :mod:`games.core.seats`). Raises ``pydantic.ValidationError`` on malformed input."""
        if is_seat_change(data):
            return parse_seat_change(data)
        if isinstance(data, dict) and data.get("type") in CONTROL_TYPES:
            return self._control_adapter.validate_python(data)
        return self.action_adapter().validate_python(data)

    def dump_action(self, action: Any) -> dict[str, Any]:
        if is_seat_change(action):
            return action.model_dump(mode="json")  # type: ignore[no-any-return]
        if isinstance(action, CONTROL_CLASSES):
            return action.model_dump(mode="json")
        return self.action_adapter().dump_python(action, mode="json")

    def is_host_action(self, kind: str | None) -> bool:
        """Whether the action ``type`` ``kind`` is one only the table's host sends (``features.host_actions`` and
        the controls every game has: pause, resume, close)."""
        return kind is not None and (kind in CONTROL_TYPES or kind in self.features.host_actions)

    def parse_state(self, data: dict[str, Any]) -> StateT:
        return self.State.model_validate(data)  # type: ignore[return-value]

    def dump_state(self, state: StateT) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def copy_state(self, state: StateT) -> StateT:
        """A copy of ``state`` that the game's step (:meth:`_apply`) may change freely: it shares no mutable
        object with ``state`` (so :meth:`apply` never mutates its input). The default is
        :func:`games.core.copying.deep_copy`, a deep copy planned from the state's field declarations (several
        times quicker than ``copy.deepcopy``); an engine whose step changes only some parts may override it to copy
        those and share the rest."""
        return deep_copy(state)

    def step_state(self, state: StateT, action: Any = None) -> StateT:
        """The copy of ``state`` that :meth:`apply` gives the game's step for ``action`` to change in place:
        :meth:`copy_state`'s, except that the values the state declares :data:`~games.core.copying.SETTLED` (never
        changed in place once stored: a log's entries, setup's record) are shared with ``state`` rather than copied
        (:func:`games.core.copying.step_copy`). ``state`` is still never mutated. An engine whose step for some
        actions changes only a known part of the state may override it to copy only that part for them."""
        return step_copy(state)  # type: ignore[no-any-return]

    @abstractmethod
    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> StateT:
        """Deal a new game for ``len(seats)`` players. Raises :class:`IllegalAction` for a bad player count."""

    def intro(self, state: StateT) -> list[Event]:
        """Events sent when the game starts (e.g. each seat's role and hand by DM; the first player's prompt)."""
        return []

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[Any]:
        """Every action ``seat`` may take now (empty when it is not their move). Free-text parts are filled
        with placeholders; the adapter lets the player type them. A list field that :meth:`free_order` names is
        listed in one order only: each listed action stands for every ordering of it (all legal, all distinct)."""

    def free_order(self, action: Any) -> tuple[str, ...]:
        """The list fields of ``action`` whose order is the player's own choice (e.g. the order a Weapon's targets
        are declared in): :meth:`legal_actions` lists such a move once, and every ordering of these fields is
        legal too, so a move space too large to list (thousands of orders) is listed by its sets. None by
        default; see :meth:`orderings`."""
        return ()

    def orderings(self, action: Any) -> Iterator[Any]:
        """Every ordering of ``action``'s :meth:`free_order` fields (``action`` itself first): the legal moves a
        listed action stands for."""
        fields = self.free_order(action)
        choices = [list(permutations(getattr(action, name))) for name in fields]
        for picked in product(*choices):
            yield action.model_copy(update={name: list(order) for name, order in zip(fields, picked, strict=True)})

    def apply(self, state: StateT, seat: int, action: Any) -> Step:
        """Apply ``action`` by ``seat``: :meth:`check_actor`, then the game's own step :meth:`_apply` on
        :meth:`step_state` of ``state``. Returns a new state (the input is never mutated) and the events. Raises
        :class:`IllegalAction` when the rules forbid it (``core.game_over``, the wrong actor, then the game's own
        codes). Games do not override it: they write :meth:`_apply`. The host's controls (pause, resume, close,
        :mod:`games.core.controls`) are the contract's own step (:meth:`_control`); a change of who plays a seat
        (:mod:`games.core.seats`) is checked by :meth:`check_seat_change` and leaves the state as it is, but for
        what the game keeps of its players' names (:meth:`seat_changed`)."""
        if is_seat_change(action):
            self.check_seat_change(state, seat, action)
            event = Event(key=seat_change_key(action), params=seat_change_event_params(action))
            return Step(state=self.seat_changed(state, action), events=[event])
        self.check_actor(state, seat, action)
        if isinstance(action, CONTROL_CLASSES):
            return self._control(self.step_state(state, action), action)
        step = self._apply(self.step_state(state, action), seat, action)
        controls = self.controls(step.state)
        if controls is not None and controls.steps:  # a new decision opened: the control steps are behind it
            waiting = self.waiting(step.state)
            if waiting is None or waiting.open_for == 0:
                # a new Controls on a shallow copy: a game's copy_state may share it with the input
                fresh = controls.model_copy(update={"steps": 0})
                step = Step(state=step.state.model_copy(update={"controls": fresh}), events=step.events)
        return step

    def _control(self, state: StateT, action: PauseGame | ResumeGame | CloseGame) -> Step:
        """The host's control ``action`` (already admitted by :meth:`check_actor`) on the copy ``state``: the
        events ``core.paused`` / ``core.resumed`` / ``core.closed`` (params ``by``, a name; ``seconds``: how long
        the game was paused)."""
        old = self.controls(state)
        assert old is not None  # check_actor refuses the controls to a game without them
        controls = old.model_copy(update={"steps": old.steps + 1})  # a game's copy_state may share the old one
        state = state.model_copy(update={"controls": controls})
        if isinstance(action, PauseGame):
            controls.paused = Paused(at=action.at, by=action.by)
            return Step(state=state, events=[Event(key="core.paused", params={"by": action.by})])
        if isinstance(action, ResumeGame):
            assert controls.paused is not None
            seconds = paused_for(controls.paused, action.at)
            controls.paused = None
            self.resumed(state, seconds)
            return Step(state=state, events=[Event(key="core.resumed", params={"by": action.by,
                                                                               "seconds": round(seconds)})])
        controls.paused = None
        controls.closed = Closed(at=action.at, by=action.by)
        return Step(state=state, events=[Event(key="core.closed", params={"by": action.by})])

    @staticmethod
    def controls(state: Any) -> Controls | None:
        """The host's controls of ``state`` (None for a state that is not
        :class:`~games.core.controls.Controlled`)."""
        return getattr(state, "controls", None)

    def paused(self, state: StateT) -> Paused | None:
        """Since when and by whom the game is paused (None: it is not)."""
        controls = self.controls(state)
        return None if controls is None else controls.paused

    def closed(self, state: StateT) -> Closed | None:
        """When and by whom the running game was cancelled (None: it was not)."""
        controls = self.controls(state)
        return None if controls is None else controls.closed

    def decision_age(self, state: StateT) -> int | None:
        """How many accepted steps ago the decision the game waits on was first offered: the game's
        :attr:`Waiting.open_for` plus the host's control steps since (a pause and its resume leave the decision
        as it was); ``None`` when the game waits on nobody."""
        waiting = self.waiting(state)
        if waiting is None:
            return None
        controls = self.controls(state)
        return waiting.open_for + (controls.steps if controls is not None else 0)

    def resumed(self, state: StateT, seconds: float) -> None:
        """The game was paused for ``seconds`` and resumes now (``state`` is the step's copy, to change in place):
        a game that keeps deadlines of its own (the social mode's day end, a judgement's expiry) moves them by that
        much, so each has the time it had left. Nothing by default."""

    def seat_changed(self, state: StateT, action: Any) -> StateT:
        """The state after the admitted seat change ``action`` (:mod:`games.core.seats`): ``state`` itself by
        default (who holds a seat is the table's, not the game's). A game whose rules read its players' names
        (the social mode's Farewell Letters may not name a player) returns a new state with a seat handed to a
        person going by the newcomer's ``names``; ``state`` is never mutated."""
        return state

    def check_seat_change(self, state: StateT, actor: int, action: Any) -> None:
        """Raise the refusal of ``actor`` sending the seat change ``action``, the same for every game:
        ``core.game_over`` once the game is over; ``core.bad_seat`` for a seat not at the table; the computer takes
        a seat over (``seat_away``) for the game's own clock only (``core.system_only``), a seat is taken back
        (``seat_back``) by that seat only (``core.not_your_seat``), and handed over (``seat_replaced``) by the
        host only (``core.host_only``). Who holds a seat is the table's (``bot/tables``)."""
        if self.is_over(state):
            raise IllegalAction("core.game_over")
        if action.seat >= self.seat_count(state):
            raise IllegalAction("core.bad_seat", seat=action.seat)
        if isinstance(action, SeatAway) and actor != SYSTEM_SEAT:
            raise IllegalAction("core.system_only")
        if isinstance(action, SeatBack) and actor != action.seat:
            raise IllegalAction("core.not_your_seat")
        if isinstance(action, SeatReplaced) and actor not in (HOST_SEAT, SYSTEM_SEAT):
            raise IllegalAction("core.host_only")

    @abstractmethod
    def _apply(self, state: StateT, seat: int, action: Any) -> Step:
        """The game's own step: ``action`` by ``seat``, already known to be a move this actor may make now
        (:meth:`check_actor`). ``state`` is a fresh copy (:meth:`step_state`) the step may change in place; it
        returns the new state and its events, or raises :class:`IllegalAction` (the copy is then dropped)."""

    def check_actor(self, state: StateT, seat: int, action: Any = None) -> None:
        """Raise the refusal of ``seat`` making ``action`` now (``None``: any move of theirs, e.g. before a menu is
        shown), the same for every game: ``core.game_over`` once the game is over; a clock action (see
        :class:`Features`) from anyone but ``SYSTEM_SEAT``: ``features.system_only``; a host action from anyone
        but ``HOST_SEAT`` or ``SYSTEM_SEAT``: ``features.host_only``; any other move from a seat the game does not
        wait on (:meth:`waiting`, ``SYSTEM_SEAT`` and ``HOST_SEAT`` included): :meth:`refusal`. The rules of the
        move itself are the game's (:meth:`_apply`). The host's controls (:mod:`games.core.controls`): from anyone
        but ``HOST_SEAT``, ``features.host_only``; ``core.already_paused``, ``core.not_paused``. While the game is
        paused every other move: ``core.is_paused`` (``by``: who paused it)."""
        if self.is_over(state):
            raise IllegalAction("core.game_over")
        kind = getattr(action, "type", None)
        features = self.features
        controls = self.controls(state)
        if isinstance(action, CONTROL_CLASSES):
            if seat != HOST_SEAT or controls is None:
                raise IllegalAction(features.host_only)
            if isinstance(action, PauseGame) and controls.paused is not None:
                raise IllegalAction("core.already_paused", by=controls.paused.by)
            if isinstance(action, ResumeGame) and controls.paused is None:
                raise IllegalAction("core.not_paused")
            return
        if controls is not None and controls.paused is not None:
            raise IllegalAction("core.is_paused", by=controls.paused.by)
        if kind is not None and kind in features.clock_actions:
            if seat != SYSTEM_SEAT:
                raise IllegalAction(features.system_only)
            return
        if kind is not None and kind in features.host_actions:
            if seat not in (HOST_SEAT, SYSTEM_SEAT):
                raise IllegalAction(features.host_only)
            return
        waiting = self.waiting(state)
        if seat < 0 or waiting is None or seat not in waiting.seats:
            raise self.refusal(state, seat)

    def refusal(self, state: StateT, seat: int) -> IllegalAction:
        """Why ``seat`` may not move now, the game going on without waiting on them: ``core.not_your_turn`` by
        default; games say more (a dead player, an answer already given)."""
        return IllegalAction("core.not_your_turn")

    def due(self, state: StateT, now: Any) -> list[Any]:
        """The game's own clock (``features.clock``): the actions it makes at ``now`` (an aware ``datetime``), in
        order, each applied as ``SYSTEM_SEAT`` before anything else happens at that moment; empty when nothing is
        due, and always while the game is paused or once it is over. Apply the first and ask again: one may make
        the next one due. Games write :meth:`_due`."""
        if self.paused(state) is not None or self.is_over(state):
            return []
        return self._due(state, now)

    def _due(self, state: StateT, now: Any) -> list[Any]:
        """The game's own clock at ``now`` (see :meth:`due`, which asks it only while the game runs). None by
        default."""
        return []

    def timeout_action(self, state: StateT) -> tuple[int, Any] | None:
        """Whose time runs out now (``features.timeouts``) and the engine's own default: ``(seat, action)``, the
        seat possibly ``SYSTEM_SEAT`` (e.g. a response window closing), or ``None``. For a person's seat the bot
        plays the seat's policy instead (:func:`games.core.ai.timeout_move`); the action here is the fallback for a
        seat with no legal action. None by default."""
        return None

    def timeout_marked(self, state: StateT, action: Any) -> Any:
        """``action`` (the policy's move for a seat whose time ran out) as the game records a timeout's move (e.g.
        a Prosecutor's accusation flagged as the bot's). Unchanged by default."""
        return action

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """The JSON-safe view of ``seat`` (``None``: the public view). Secret fields of other seats never
        appear."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while the game goes on."""

    def facts(self, final: StateT, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """What each seat did in a finished game, as the game's achievements judge it
        (``games/<game>/data/achievements.yaml``, :mod:`games.core.achievements`): ``seat -> {fact: value}`` with
        JSON-like values (a yes/no, a number, a string), from the ``final`` state and every step that led to it
        (``moments``, oldest first). The default gives ``won`` (the seat is among the outcome's winners); games add
        their own (``role``, cards played on a seat...)."""
        outcome = self.outcome(final)
        winners = set(outcome.winners) if outcome is not None else set()
        return {seat: {"won": seat in winners} for seat in range(self.seat_count(final))}

    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended: its :meth:`outcome` is known, or its host cancelled it (:meth:`closed`)."""
        return self.closed(state) is not None or self.outcome(state) is not None

    def waiting(self, state: StateT) -> Waiting | None:
        """Who must act now and on what; ``None`` once the game is over. The default: every seat with a legal
        action, on its turn. Engines with prompts or a real-time pace override it."""
        if self.is_over(state):
            return None
        return Waiting(seats=tuple(seat for seat in range(self.seat_count(state)) if self.legal_actions(state, seat)))

    def to_act(self, state: StateT) -> list[int]:
        """Shorthand for the seats of :meth:`waiting` (empty once the game is over). Override :meth:`waiting`,
        not this."""
        waiting = self.waiting(state)
        return [] if waiting is None else list(waiting.seats)

    def seat_count(self, state: StateT) -> int:
        return len(state.seats)  # type: ignore[attr-defined]

    def dead(self, state: StateT) -> frozenset[int]:
        """The seats out of the game for good (public: everyone knows who died): none by default (the tabletop's
        murdered still play out their hand, Verdugo's dead are back next round). Such a seat is never handed over
        and its person holds the server's dead role until the game ends (:mod:`games.core.seats`)."""
        return frozenset()
