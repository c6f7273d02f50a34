"""Who may make a move on a table, from the table's facts (:func:`admit`), and the gates a view passes before it
shows a player their controls (:class:`GateMixin`, :class:`bot.tables.service.TableService`'s part); who may move
now by the game's rules is the engine's (:meth:`games.core.Engine.check_actor`)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.tables.model import Table, TableError
from games.core import HOST_SEAT, SYSTEM_SEAT, Engine, Event, Waiting


def timeout_announcement(engine: Engine, state: Any, seat: int) -> list[Event]:
    """The public events that announce the bot's move for ``seat`` after a time limit, the game being at ``state``
    before it: "the bot moved for <seat>" (``turn.auto``), or for the game's own clock (``SYSTEM_SEAT``, e.g. a
    response window closing) one line naming everyone it passed for (``turn.clock``; none when nobody was
    late)."""
    if seat == SYSTEM_SEAT:
        late = engine.to_act(state)
        return [Event(key="turn.clock", params={"seats": late})] if late else []
    return [Event(key="turn.auto", params={"seat": seat})]


def admit(table: Table, *, user_id: int | None, seat: int | None, expected_version: int | None,
          host_action: bool = False, manager: bool = False) -> int:
    """The seat acting on ``table`` (the table's facts only; who may move now is the engine's,
    :meth:`games.core.Engine.check_actor`): ``seat`` when the bot acts for it (``SYSTEM_SEAT`` and ``HOST_SEAT``
    included); else, for the person ``user_id``, ``HOST_SEAT`` when they host the table (or manage the server:
    ``manager``) and the move is one of the game's host actions (``host_action``), otherwise their seat. Raises
    ``TableError``: ``table.not_active``, ``table.not_a_player``, ``seat.error.away`` (the computer plays their
    seat: "I'm back" first), ``table.bad_seat``, ``table.stale`` (in that order; stale: ``expected_version``, the
    version a control was drawn at, is for a decision that has closed, :meth:`Table.stands`)."""
    if table.status != "active":
        raise TableError("table.not_active", game_id=table.id)
    if seat is None:
        if host_action and user_id is not None and (user_id == table.host_id or manager):
            seat = HOST_SEAT
        else:
            seat = table.seat_of(user_id) if user_id is not None else None
            if seat is None:
                raise TableError("table.not_a_player", game_id=table.id)
            if user_id is not None and table.away_seat_of(user_id) is not None:
                raise TableError("seat.error.away", game_id=table.id)
    elif seat not in (SYSTEM_SEAT, HOST_SEAT) and not table.has_seat(seat):
        raise TableError("table.bad_seat", seat=seat)
    if expected_version is not None and not table.stands(expected_version):
        raise TableError("table.stale", game_id=table.id)
    return seat


class GateMixin:
    """The gates of :class:`bot.tables.service.TableService` (static: the table's facts and the engine only)."""

    @staticmethod
    def check_turn(table: Table, user_id: int, expected_version: int | None) -> tuple[int, Waiting]:
        """The seat of ``user_id`` and what the game waits on, when it waits on them for the decision a control
        drawn at ``expected_version`` was for: the gate a view passes before it shows a player the controls of their
        move (:meth:`act`'s table checks, then the engine's own refusal of the actor,
        :meth:`games.core.Engine.check_actor`). Raises ``TableError`` (``table.not_active``,
        ``table.not_a_player``, ``table.stale``) or ``IllegalAction`` (``core.game_over``, ``core.not_your_turn``,
        or the game's own word, e.g. ``verdugo.dead``)."""
        seat = admit(table, user_id=user_id, seat=None, expected_version=expected_version)
        table.engine.check_actor(table.state, seat)
        waiting = table.engine.waiting(table.state)
        assert waiting is not None  # check_actor refuses a game that waits on nobody
        return seat, waiting

    @staticmethod
    def check_move(table: Table, user_id: int, action: dict[str, Any], expected_version: int | None) -> int:
        """The seat ``user_id`` would make ``action`` (JSON) as (``HOST_SEAT`` for the host's host action), when
        :meth:`act` would let them now: its table checks and the engine's refusal of that actor
        (:meth:`games.core.Engine.check_actor`), without moving (e.g. before a slow move is acknowledged). Raises as
        :meth:`check_turn` does, and ``table.bad_action`` for malformed JSON."""
        engine = table.engine
        seat = admit(table, user_id=user_id, seat=None, expected_version=expected_version,
                     host_action=engine.is_host_action(action.get("type")))
        try:
            parsed = engine.parse_action(action)
        except ValidationError as exc:
            raise TableError("table.bad_action", game_id=table.id) from exc
        engine.check_actor(table.state, seat, parsed)
        return seat
