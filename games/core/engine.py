"""The engine contract: every game is a pure, deterministic state machine.

An engine is the game's spec in the style of boardgame.io / OpenSpiel:

* ``setup(options, seats, seed) -> State``
* ``legal_actions(state, seat) -> list[Action]`` (feeds menus and the built-in random player)
* ``apply(state, seat, action) -> Step(state, events)``; raises :class:`IllegalAction` and changes nothing
* ``view(state, seat)``: what ``seat`` may see; ``seat=None`` is the public view
* ``outcome(state) -> Outcome | None``

States and actions are pydantic v2 models, so they serialise to JSON and replay bit for bit from
``(seed, actions)``. Randomness comes only from :func:`rng_for`; time enters only as data inside actions.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

#: The seat of the game's own clock: actions such as "the day ends" that only the bot's timers send.
SYSTEM_SEAT = -1


class Audience(BaseModel):
    """Who may receive an event.

    ``kind``: ``public`` (the game channel), ``seats`` (a DM to each listed seat: one seat, or a group such as
    Killer + Accomplice), or ``medium`` (the server's official medium channel, social mode).
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["public", "seats", "medium"] = "public"
    seats: tuple[int, ...] = ()

    @classmethod
    def public(cls) -> Audience:
        return cls(kind="public")

    @classmethod
    def medium(cls) -> Audience:
        return cls(kind="medium")

    @classmethod
    def to(cls, *seats: int) -> Audience:
        return cls(kind="seats", seats=tuple(seats))

    @property
    def is_public(self) -> bool:
        return self.kind in ("public", "medium")


class Event(BaseModel):
    """Something that happened, for the adapter to render from a message catalogue.

    ``key`` is a catalogue message id (e.g. ``asesino.destiny.murdered``); ``params`` holds its JSON-safe
    parameters (seat numbers are rendered as the players' names by the adapter). Events never hold prose.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    params: dict[str, Any] = Field(default_factory=dict)
    audience: Audience = Field(default_factory=Audience.public)


class IllegalAction(Exception):
    """An action the rules forbid. Raising it guarantees the state did not change.

    ``code`` is a catalogue message id (rendered as ``error.<code>`` style keys by the adapter); ``params`` are
    its parameters, e.g. ``IllegalAction("cereal.not_adjacent", a=9, b=5)``.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


class Outcome(BaseModel):
    """How a finished game ended.

    ``winners``: seats on the winning side; ``reason``: catalogue key; ``scores``: points per seat for the
    round (string seat keys, JSON-safe), used by multi-round series; ``achievements``: per-seat achievement ids.
    """

    winners: list[int]
    reason: str
    params: dict[str, Any] = Field(default_factory=dict)
    scores: dict[int, float] = Field(default_factory=dict)
    achievements: dict[int, list[str]] = Field(default_factory=dict)


class SeatInfo(BaseModel):
    """What an engine knows of a player: their names (for rules such as "a Farewell Letter may not name a
    player"). Never a Discord id: the adapter maps seat numbers to users."""

    model_config = ConfigDict(frozen=True)

    names: tuple[str, ...] = ()


class Step(BaseModel):
    """The result of one accepted action: the new state and the events it produced, in order."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: Any
    events: list[Event] = Field(default_factory=list)


class ModeInfo(BaseModel):
    """A playable mode of a game: its id (named in the catalogues as ``mode.<game>.<id>``) and its player-count
    limits (inclusive)."""

    id: str
    min_players: int
    max_players: int


class GameInfo(BaseModel):
    """A game as the lobby lists it: its id (named in the catalogues as ``game.<id>``) and its modes."""

    id: str
    modes: list[ModeInfo]

    def mode(self, mode_id: str) -> ModeInfo:
        """The mode ``mode_id``. Raises ``KeyError`` when the game has no such mode."""
        for mode in self.modes:
            if mode.id == mode_id:
                return mode
        raise KeyError(mode_id)


StateT = TypeVar("StateT", bound=BaseModel)


class Engine(ABC, Generic[StateT]):
    """Base class of every game engine (one instance per game and mode; instances hold no game data).

    Subclasses set ``game``, ``mode``, ``State``, ``Options`` and ``Action`` (a discriminated union on
    ``type``, usually ``Annotated[A | B | ..., Field(discriminator="type")]``).
    """

    game: ClassVar[str]
    mode: ClassVar[ModeInfo]
    State: ClassVar[type[BaseModel]]
    Options: ClassVar[type[BaseModel]]
    Action: ClassVar[Any]

    _action_adapter: ClassVar[TypeAdapter[Any] | None] = None

    @classmethod
    def action_adapter(cls) -> TypeAdapter[Any]:
        """The pydantic adapter that parses and dumps this engine's actions (cached per class)."""
        if cls.__dict__.get("_action_adapter") is None:
            cls._action_adapter = TypeAdapter(cls.Action)
        return cls._action_adapter  # type: ignore[return-value]

    def parse_action(self, data: dict[str, Any]) -> Any:
        """Validate a JSON action. Raises ``pydantic.ValidationError`` on malformed input."""
        return self.action_adapter().validate_python(data)

    def dump_action(self, action: Any) -> dict[str, Any]:
        return self.action_adapter().dump_python(action, mode="json")

    def parse_state(self, data: dict[str, Any]) -> StateT:
        return self.State.model_validate(data)  # type: ignore[return-value]

    def dump_state(self, state: StateT) -> dict[str, Any]:
        return state.model_dump(mode="json")

    @abstractmethod
    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> StateT:
        """Deal a new game for ``len(seats)`` players. Raises :class:`IllegalAction` for a bad player count."""

    def intro(self, state: StateT) -> list[Event]:
        """Events sent when the game starts (e.g. each seat's role and hand by DM; the first player's prompt)."""
        return []

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[Any]:
        """Every action ``seat`` may take now (empty when it is not their move). Free-text parts are filled
        with placeholders; the adapter lets the player type them."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: Any) -> Step:
        """Apply ``action`` by ``seat``. Returns a new state (the input is never mutated) and the events.
        Raises :class:`IllegalAction` when the rules forbid it."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """The JSON-safe view of ``seat`` (``None``: the public view). Secret fields of other seats never
        appear."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while the game goes on."""

    def to_act(self, state: StateT) -> list[int]:
        """Seats the game is waiting on (for mentions, turn timers and the built-in random player)."""
        return [seat for seat in range(self.seat_count(state)) if self.legal_actions(state, seat)]

    def seat_count(self, state: StateT) -> int:
        return len(state.seats)  # type: ignore[attr-defined]


def rng_for(seed: int, *salt: object) -> random.Random:
    """A ``random.Random`` derived deterministically from the game seed and a salt (e.g. the action count),
    so that replaying the same actions draws the same cards. Stable across processes and Python versions
    (``hash()`` is salted per process, so it is not used)."""
    digest = hashlib.sha256(repr((seed, *salt)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
