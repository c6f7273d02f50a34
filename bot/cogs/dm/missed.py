"""The DMs the bot missed: Discord does not replay a message sent while the bot was down (a deploy, a crash) or while
its gateway was disconnected, so a Killer's route sent then would be lost without a word. Each time the gateway is
ready (:meth:`MissedDMs.on_ready`), the process that receives DMs (shard 0's) reads back, for every person a running
game waits on whose DM that game takes (:meth:`bot.ui.GameUI.accepts_dm`), the messages they sent in their DM
channel after the bot's own latest message there and after the game's table last changed (at most
:data:`READ_BACK`, oldest first), and hands each to the DM handler as if it had just arrived: the route is taken, or
refused with its reason, in the same DM. The table's change is the time Discord gives its table message (posted or
last edited, one REST read per game): a DM the bot took made a step, which edited the table after it, but got no
DM answer (an accepted route is acknowledged by the table alone), so without that bound the Killer's accepted route
stayed the newest message of the DM channel and was read back and handled again at every restart during a later
turn of theirs. A DM sent while the bot was down and overtaken at the start by a step of the game's own clock (a
timer due meanwhile) is therefore not read back: it is lost as before, not replayed out of its time.

A message is handled once per process however it arrives (read back, or live while the read-back runs):
:meth:`MissedDMs.first_time`. One REST call per such game to read its table message, and per such person
one to open the DM channel and one to read it, at each ready.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.ui import ui_for

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

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
        for user_id, since in users.items():
            try:
                missed = await self.missed_from(user_id, since)
            except discord.HTTPException:
                log.warning("could not read back the DMs of %s", user_id, exc_info=True)
                continue
            for message in missed:
                await self.handle(message)

    async def awaited(self) -> dict[int, datetime | None]:
        """The people (Discord ids) a running game waits on and takes a DM from now, each with when the earliest of
        those games' table messages last changed (None: unknown, every DM since the bot's last one counts)."""
        users: dict[int, datetime | None] = {}
        for table in await self.bot.tables.open_tables():
            if table.status != "active" or table.state is None:
                continue
            waiting = table.engine.waiting(table.state)
            ui = ui_for(table.game, table.mode)
            seats = [seat for seat in (waiting.seats if waiting is not None else ())
                     if table.user_of(seat) is not None and ui.accepts_dm(table, seat)]
            if not seats:
                continue
            changed = await self.table_changed(table)
            for user_id in {table.user_of(seat) for seat in seats}:
                earlier = users.get(user_id, changed) if user_id is not None else None
                if user_id is not None:
                    users[user_id] = None if earlier is None or changed is None else min(earlier, changed)
        return users

    async def table_changed(self, table: Table) -> datetime | None:
        """When Discord says ``table``'s table message was posted or last edited (None: it has none, or it cannot
        be read)."""
        if table.table_message_id is None:
            return None
        try:
            message = await self.bot.get_partial_messageable(table.channel_id).fetch_message(table.table_message_id)
        except discord.HTTPException:
            return None
        return message.edited_at or message.created_at

    async def missed_from(self, user_id: int, since: datetime | None = None) -> list[discord.Message]:
        """What ``user_id`` sent in their DM channel after the bot's latest message there and after ``since``,
        oldest first (at most :data:`READ_BACK`). Raises ``discord.HTTPException``."""
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        missed: list[discord.Message] = []
        async for message in channel.history(limit=READ_BACK):
            if message.author.bot or (since is not None and message.created_at <= since):
                break
            missed.append(message)
        return missed[::-1]
