"""The DMs the bot missed: Discord does not replay a message sent while the bot was down (a deploy, a crash) or while
its gateway was disconnected, so a Killer's route sent then would be lost without a word. Each time the gateway is
ready (:meth:`MissedDMs.on_ready`), the process that receives DMs (shard 0's) reads back, for every person a running
game waits on whose DM that game takes (:meth:`bot.ui.GameUI.accepts_dm`), the messages they sent in their DM
channel after the bot's own latest message there (at most :data:`READ_BACK`, oldest first), and hands each to the
DM handler as if it had just arrived: the route is taken, or refused with its reason, in the same DM.

A message is handled once per process however it arrives (read back, or live while the read-back runs):
:meth:`MissedDMs.first_time`. One REST call per such person to open the DM channel and one to read it, at each
ready.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.ui import ui_for

if TYPE_CHECKING:
    from bot.app import Coroner

log = logging.getLogger(__name__)
#: the most messages read back from one person's DM channel
READ_BACK = 10
#: the DM message ids remembered as handled (the newest)
REMEMBERED = 1_000


class MissedDMs:
    """Reads back missed DMs for ``handle`` (the DM handler, :meth:`bot.cogs.dm.cog.DirectMessages.on_message`)
    and remembers the DMs already handled (see the module)."""

    def __init__(self, bot: Coroner, handle: Callable[[discord.Message], Awaitable[None]]) -> None:
        self.bot = bot
        self.handle = handle
        self._order: deque[int] = deque()
        self._handled: set[int] = set()

    def first_time(self, message: discord.Message) -> bool:
        """Whether ``message`` was not handled yet in this process (and from now on it counts as handled)."""
        if message.id in self._handled:
            return False
        self._handled.add(message.id)
        self._order.append(message.id)
        while len(self._order) > REMEMBERED:
            self._handled.discard(self._order.popleft())
        return True

    async def on_ready(self) -> None:
        """Read back the DMs missed (see the module); a failure leaves the rest to be read."""
        shards = getattr(self.bot, "shard_ids", None)
        if shards is not None and 0 not in shards:
            return  # DMs arrive on shard 0 only: its process reads them back
        try:
            users = await self.awaited()
        except Exception:  # noqa: BLE001 - the database is away: nothing to read back now
            log.warning("could not list the DMs games wait on", exc_info=True)
            return
        for user_id in users:
            try:
                missed = await self.missed_from(user_id)
            except discord.HTTPException:
                log.warning("could not read back the DMs of %s", user_id, exc_info=True)
                continue
            for message in missed:
                await self.handle(message)

    async def awaited(self) -> list[int]:
        """The people (Discord ids, each once) a running game waits on and takes a DM from now."""
        users: dict[int, None] = {}
        for table in await self.bot.tables.open_tables():
            if table.status != "active" or table.state is None:
                continue
            waiting = table.engine.waiting(table.state)
            ui = ui_for(table.game, table.mode)
            for seat in waiting.seats if waiting is not None else ():
                user_id = table.user_of(seat)
                if user_id is not None and ui.accepts_dm(table, seat):
                    users[user_id] = None
        return list(users)

    async def missed_from(self, user_id: int) -> list[discord.Message]:
        """What ``user_id`` sent in their DM channel after the bot's latest message there, oldest first (at most
        :data:`READ_BACK`). Raises ``discord.HTTPException``."""
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        missed: list[discord.Message] = []
        async for message in channel.history(limit=READ_BACK):
            if message.author.bot:
                break
            missed.append(message)
        return missed[::-1]
