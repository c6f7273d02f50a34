"""The lobby half of the table service: open, join, leave, options, start, cancel, expire, series.

Every change takes the game's lock and the version guard (lobby messages carry the version too), so joins
racing in another process end as ``table.stale`` rather than a corrupt seat list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game
from bot.db.repos import games, scores, timers
from bot.i18n import t
from bot.tables.model import LOBBY_EXPIRE, Table, TableError, TableSeat, to_table
from bot.tables.options import validate_options, validate_rounds
from games.core import HOST_SEAT, Event, IllegalAction, SeatInfo
from games.core.controls import NAME_LENGTH

if TYPE_CHECKING:
    from cachetools import LRUCache

    from bot.db.repos.outbox import Claim
    from bot.tables.model import TimerInfo
    from bot.tables.outbox import Deliverer, Handoff


class LobbyMixin:
    """Lobby operations of :class:`bot.tables.service.TableService` (which provides the plumbing below)."""

    _sessions: async_sessionmaker[AsyncSession]
    _clock: Callable[[], datetime]
    _loaded: LRUCache[int, tuple[Table, int]]
    #: per lobby, when it expires (its ``lobby_expire`` timer's due time, which never moves; None: never), as this
    #: process armed or last read it: :meth:`lobby_expires`
    _expiry: LRUCache[int, datetime | None]
    deliverer: Deliverer

    if TYPE_CHECKING:
        def lock(self, game_id: int) -> asyncio.Lock: ...
        async def _read(self, session: AsyncSession, game_id: int) -> tuple[Game, Table]: ...
        async def _commit_guarded(self, session: AsyncSession, table: Table, *, claim: bool = ...,
                                  **values: Any) -> Claim | None: ...
        async def _record(self, session: AsyncSession, table: Table, events: list[Event],
                          kind: str = ..., *, claim: Claim | None = ...) -> Handoff: ...
        async def _send(self, handoff: Handoff) -> None: ...
        async def load(self, game_id: int) -> Table: ...
        def new_seed(self) -> int: ...
        async def pending_timers(self, game_id: int) -> list[TimerInfo]: ...
        async def act(self, game_id: int, user_id: int | None, action: dict[str, Any], *,
                      seat: int | None = ..., manager: bool = ...) -> Any: ...

    async def open_lobby(self, guild_id: int, channel_id: int, host_id: int, game: str, mode: str,
                         options: dict[str, Any] | None = None, language: str = "en", *,
                         series_id: int | None = None, rounds: int | None = None,
                         host_names: list[str] | None = None, expires_at: datetime | None = None) -> Table:
        """Open a lobby, in one transaction with the host's seat (when ``host_names`` is given; otherwise nobody
        is seated yet), its ``lobby_expire`` timer (when ``expires_at`` is given) and, with ``rounds``, a new
        points series of that many games whose first round it is (a later round passes its ``series_id``
        instead), so a refused lobby leaves no series behind. ``options`` are validated with the engine's
        ``Options``, ``rounds`` with :class:`~bot.tables.options.SeriesOptions`. Raises ``TableError``:
        ``table.unknown_game``, ``table.bad_options``, ``table.option.*``, ``table.channel_busy`` (the channel
        already has a lobby or a running game)."""
        assert rounds is None or series_id is None, "a lobby opens a new series or plays a round of one, not both"
        clean = validate_options(game, mode, options or {})
        rounds = None if rounds is None else validate_rounds(rounds)
        now = self._clock()
        async with self._sessions() as session, session.begin():
            if await games.active_game_in_channel(session, channel_id) is not None:
                raise TableError("table.channel_busy", channel_id=channel_id)
            if rounds is not None:
                series_id = (await scores.create_series(session, guild_id, channel_id, game, mode, rounds, now)).id
            row = Game(game=game, mode=mode, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                       status="lobby", options=clean, version=0, language=language, series_id=series_id,
                       created_at=now, updated_at=now)
            session.add(row)
            await session.flush()
            game_id = row.id
            if host_names is not None:
                await games.add_seat(session, game_id, host_id, host_names, now)
            if expires_at is not None:
                await timers.schedule(session, game_id, LOBBY_EXPIRE, expires_at, {}, 0)
            seats = () if host_names is None else (TableSeat(0, host_id, tuple(host_names)),)
            table = replace(to_table(row, []), seats=seats)
        self._expiry[game_id] = expires_at
        self._loaded[game_id] = (table, self.deliverer.mark(game_id))  # (the first join reads nothing)
        return table

    async def _on_lobby(self, game_id: int, change: Callable[[AsyncSession, Table, int], Awaitable[Table]]) -> Table:
        """Run ``change(session, lobby, mark)`` (its checks and writes, the version guard among them: it returns
        the lobby as its commit leaves it) in one transaction under the game's lock: on the lobby as this process
        last read or changed it, with no read, while nothing this process wrote about the game since (the
        deliverer's ``mark``, also passed); when refused there, or when the guard finds the lobby moved on (another
        process changed it), again on the lobby read anew, so a refusal is always the one the lobby as it is
        gives. The result is remembered for the next change (a join after the lobby's refresh reads nothing)."""
        async with self.lock(game_id):
            mark = self.deliverer.mark(game_id)
            known = self._loaded.get(game_id)
            result = None
            if known is not None and known[0].status == "lobby" and known[1] == mark:
                try:
                    async with self._sessions() as session, session.begin():
                        result = await change(session, known[0], mark)
                except (TableError, IllegalAction, IntegrityError):
                    result = None  # moved on since, or refused on it: checked again on the lobby as it is now
            if result is None:
                async with self._sessions() as session, session.begin():
                    _, table = await self._read(session, game_id)
                    result = await change(session, table, mark)
            self._loaded[game_id] = (result, mark)
        return result

    async def join(self, game_id: int, user_id: int, names: list[str]) -> Table:
        """Seat ``user_id`` last; the first person seated in a lobby with none (its host left) hosts it, so the
        lobby can still start. Raises ``TableError``: ``table.already_started``, ``table.not_active``
        (finished/cancelled), ``table.already_joined``, ``table.full``, ``table.stale``."""
        async def seat(session: AsyncSession, table: Table, _mark: int) -> Table:
            self._check_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("table.already_joined")
            limit = table.engine.mode.max_players
            if len(table.seats) >= limit:
                raise TableError("table.full", max=limit)
            host = table.host_id if table.user_ids() else user_id
            await self._commit_guarded(session, table, host_id=host)
            await games.add_seat(session, game_id, user_id, names, self._clock())
            return self._seated(table, user_id, names, host_id=host)

        return await self._on_lobby(game_id, seat)

    def _seated(self, table: Table, user_id: int | None, names: list[str], **values: Any) -> Table:
        """The lobby ``table`` as a committed join (or a computer player's seat) of ``user_id`` left it: one more
        seat, the next version (as a read of it would find it, with no read)."""
        seat = TableSeat(len(table.seats), user_id, tuple(names))
        return replace(table, seats=(*table.seats, seat), version=table.version + 1, updated_at=self._clock(),
                       **values)

    async def lobby_expires(self, game_id: int) -> datetime | None:
        """When the open lobby ``game_id`` expires: its ``lobby_expire`` timer's due time (None: it has none). Read
        once per process (a lobby's expiry never moves once armed; this process remembers the ones it opens), so
        a lobby's every render costs no read; ask only while the lobby is open (a closed one's timer is gone)."""
        if game_id not in self._expiry:
            found = [t.due_at for t in await self.pending_timers(game_id) if t.kind == "lobby_expire"]
            self._expiry[game_id] = found[0] if found else None
        return self._expiry[game_id]

    async def leave(self, game_id: int, user_id: int) -> Table:
        """Unseat ``user_id`` from a lobby (later seats move up; a leaving host hands over to the first person
        left; when no person is left, the AI seats go too: a game needs a person). Raises ``TableError``:
        ``table.already_started``, ``table.not_active``, ``table.not_a_player``."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            self._check_lobby(table)
            if table.seat_of(user_id) is None:
                raise TableError("table.not_a_player", game_id=game_id)
            await self._unseat(session, table, user_id)
        return await self.load(game_id)

    async def _unseat(self, session: AsyncSession, table: Table, user_id: int) -> None:
        """Remove the seated person ``user_id`` from the lobby ``table`` (:meth:`leave` and :meth:`kick`): the
        host passes to the first person left when ``user_id`` hosted it; when no person is left, the AI seats go
        too (a game needs a person)."""
        others = [uid for uid in table.user_ids() if uid != user_id]
        host = others[0] if user_id == table.host_id and others else table.host_id
        await self._commit_guarded(session, table, host_id=host)
        await games.remove_seat(session, table.id, user_id)
        if not others:  # only AI seats are left, numbered from 0 now
            for seat in reversed(range(len(table.ai_seats()))):
                await games.remove_seat(session, table.id, seat=seat)

    async def add_ai(self, game_id: int, by_user_id: int) -> Table:
        """Seat a computer player last, named in the lobby's language and numbered (``lobby.ai_name``: "AI 1",
        "AI 2"...). Host only (see :meth:`_check_host`), up to the mode's maximum. Raises ``TableError``:
        ``table.host_only``,
        ``table.already_started``, ``table.not_active``, ``table.full``, ``table.stale``."""
        async def seat(session: AsyncSession, table: Table, _mark: int) -> Table:
            self._check_lobby(table)
            self._check_host(table, by_user_id)
            limit = table.engine.mode.max_players
            if len(table.seats) >= limit:
                raise TableError("table.full", max=limit)
            await self._commit_guarded(session, table)
            name = t("lobby.ai_name", table.language, number=len(table.ai_seats()) + 1)
            await games.add_seat(session, game_id, None, [name], self._clock())
            return self._seated(table, None, [name])

        return await self._on_lobby(game_id, seat)

    async def remove_ai(self, game_id: int, by_user_id: int) -> Table:
        """Unseat the last computer player (later seats move up). Host only (see :meth:`_check_host`). Raises
        ``TableError``:
        ``table.host_only``, ``table.no_ai_seat``, ``table.already_started``, ``table.not_active``,
        ``table.stale``."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            self._check_lobby(table)
            self._check_host(table, by_user_id)
            if not table.ai_seats():
                raise TableError("table.no_ai_seat")
            await self._commit_guarded(session, table)
            await games.remove_seat(session, game_id, seat=table.ai_seats()[-1])
        return await self.load(game_id)

    async def update_options(self, game_id: int, options: dict[str, Any]) -> Table:
        """Replace a lobby's options (validated like :meth:`open_lobby`)."""
        return await self._on_lobby(game_id, lambda session, table, _: self._set_options(session, table, options))

    async def change_options(self, game_id: int, by_user_id: int, options: dict[str, Any]) -> Table:
        """The host replaces the lobby's options (validated like :meth:`open_lobby`; the lobby's Options form).
        Raises ``TableError``: ``table.host_only``, ``table.already_started``, ``table.not_active``,
        ``table.option.*`` / ``table.unknown_options`` / ``table.bad_options`` (see
        :func:`bot.tables.options.validate_options`)."""
        async def change(session: AsyncSession, table: Table, _mark: int) -> Table:
            self._check_lobby(table)
            self._check_host(table, by_user_id)
            return await self._set_options(session, table, options)

        return await self._on_lobby(game_id, change)

    async def _set_options(self, session: AsyncSession, table: Table, options: dict[str, Any]) -> Table:
        """Write ``options`` (validated) on the lobby ``table``; the lobby as that leaves it (no read)."""
        self._check_lobby(table)
        clean = validate_options(table.game, table.mode, options)
        await self._commit_guarded(session, table, options=clean)
        return replace(table, options=clean, version=table.version + 1, updated_at=self._clock())

    async def start(self, game_id: int, by_user_id: int, *, seed: int | None = None) -> Table:
        """Deal the game (``engine.setup``) and deliver ``engine.intro`` events. Host only; the seat count must
        be within the mode's limits, one of them a person. Raises ``TableError``: ``table.host_only``,
        ``table.needs_person``, ``table.bad_count``,
        ``table.already_started``, ``table.not_active``, ``table.stale``; ``IllegalAction`` from setup."""
        handoffs: list[Handoff] = []

        async def deal(session: AsyncSession, table: Table, mark: int) -> Table:
            self._check_lobby(table)
            if by_user_id != table.host_id:
                raise TableError("table.host_only")
            if not table.user_ids():
                raise TableError("table.needs_person")
            mode = table.engine.mode
            if not mode.min_players <= len(table.seats) <= mode.max_players:
                raise TableError("table.bad_count", count=len(table.seats), min=mode.min_players,
                                 max=mode.max_players)
            engine = table.engine
            state = engine.setup(engine.Options.model_validate(table.options),
                                 [SeatInfo(names=s.names) for s in table.seats], drawn)
            started = replace(table, status="active", seed=drawn, state=state, version=table.version + 1,
                              updated_at=self._clock())
            claim = await self._commit_guarded(session, table, claim=True, status="active", seed=drawn,
                                               state=engine.dump_state(state), started_at=self._clock(),
                                               decision_opened=started.decision_opened)
            # the lobby's expiry has nothing left to close: disarmed here, it never wakes the timer loop (a claim,
            # a load and a no-op handler later); a scheduled lobby's is armed at its opening version
            if self._expiry.get(game_id, self._clock()) is not None:  # (known to have none: no statement)
                await timers.disarm_superseded(session, game_id, (LOBBY_EXPIRE,), started.version, self._clock())
            # (with the mark before the read: the deal is shown as handed over, reading nothing back)
            handoffs[:] = [replace(await self._record(session, started, engine.intro(state), "start", claim=claim),
                                   mark=mark)]
            return started  # (remembered: the first move's control is drawn on it, :meth:`recent`)

        drawn = self.new_seed() if seed is None else seed
        table = await self._on_lobby(game_id, deal)
        await self._send(handoffs[0])
        return table

    async def cancel(self, game_id: int, by_user_id: int, *, is_manager: bool, by_name: str = "") -> Table:
        """Cancel a lobby or a running game: its host or a server manager only. Pending timers are disarmed. A
        running game is cancelled by an action of the game (:class:`games.core.controls.CloseGame` by ``by_name``,
        through :meth:`act`: logged, replayed, shown in the history; the table reveals what a finished game does).
        Raises ``TableError``: ``table.host_or_manager``, ``table.not_active`` (already over)."""
        table = await self.load(game_id)
        check_cancel(table, by_user_id, is_manager=is_manager)
        if table.status == "active":
            close = {"type": "close", "at": self._clock().isoformat(), "by": by_name[:NAME_LENGTH] or "?"}
            try:
                await self.act(game_id, by_user_id, close, manager=is_manager)
            except IllegalAction as exc:  # (finished meanwhile)
                raise TableError("table.not_active", game_id=game_id) from exc
            return await self.load(game_id)
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            check_cancel(table, by_user_id, is_manager=is_manager)
            if table.status != "lobby":  # started meanwhile: cancelled as a running game
                raise TableError("table.stale", game_id=game_id)
            await self._close(session, table, "cancelled")
        return await self.load(game_id)

    async def cancel_by_bot(self, game_id: int, by_name: str) -> Table | None:
        """The bot itself cancels game ``game_id`` because nothing of it can be shown any more (its channel was
        deleted, the bot left its server): a running game by the game's own cancel, as :meth:`cancel` does but sent
        by the bot as ``HOST_SEAT`` (``CloseGame`` by ``by_name``: logged, in its history); a lobby or a booked lobby
        (``scheduled``) closed. Every timer of the game is disarmed. The game as it ended, or None when it was over
        already (or ended meanwhile). Raises ``TableError("table.not_found")``."""
        table = await self.load(game_id)
        if table.status == "active":
            close = {"type": "close", "at": self._clock().isoformat(), "by": by_name[:NAME_LENGTH] or "?"}
            try:
                await self.act(game_id, None, close, seat=HOST_SEAT)
            except (IllegalAction, TableError):  # finished (or cancelled) meanwhile
                return None
            return await self.load(game_id)
        if table.status not in ("lobby", "scheduled"):
            return None
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            if table.status in ("lobby", "scheduled"):
                await self._close(session, table, "cancelled")
        if table.status == "active":  # started meanwhile: cancelled as a running game
            return await self.cancel_by_bot(game_id, by_name)
        return await self.load(game_id) if table.status in ("lobby", "scheduled") else None

    async def kick(self, game_id: int, by_user_id: int, user_id: int, *, is_manager: bool = False) -> Table:
        """The host (or a server manager, ``is_manager``, as for the host's other powers) removes ``user_id`` from
        the lobby before the start (later seats move up; nobody removes themselves: they leave). As when they
        leave (:meth:`leave`), a removed host hands over to the first person left, and removing the last person
        takes the AI seats too: a stale Remove select can name the host now. Raises
        ``TableError``: ``table.host_only``, ``table.already_started``, ``table.not_active``, ``table.not_a_player``
        (``user_id`` is not seated), ``table.kick_self``."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            self._check_lobby(table)
            if not is_manager:
                self._check_host(table, by_user_id)
            if user_id == by_user_id:
                raise TableError("table.kick_self")
            if table.seat_of(user_id) is None:
                raise TableError("table.not_a_player", game_id=game_id)
            await self._unseat(session, table, user_id)
        return await self.load(game_id)

    async def expire(self, game_id: int) -> Table:
        """Cancel a lobby that timed out (no-op for a game that already started or ended)."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            if table.status == "lobby":
                await self._close(session, table, "cancelled")
        return await self.load(game_id)

    async def _close(self, session: AsyncSession, table: Table, status: str) -> None:
        now = self._clock()
        await self._commit_guarded(session, table, status=status, finished_at=now)
        await timers.disarm_game(session, table.id, now)

    @staticmethod
    def _check_lobby(table: Table) -> None:
        if table.status == "active":
            raise TableError("table.already_started", game_id=table.id)
        if table.status != "lobby":
            raise TableError("table.not_active", game_id=table.id)

    @staticmethod
    def _check_host(table: Table, user_id: int) -> None:
        """Refuse ``user_id`` unless they host ``table``: a lobby with no person seated has no host until someone
        joins (who then hosts it, :meth:`join`), so a host who left cannot fill it with computer players. Raises
        ``TableError("table.host_only")``."""
        if user_id != table.host_id or not table.user_ids():
            raise TableError("table.host_only")


def check_cancel(table: Table, user_id: int, *, is_manager: bool) -> None:
    """Refuse ``user_id`` cancelling ``table`` unless they host it or manage the server (``is_manager``) and it is
    still open (the check the confirmation asks before it is shown, and the cancel itself). Raises ``TableError``:
    ``table.not_active``, ``table.host_or_manager``."""
    if not table.is_open:
        raise TableError("table.not_active", game_id=table.id)
    if user_id != table.host_id and not is_manager:
        raise TableError("table.host_or_manager")
