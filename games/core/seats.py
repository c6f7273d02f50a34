"""Who plays a seat: the changes of hands every game shares, as actions of the game (logged, replayed, shown in the
history like any move) that leave the game's own state as it is (issue 24).

* :class:`SeatAway`: after the server's number of timeouts in a row the computer plays the seat (sent by the
  game's own clock, ``SYSTEM_SEAT``).
* :class:`SeatBack`: the seat's player takes it back ("I'm back"; sent by that seat).
* :class:`SeatReplaced`: the host hands the seat to someone else (``to="person"``, with the newcomer's names) or to
  the computer (``to="computer"``, with a computer player's name; sent by ``HOST_SEAT``), and the names the seat
  had: from then on the seat goes by the new names, in the history too (which shows the old ones until then).

The engine contract checks who sends them and that the game goes on (:meth:`games.core.Engine.apply`). Who may
send which change to which seat, and when a game is left to the computer (abandoned), are the rules here
(:func:`seat_change_refusal`, :func:`abandoned`), over what the table knows of each seat (a :class:`Hold`:
a person, maybe away, or a computer player; never a Discord id). Their events are public: ``seat.away``,
``seat.back``, ``seat.replaced.person`` / ``seat.replaced.computer`` (``was``: the seat's name before), with
``seat``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.core.controls import NAME_LENGTH

#: the outcome reason of a game every person left to the computer: no winner, no scores, no leaderboard
ABANDONED = "table.abandoned"
#: the most names a seat goes by (display name, user name, global name, nickname)
MAX_NAMES = 4
Names = Annotated[tuple[Annotated[str, Field(max_length=NAME_LENGTH)], ...], Field(max_length=MAX_NAMES)]


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
    """The host gives ``seat`` to another person (``names``: theirs, display name first) or to the computer
    (``names``: the computer player's; none in a game logged before they were given: the seat kept its names);
    ``was``: the names the seat went by until then (the table fills them in)."""

    type: Literal["seat_replaced"] = "seat_replaced"
    to: Literal["person", "computer"]
    names: Names = ()
    was: Names = ()


SeatChange = Annotated[SeatAway | SeatBack | SeatReplaced, Field(discriminator="type")]
SEAT_CHANGES: frozenset[str] = frozenset({"seat_away", "seat_back", "seat_replaced"})
#: the keys of their public events (:func:`seat_change_key`)
SEAT_EVENTS: frozenset[str] = frozenset({"seat.away", "seat.back", "seat.replaced.person", "seat.replaced.computer"})
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


def seat_change_event_params(action: Any) -> dict[str, Any]:
    """The public event's parameters of a seat change: ``seat``, and for a replacement ``was`` (the name the seat
    had, shown once: from this step on the seat goes by its new holder's name, or the computer player's)."""
    if isinstance(action, SeatReplaced):
        return {"seat": action.seat, "was": action.was[0] if action.was else ""}
    return {"seat": action.seat}


@dataclass(frozen=True, slots=True)
class Hold:
    """Who plays ``seat``, as the rules of seat changes see it: a ``person`` (False: a computer player), who may
    be ``away`` (the computer plays for them until they take the seat back); ``dead``: the seat is out of the game
    for good."""

    seat: int
    person: bool
    away: bool = False
    #: out of the game for good (the social mode's dead: :meth:`games.core.Engine.dead`)
    dead: bool = False

    @property
    def computer(self) -> bool:
        """The computer moves for this seat (a computer player's, or an away person's)."""
        return not self.person or self.away


def seat_change_refusal(holds: Sequence[Hold], action: dict[str, Any], *, person: bool, sender: int | None,
                        offered: bool = False, held: bool = False) -> str | None:
    """Why the seat change ``action`` (JSON, of a seat at the table) may not be made, as a catalogue key, or None
    when it may (issue 24). ``person``: a person sends it (False: the bot, for the game's clock or for the host,
    who was checked); ``sender``: the seat that person holds (None: none); ``offered``: the host's offer of this
    seat to that person stands; ``held``: that person held another seat of this game before (and knows its
    secrets).

    * ``seat_back`` ("I'm back"): only for an away seat (``seat.error.not_away``), only by its own person
      (``seat.error.not_yours``).
    * ``seat_away``: not of a seat the computer plays already (``seat.error.computer``), only by the bot
      (``core.host_only``).
    * ``seat_replaced``: never of a dead seat (``seat.error.dead``: its person keeps what the dead still do, and
      the dead role, :func:`dead_role`), nor of a computer player's (``seat.error.computer``). To the computer
      (an away person's seat too: the host gives up waiting for them), only by the bot (``core.host_only``); to a
      person (an away seat too), only by the person the offer names (``seat.error.no_offer``), who holds no seat
      yet (``seat.error.seated``) and never held another one of this game (``seat.error.held``: its secrets would
      reach the seat they take)."""
    hold = next(h for h in holds if h.seat == action.get("seat"))
    kind, to = action.get("type"), action.get("to")
    if kind == "seat_back":
        if not hold.away:
            return "seat.error.not_away"
        return None if person and sender == hold.seat else "seat.error.not_yours"
    if kind == "seat_replaced" and hold.dead:
        return "seat.error.dead"
    if not hold.person or (hold.away and kind == "seat_away"):
        return "seat.error.computer"
    if kind == "seat_replaced" and to == "person" and person:
        if not offered:
            return "seat.error.no_offer"
        if sender is not None:
            return "seat.error.seated"
        return "seat.error.held" if held else None
    return "core.host_only" if person else None


def next_host(holds: Sequence[Hold], handed: int) -> int | None:
    """The seat whose person hosts the game once the host's own seat ``handed`` went to someone else or to the
    computer (``holds``: after the change), as a lobby passes the host on when the host leaves: the first other
    seat a person plays themselves, else the first other person's (away), else the newcomer's at ``handed``; None
    when nobody is left (the game is left to the computer: it ends abandoned, :func:`abandoned`)."""
    others = [h for h in holds if h.person and h.seat != handed]
    for candidates in ([h for h in others if not h.away], others, [h for h in holds if h.person]):
        if candidates:
            return candidates[0].seat
    return None


def dead_role(before: Sequence[Hold], after: Sequence[Hold], *, over: bool) -> tuple[list[int], list[int]]:
    """Who gets the server's dead role after a step and who gives it back, as two lists of seats whose persons it
    reaches (a computer player's seat reaches nobody: the caller skips it), from the seats before and ``after``
    the step: a seat dead after it and not before gets it; once the game is ``over`` (finished or cancelled),
    every dead seat gives it back, and none gets it. A dead seat is never handed over (:func:`seat_change_refusal`),
    so whoever holds one is the person who died: they keep the role until the game ends, and a newcomer never
    takes a seat that has it."""
    if over:
        return [], [h.seat for h in after if h.dead and h.person]
    was = {h.seat for h in before if h.dead}
    return [h.seat for h in after if h.dead and h.person and h.seat not in was], []


def abandoned(holds: Iterable[Hold]) -> bool:
    """Whether a running game is left with no person playing (the computer moves for every seat): it ends then,
    not played out by the bot, with no winner and no scores (its outcome's reason :data:`ABANDONED`; issue 24)."""
    return all(h.computer for h in holds)


def names_at_start(names: Sequence[tuple[str, ...]], actions: Iterable[dict[str, Any]]) -> list[tuple[str, ...]]:
    """The names each seat was dealt under, from the names the seats go by now (``names``, by seat) and the game's
    logged actions (JSON): a seat handed over went by the ``was`` of its first replacement that renamed it."""
    out = [tuple(n) for n in names]
    seen: set[int] = set()
    for action in actions:
        if _renames(action) and action["seat"] not in seen and action.get("was"):
            seen.add(action["seat"])
            out[action["seat"]] = tuple(action["was"])
    return out


def names_after(names: Sequence[tuple[str, ...]], action: dict[str, Any]) -> list[tuple[str, ...]]:
    """The names of the seats (by seat) after the logged ``action`` (JSON): its new holder's (or computer
    player's) for a seat handed over, the same otherwise."""
    out = [tuple(n) for n in names]
    if _renames(action):
        out[action["seat"]] = tuple(action["names"])
    return out


def _renames(action: dict[str, Any]) -> bool:
    """Whether the logged ``action`` hands its seat over under new names (a computer's replacement logged before
    those were given kept the seat's)."""
    return action.get("type") == "seat_replaced" and bool(action.get("names"))
