"""Achievements: what a player did in a finished game that is worth a badge, declared by each game in data.

A game declares its achievements in ``games/<game>/data/achievements.yaml`` (validated by :class:`Book`): each has
an ``id`` (named in the catalogues as ``<game>.achievement.<id>``, described by ``<game>.achievement.<id>.hint``),
the ``modes`` it applies to (all when left out), ``once`` (earned once per player and server: "first win as the
Killer") and ``when``: conditions on one seat's *facts*, all of which must hold. A condition is a value the fact
must equal (``role: killer``, ``won: true``) or a range (``{min: 3}``, ``{max: 0}``, ``{in: [a, b]}``).

The facts are the game's: :meth:`games.core.Engine.facts` reads them from the finished game's moments (every
accepted step, replayed from the seed and the action log: :func:`moments`) and its final state, e.g. ``role``,
``won``, how many cards were played on a seat, the Guns a shootout was won with. :func:`earned` puts the two
together: pure and deterministic, like the engines. Computer seats and unfinished games are the adapter's to leave
out (they never earn: the store records only people's seats of finished games), as is ``once``, which depends on
what a player earned before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.contract import Event, SeatInfo
from games.core.engine import Engine

#: where a game's achievements live, inside its package
BOOK = Path("data") / "achievements.yaml"


class Range(BaseModel):
    """A fact's allowed values: at least ``min``, at most ``max``, one of ``in`` (each optional)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    min: float | None = None
    max: float | None = None
    one_of: list[Any] | None = Field(default=None, alias="in")

    def holds(self, value: Any) -> bool:
        if self.one_of is not None and value not in self.one_of:
            return False
        if self.min is not None and not (isinstance(value, int | float) and value >= self.min):
            return False
        return self.max is None or (isinstance(value, int | float) and value <= self.max)


class Spec(BaseModel):
    """One achievement of a game (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=48)
    modes: list[str] | None = None
    once: bool = False
    when: dict[str, bool | int | str | Range] = Field(min_length=1)

    def applies(self, mode: str) -> bool:
        return self.modes is None or mode in self.modes

    def holds(self, facts: Mapping[str, Any]) -> bool:
        """Whether every condition holds for one seat's ``facts`` (a fact the seat lacks fails its condition)."""
        for name, condition in self.when.items():
            if name not in facts:
                return False
            if not _meets(facts[name], condition):
                return False
        return True


def _meets(value: Any, condition: bool | int | str | Range) -> bool:
    """``value`` meets ``condition``: in the range, or equal to it (a yes/no only to a yes/no, a number only to a
    number: ``True`` is not ``1``)."""
    if isinstance(condition, Range):
        return condition.holds(value)
    if isinstance(condition, bool) or isinstance(value, bool):
        return value is condition
    return value == condition


class Book(BaseModel):
    """A game's achievements, in the order they are shown. Raises ``ValueError`` for a repeated id."""

    model_config = ConfigDict(extra="forbid")

    achievements: list[Spec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> Book:
        ids = [spec.id for spec in self.achievements]
        if len(ids) != len(set(ids)):
            raise ValueError(f"repeated achievement ids: {sorted({i for i in ids if ids.count(i) > 1})}")
        return self

    def spec(self, achievement: str) -> Spec | None:
        return next((spec for spec in self.achievements if spec.id == achievement), None)

    def award(self, mode: str, facts: Mapping[int, Mapping[str, Any]]) -> dict[int, list[str]]:
        """``seat -> ids`` of the achievements of ``mode`` each seat's facts meet, in the book's order (every seat
        of ``facts`` is listed, an empty list when it earned nothing)."""
        specs = [spec for spec in self.achievements if spec.applies(mode)]
        return {seat: [spec.id for spec in specs if spec.holds(seat_facts)] for seat, seat_facts in facts.items()}


def book_path(game: str) -> Path | None:
    """The achievements file of ``game``'s package, or ``None`` (a game without a package file: a test game)."""
    module = sys.modules.get(f"games.{game}")
    origin = getattr(module, "__file__", None)
    return None if origin is None else Path(origin).parent / BOOK


@cache
def book_of(game: str) -> Book:
    """``game``'s validated achievements (none when it declares none). Raises ``pydantic.ValidationError`` for a
    malformed file."""
    path = book_path(game)
    if path is None or not path.exists():
        return Book()
    return Book.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")) or {})


@dataclass(frozen=True, slots=True)
class Moment:
    """One accepted step of a game: ``seat`` made ``action`` (parsed) on ``before``, giving ``after`` and
    ``events``."""

    seat: int
    action: Any
    before: Any
    after: Any
    events: list[Event]


def moments(engine: Engine, options: BaseModel, seats: list[SeatInfo], seed: int,
            log: Iterable[tuple[int, dict[str, Any]]]) -> Iterator[Moment]:
    """Every step of a game, replayed from its seed and its ``(seat, action JSON)`` log in order. Raises
    :class:`~games.core.IllegalAction` when a logged action no longer applies."""
    state = engine.setup(options, seats, seed)
    for seat, data in log:
        action = engine.parse_action(data)
        step = engine.apply(state, seat, action)
        yield Moment(seat, action, state, step.state, step.events)
        state = step.state


def judge(engine: Engine, final: Any, steps: Sequence[Moment]) -> dict[int, list[str]]:
    """``seat -> achievement ids`` the finished game ``final`` (reached by ``steps``) earned: its facts
    (:meth:`~games.core.Engine.facts`) against its book, in the book's order (empty lists for seats that earned
    none; ``{}`` for a game not over). ``once`` achievements are listed every time they are met."""
    if engine.outcome(final) is None:
        return {}
    return book_of(engine.game).award(engine.mode.id, engine.facts(final, steps))


def earned(engine: Engine, options: BaseModel, seats: list[SeatInfo], seed: int,
           log: Iterable[tuple[int, dict[str, Any]]]) -> dict[int, list[str]]:
    """:func:`judge` of the game replayed from ``seed`` and its ``(seat, action JSON)`` log (``{}`` for a game
    without achievements, without replaying it)."""
    if not book_of(engine.game).achievements:
        return {}
    steps = list(moments(engine, options, seats, seed, log))
    return judge(engine, steps[-1].after if steps else engine.setup(options, seats, seed), steps)
