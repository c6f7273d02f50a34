"""The running bot as its cogs and services see it: :class:`Coroner`, a typed ``AutoShardedBot`` with the
process's settings, clock, database and services, and the server settings cache.

Everything in ``bot/`` that is handed the bot types it as :class:`Coroner`. This module sits below all of them: it
imports no service, cog or handler (the services it names are the :class:`Deliveries` and :class:`Timers` protocols
here, and :class:`~bot.tables.TableService`, which knows nothing of Discord), so no import circle goes through the
bot. :class:`bot.app.Coroner`, the composition root, is the one implementation: it builds the services in its
``setup_hook`` and routes the game components and modals.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.guild_config import GuildConfig, get_config
from bot.i18n import catalog
from bot.metrics import Metrics

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

    from bot.settings import Settings
    from bot.tables import Table, TableService
    from bot.ui import Outgoing

#: a server's settings are read again after this long: a ``/config`` handled by another bot process reaches this
#: one within it
CONFIG_TTL = timedelta(seconds=60)
#: servers whose settings a process keeps at most (the least recently read go first)
CONFIG_CACHE = 5000
#: what a timer kind's handler is given: the claimed timer row (``id``, ``game_id``, ``kind``, ``payload``)
TimerHandler = Callable[[Any], Awaitable[None]]


class Timers(Protocol):
    """What cogs and services use of the timer loop (:class:`bot.timers.TimerRunner`)."""

    def on(self, kind: str, handler: TimerHandler) -> None:
        """Run ``handler`` for every due timer of ``kind``."""

    async def schedule(self, game_id: int, kind: str, due_at: datetime, payload: dict[str, Any]) -> None:
        """Arm a timer of ``kind`` for ``game_id`` at ``due_at`` (UTC) with its JSON ``payload``."""


class Pings(Protocol):
    """What the turn timers use of the living table (:class:`bot.live_table.LiveTable`)."""

    async def ping(self, table: Table, key: str = "turn.ping") -> None:
        """Mention the awaited players with the catalogue message ``key``."""

    async def on_ping_timer(self, timer: Any) -> None:
        """The handler of the ping timer a step armed."""


class Deliveries(Protocol):
    """What cogs and services use of the deliverer (:class:`bot.delivery.Delivery`)."""

    live: Pings

    @staticmethod
    async def send(channel: discord.abc.Messageable, out: Outgoing, purpose: str) -> discord.Message:
        """Send ``out`` in ``channel`` (with a nonce for ``purpose`` during a step's delivery)."""

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """The channel ``channel_id`` (from the cache, or a partial one)."""

    async def dm(self, table: Table, seat: int, out: Outgoing) -> bool:
        """DM ``out`` to ``seat``'s player; False when their DMs are closed."""

    async def show_table(self, table: Table) -> None:
        """Show the table message of ``table`` as it is now."""

    def status_message(self, table: Table, lines: list[str], public: dict[str, Any] | None = None) -> Outgoing:
        """The table message: the public view with the log ``lines``."""


class Coroner(commands.AutoShardedBot):
    """Coroner as its cogs and services see it. The services (``tables``, ``delivery``, ``timers``) and the
    database (``db_engine``, ``sessions``) are set by :class:`bot.app.Coroner` before any cog is loaded."""

    settings: Settings
    clock: Clock
    db_engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    tables: TableService
    delivery: Deliveries
    timers: Timers
    #: counted from the start; served at ``/metrics`` when ``METRICS_PORT`` is set
    metrics: Metrics

    def __init__(self, settings: Settings, *, clock: Clock | None = None, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True  # the Killer's route and Farewell Letters arrive by DM (content is sent in DMs)
        metrics = Metrics(settings.shard_ids, settings.shard_count)
        super().__init__(
            http_trace=metrics.http_trace(),
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            help_command=None,
            **{"guild_ready_timeout": settings.guild_ready_seconds, **options},
        )
        self.settings = settings
        self.metrics = metrics
        self.clock = clock or Clock()
        self._configs: dict[int, tuple[GuildConfig, datetime]] = {}  # guild id -> its settings, when read
        self.synced_commands: int | None = None  # how many commands the last sync registered (None: no sync)

    # --- per-guild settings -------------------------------------------------------------------------------
    async def config(self, guild_id: int | None) -> GuildConfig:
        """The guild's settings (defaults outside a guild), cached for :data:`CONFIG_TTL` (or until
        :meth:`forget_config`), for at most :data:`CONFIG_CACHE` servers."""
        if guild_id is None:
            return GuildConfig()
        now = self.clock.now()
        cached = self._configs.pop(guild_id, None)  # popped and put back: the dict is in order of use
        if cached is None or now - cached[1] >= CONFIG_TTL:
            async with self.sessions() as session:
                cached = (await get_config(session, guild_id), now)
        self._configs[guild_id] = cached
        while len(self._configs) > CONFIG_CACHE:
            del self._configs[next(iter(self._configs))]
        return cached[0]  # never re-read the cache: a /config in between may have just emptied it

    def forget_config(self, guild_id: int) -> None:
        self._configs.pop(guild_id, None)

    async def language(self, guild_id: int | None) -> str:
        return (await self.config(guild_id)).language

    async def t(self, guild_id: int | None, key: str, /, **params: Any) -> str:
        return catalog(await self.language(guild_id)).render(key, **params)

    # --- game components (routed by the composition root, which knows the UIs and the error handler) ---------
    async def on_game_component(self, interaction: discord.Interaction, game_id: int, version: int, name: str,
                                arg: str, values: list[str]) -> None:
        """Route a persistent game component (:mod:`bot.components`) to the game's UI. Implemented by
        :class:`bot.app.Coroner`."""
        raise NotImplementedError

    async def on_game_modal(self, interaction: discord.Interaction, game_id: int, version: int, name: str, arg: str,
                            values: dict[str, Any]) -> None:
        """Route a game modal's submit (:mod:`bot.modals`) to the game's UI. Implemented by
        :class:`bot.app.Coroner`."""
        raise NotImplementedError
