"""The values the engine contract speaks in (:mod:`games.core.engine`): who acts (:data:`SYSTEM_SEAT`,
:data:`HOST_SEAT`, :class:`SeatInfo`), what a step gives back (:class:`Step` of :class:`Event` s to an
:class:`Audience`), a refusal (:class:`IllegalAction`), how a game ended (:class:`Outcome`) and the one source of
randomness (:func:`rng_for`). Import them from :mod:`games.core`."""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The seat of the game's own clock: actions such as "the day ends" that only the bot's timers send.
SYSTEM_SEAT = -1
#: The seat of the table's host acting as host (not as a player): actions such as "end the match" that only the host
#: sends (the adapter knows who hosts a table; the engine only sees this seat).
HOST_SEAT = -2


class Audience(BaseModel):
    """Who may receive an event.

    ``kind``: ``public`` (the game channel), ``seats`` (a DM to each listed seat: one seat, or a group such as
    Killer + Accomplice), or ``medium`` (the server's official medium channel, social mode).
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["public", "seats", "medium"] = "public"
    seats: tuple[int, ...] = ()

    # each made once per distinct value and shared (a frozen value): every event names one, most the public

    @classmethod
    def public(cls) -> Audience:
        return _audience(cls, "public", ())

    @classmethod
    def medium(cls) -> Audience:
        return _audience(cls, "medium", ())

    @classmethod
    def to(cls, *seats: int) -> Audience:
        return _audience(cls, "seats", seats)

    @property
    def is_public(self) -> bool:
        return self.kind in ("public", "medium")


@functools.lru_cache(maxsize=1024)
def _audience(cls: type[Audience], kind: Literal["public", "seats", "medium"], seats: tuple[int, ...]) -> Audience:
    return cls(kind=kind, seats=seats)


def seat_keys(params: Mapping[str, Any], declared: Iterable[str] = ()) -> frozenset[str]:
    """The names in ``params`` whose values are seats (a seat number, or a list of them), which the adapter shows
    as the players' names: those ``declared``, plus by convention ``seat``, ``seats``, ``*_seat`` and ``*_seats``.
    Declare every other seat parameter (``target``, ``killer``, ``accusers``...)."""
    conventional = {key for key in params if key in ("seat", "seats") or key.endswith(("_seat", "_seats"))}
    return frozenset(declared) | conventional


class Event(BaseModel):
    """Something that happened, for the adapter to render from a message catalogue.

    ``key`` is a catalogue message id (e.g. ``asesino.destiny.murdered``); ``params`` holds its JSON-safe
    parameters; ``seat_params`` names the parameters that are seats beyond the conventional names (see
    :func:`seat_keys`); the adapter renders seats as the players' names. Events never hold prose.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    params: dict[str, Any] = Field(default_factory=dict)
    audience: Audience = Field(default_factory=Audience.public)
    seat_params: tuple[str, ...] = ()

    @property
    def seat_keys(self) -> frozenset[str]:
        return seat_keys(self.params, self.seat_params)


class IllegalAction(Exception):
    """An action the rules forbid. Raising it guarantees the state did not change.

    ``code`` is a catalogue message id; ``params`` are its parameters, e.g.
    ``IllegalAction("cereal_killer.not_adjacent", a=9, b=5)``; ``seat_params`` names the parameters that are seats
    beyond the conventional names (see :func:`seat_keys`), e.g. ``IllegalAction("asesino.error.bad_target",
    seat_params=("target",), target=0)`` is shown with the player's name.
    """

    def __init__(self, code: str, *, seat_params: Iterable[str] = (), **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.seat_params = tuple(seat_params)

    def __str__(self) -> str:
        # written when read, not when raised: listing legal actions raises (and drops) thousands of refusals
        return f"{self.code} {self.params}" if self.params else self.code

    @property
    def seat_keys(self) -> frozenset[str]:
        return seat_keys(self.params, self.seat_params)


class Outcome(BaseModel):
    """How a finished game ended.

    ``winners``: seats on the winning side; ``reason``: catalogue key with its ``params`` (``seat_params`` as on
    :class:`Event`); ``scores``: points per seat for the
    round (string seat keys, JSON-safe), used by multi-round series; ``achievements``: per-seat achievement ids,
    filled in when the game ends from the game's book and its :meth:`Engine.facts` (:mod:`games.core.achievements`)
    with what its people earned; an engine's own :meth:`Engine.outcome` leaves it empty.
    """

    winners: list[int]
    reason: str
    params: dict[str, Any] = Field(default_factory=dict)
    scores: dict[int, float] = Field(default_factory=dict)
    achievements: dict[int, list[str]] = Field(default_factory=dict)
    seat_params: tuple[str, ...] = ()

    @property
    def seat_keys(self) -> frozenset[str]:
        return seat_keys(self.params, self.seat_params)



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



def rng_for(seed: int, *salt: object) -> random.Random:
    """A ``random.Random`` derived deterministically from the game seed and a salt (e.g. the action count),
    so that replaying the same actions draws the same cards. Stable across processes and Python versions
    (``hash()`` is salted per process, so it is not used)."""
    digest = hashlib.sha256(repr((seed, *salt)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
