"""Who plays a seat: the changes of hands every game shares, as actions of the game (logged, replayed, shown in the
history like any move) that leave the game's own state as it is (issue 24).

* :class:`SeatAway`: after the server's number of timeouts in a row the computer plays the seat (sent by the
  game's own clock, ``SYSTEM_SEAT``).
* :class:`SeatBack`: the seat's player takes it back ("I'm back"; sent by that seat).
* :class:`SeatReplaced`: the host hands the seat to someone else (``to="person"``) or to the computer
  (``to="computer"``; sent by ``HOST_SEAT``).

The engine contract checks who sends them and that the game goes on (:meth:`games.core.Engine.apply`); the table
knows which seats are people, computers or away, and who holds them (``bot/tables``). Their events are public:
``seat.away``, ``seat.back``, ``seat.replaced.person`` / ``seat.replaced.computer``, with ``seat``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _SeatChange(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int = Field(ge=0)


class SeatAway(_SeatChange):
    """The computer plays ``seat`` from now on: its player let their time run out too often in a row."""

    type: Literal["seat_away"] = "seat_away"


class SeatBack(_SeatChange):
    """``seat``'s player plays it again."""

    type: Literal["seat_back"] = "seat_back"


class SeatReplaced(_SeatChange):
    """The host gives ``seat`` to another person or to the computer."""

    type: Literal["seat_replaced"] = "seat_replaced"
    to: Literal["person", "computer"]


SeatChange = Annotated[SeatAway | SeatBack | SeatReplaced, Field(discriminator="type")]
SEAT_CHANGES: frozenset[str] = frozenset({"seat_away", "seat_back", "seat_replaced"})
_ADAPTER: TypeAdapter[Any] = TypeAdapter(SeatChange)


def is_seat_change(data: Any) -> bool:
    """Whether ``data`` (an action, or its JSON) is a change of who plays a seat."""
    kind = data.get("type") if isinstance(data, dict) else getattr(data, "type", None)
    return kind in SEAT_CHANGES


def parse_seat_change(data: dict[str, Any]) -> Any:
    """Validate a seat change's JSON. Raises ``pydantic.ValidationError``."""
    return _ADAPTER.validate_python(data)


def seat_change_key(action: Any) -> str:
    """The catalogue key of a seat change's public line."""
    return f"seat.replaced.{action.to}" if isinstance(action, SeatReplaced) else f"seat.{action.type[5:]}"
