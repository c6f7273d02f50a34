"""Lobby options as the store accepts them: a game's options validated with its engine's ``Options`` model, and a
points series' length with :class:`SeriesOptions`. ``/newgame`` validates with these same functions before it
opens anything, so the command and the store share one set of limits.

Refusals are :class:`~bot.tables.TableError` in the project's words, naming the real limit
(``table.option.<kind>`` with ``name``, ``value`` and ``limit`` or ``allowed``), never pydantic's text.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.tables.model import TableError
from games.core import get_engine

#: the most games a points series may have
MAX_ROUNDS = 10


class SeriesOptions(BaseModel):
    """A points series as the lobby asks for it: ``rounds`` games (1-:data:`MAX_ROUNDS`), scored together."""

    rounds: int = Field(ge=1, le=MAX_ROUNDS)


#: the longest ``starts_in``, in minutes (a week)
MAX_STARTS_IN = 7 * 24 * 60


class Booking(BaseModel):
    """A lobby booked for later (``/newgame ... starts_in:``): it opens ``starts_in`` minutes from now, at least 1
    and at most a week (:data:`MAX_STARTS_IN`). Discord's client keeps to the command's declared range; this is
    the check when a request does not (a past time would open at once, as a missed one does)."""

    starts_in: int = Field(ge=1, le=MAX_STARTS_IN)


def validate_starts_in(minutes: Any) -> int:
    """``starts_in`` checked with :class:`Booking`. Raises ``TableError`` ``table.option.*`` (e.g.
    ``greater_than_equal`` with ``name="starts_in"``, ``limit=1``)."""
    try:
        return Booking.model_validate({"starts_in": minutes}).starts_in
    except ValidationError as exc:
        raise option_error(exc) from exc


def validate_options(game: str, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` checked with the engine's ``Options`` of ``game`` in ``mode`` -> the JSON-safe options to store
    (defaults filled in). Raises ``TableError``: ``table.unknown_game``, ``table.unknown_options`` (a name the
    model does not have: ``names``, ``known``), ``table.option.*`` / ``table.bad_options`` (see
    :func:`option_error`)."""
    try:
        engine = get_engine(game, mode)
    except KeyError:
        raise TableError("table.unknown_game", game=game, mode=mode) from None
    unknown = sorted(set(options) - set(engine.Options.model_fields))
    if unknown:
        raise TableError("table.unknown_options", names=", ".join(unknown),
                         known=", ".join(engine.Options.model_fields) or "-")
    try:
        return engine.Options.model_validate(options).model_dump(mode="json")
    except ValidationError as exc:
        raise option_error(exc) from exc


def validate_rounds(rounds: Any) -> int:
    """A series length checked with :class:`SeriesOptions`. Raises ``TableError`` ``table.option.*`` (e.g.
    ``less_than_equal`` with ``name="rounds"``, ``limit=10``)."""
    try:
        return SeriesOptions.model_validate({"rounds": rounds}).rounds
    except ValidationError as exc:
        raise option_error(exc) from exc


#: pydantic error types put in our own words (``table.option.<type>``), and the limit each names
_LIMITS = {"less_than_equal": "le", "less_than": "lt", "greater_than_equal": "ge", "greater_than": "gt"}


def option_error(exc: ValidationError) -> TableError:
    """The first problem of bad options in the project's words, naming the real limit (``table.option.*`` with
    ``name``, ``value`` and ``limit`` or ``allowed``); a game's own refusal, a ``PydanticCustomError`` whose type
    is a catalogue key (``asesino_social.option.unknown_role``), as that key with ``name`` and its context;
    ``table.bad_options`` (``detail``) for any other kind."""
    error = exc.errors()[0]
    name = ".".join(str(part) for part in error["loc"]) or "-"
    context = error.get("ctx") or {}
    value = error.get("input")
    if error["type"] in _LIMITS:
        return TableError(f"table.option.{error['type']}", name=name, value=value,
                          limit=context.get(_LIMITS[error["type"]]))
    if error["type"] == "literal_error":
        return TableError("table.option.literal_error", name=name, value=value,
                          allowed=str(context.get("expected", "")).replace("'", ""))
    if error["type"] in ("int_parsing", "int_from_float", "int_type"):
        return TableError("table.option.whole_number", name=name, value=value)
    if "." in error["type"]:  # a game's own refusal (a PydanticCustomError typed with its catalogue key)
        return TableError(error["type"], name=name, **{k: str(v) for k, v in context.items()})
    return TableError("table.bad_options", detail=f"{name}={value}")
