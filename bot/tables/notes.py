"""What the table service writes about a game outside its moves (:class:`NotesMixin`, a part of
:class:`bot.tables.service.TableService`): where its lobby and table messages are, and the closed-DM notices. No
version bump and no lock; each tells the deliverer the game was touched (:meth:`bot.tables.outbox.Deliverer.touched`),
so a step whose table was read before is shown from the table read again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game
from bot.db.repos import games
from bot.tables.model import Table, TableError

if TYPE_CHECKING:
    from bot.tables.outbox import Deliverer


class NotesMixin:
    """The metadata writes of :class:`bot.tables.service.TableService` (which provides the attributes below)."""

    _sessions: async_sessionmaker[AsyncSession]
    _no_notices: LRUCache[int, int]
    _loaded: LRUCache[int, tuple[Table, int]]
    deliverer: Deliverer

    async def _set(self, game_id: int, **values: Any) -> int:
        """Write ``values`` on the game's row; its version (unchanged by this). Raises ``TableError``
        ("table.not_found")."""
        async with self._sessions() as session, session.begin():
            version = (await session.execute(
                update(Game).where(Game.id == game_id).values(**values).returning(Game.version))).scalar()
            if version is None:
                raise TableError("table.not_found", game_id=game_id)
        self.deliverer.touched(game_id)
        return version

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> int:
        """Record the lobby's message; the lobby's version then, so that the poster can tell whether the lobby
        changed while its message was being posted (a join or an options change meanwhile found no message to
        edit: :meth:`bot.cogs.lobby.cog.Lobby._record_lobby`). Raises ``TableError`` ("table.not_found")."""
        version = await self._set(game_id, lobby_message_id=message_id)
        known = self._loaded.get(game_id)
        if known is not None and known[0].version == version:  # what this process remembers of it, told where
            self._loaded[game_id] = (replace(known[0], lobby_message_id=message_id), self.deliverer.mark(game_id))
        return version

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        await self._set(game_id, table_message_id=message_id)

    def moved_to(self, game_id: int, message_id: int) -> None:
        """The living table of ``game_id`` is the message ``message_id`` now (``games.table_message_id``, committed
        by the living table with a step's delivery, e.g. a table posted anew): the deliverer is told the game was
        touched (a step whose table was read before is shown from the table read again), and the table this process
        remembers (:meth:`recent`), when it still held, is told where the table went and holds on, so the next move
        reads nothing (its message guard still catches another process moving the table meanwhile); so does what
        its last read found of the closed-DM notices (:meth:`dm_notices_due`). Call after the commit."""
        mark = self.deliverer.mark(game_id)
        known = self._loaded.get(game_id)
        no_notices = self._no_notices.get(game_id) == mark
        self.deliverer.touched(game_id)
        if known is not None and known[1] == mark:
            self._loaded[game_id] = (replace(known[0], table_message_id=message_id), self.deliverer.mark(game_id))
        if no_notices:
            self._no_notices[game_id] = self.deliverer.mark(game_id)

    async def dm_refused(self, game_id: int, user_id: int, *, closed: bool) -> None:
        """A DM to ``user_id`` failed (``closed``: their DMs are closed, ``dm_ok`` becomes False); the channel is
        told with the game's next public step (:meth:`dm_notices_due`), by whichever process shows it."""
        async with self._sessions() as session, session.begin():
            await games.dm_refused(session, game_id, user_id, closed=closed)
        self.deliverer.touched(game_id)

    async def dm_notices_due(self, game_id: int) -> list[int]:
        """The seats whose failed DMs the channel has not been told about yet (seat order). None, without a query,
        when this process's last read of the game found none and it wrote nothing about the game since (a failed
        DM of its own included); a notice another process's delivery recorded meanwhile is then said with a later
        step, once a read of the game sees it."""
        if game_id in self._no_notices and self._no_notices[game_id] == self.deliverer.mark(game_id):
            return []
        async with self._sessions() as session:
            return await games.dm_notices_due(session, game_id)

    async def dm_notices_said(self, game_id: int, seats: Sequence[int]) -> None:
        """The channel was told about the failed DMs of ``seats``."""
        async with self._sessions() as session, session.begin():
            await games.dm_notices_said(session, game_id, seats)
        self.deliverer.touched(game_id)
