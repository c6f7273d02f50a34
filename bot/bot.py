"""The bot process: a typed ``AutoShardedBot`` that owns the database, the table service, the timers and the cogs."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.ai_seats import install_ai_seats, resume_ai_moves
from bot.clock import Clock
from bot.components import GameButton, GameSelect, HistoryButton, LobbyButton
from bot.deadline import acknowledge_if_slow
from bot.delivery import Delivery
from bot.errors import install_error_handler, send_error
from bot.guild_config import GuildConfig
from bot.i18n import catalog
from bot.i18n.translator import CatalogTranslator
from bot.modals import LOBBY_OPTIONS, install_modal_router
from bot.plugins import extensions
from bot.settings import Settings, StartupError
from bot.tables.outbox import RETRY_TIMER
from bot.timers import TimerRunner
from bot.turns import SUPERSEDED, install_turn_timers
from bot.ui import ui_for

log = logging.getLogger("coroner")
#: names discord.py gives the tasks that run an interaction's handler (slash commands, components, and the
#: ``on_interaction`` listeners, among them the modal router of :mod:`bot.modals`)
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-",
                     "discord-ui-modal-dispatch-", "discord.py: on_interaction")
SHUTDOWN_GRACE = 5.0
#: a server's settings are read again after this long: a ``/config`` handled by another bot process reaches this
#: one within it
CONFIG_TTL = timedelta(seconds=60)
#: servers whose settings a process keeps at most (the least recently read go first)
CONFIG_CACHE = 5000

#: the cog packages found when this module was imported (:func:`bot.plugins.extensions` looks again at start)
EXTENSIONS: tuple[str, ...] = extensions()


def point_at_api(base: str | None) -> None:
    """Rewire discord.py's REST client to ``base`` (``None``: Discord). The gateway is whatever ``GET /gateway/bot``
    answers there (see :meth:`CoronerBot.connect`): a REST-only rate-limit proxy forwards that to Discord, which
    names its own gateway."""
    discord.http.Route.BASE = f"{base}/api/v10" if base else "https://discord.com/api/v10"
    if not base:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


class CoronerBot(commands.AutoShardedBot):
    """Coroner. Resources are created in :meth:`setup_hook` and released in :meth:`close`."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True  # the Killer's route and Farewell Letters arrive by DM (content is sent in DMs)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            help_command=None,
            **{"guild_ready_timeout": settings.guild_ready_seconds, **options},
        )
        self.settings = settings
        self.clock = clock or Clock()
        self._configs: dict[int, tuple[GuildConfig, datetime]] = {}  # guild id -> its settings, when read
        self.synced_commands: int | None = None  # how many commands the last sync registered (None: no sync)
        self._announced = False

    async def open_database(self) -> None:
        """Connect and upgrade the database to the latest schema (before logging in, so a bad ``DATABASE_URL``
        fails fast). Raises :class:`StartupError` with a one-line reason."""
        from bot.db.check import open_database
        from bot.db.session import make_sessionmaker

        self.db_engine = await open_database(self.settings.database_url)
        self.sessions = make_sessionmaker(self.db_engine)

    async def setup_hook(self) -> None:
        from bot.tables import TableService
        from bot.tables.service import process_owner

        if not hasattr(self, "sessions"):
            await self.open_database()
        self.delivery = Delivery(self)
        self.tables = TableService(self.sessions, deliver=self.delivery, plan=self.delivery.timers_for,
                                   clock=self.clock.now, on_timers=self.clock.poke,
                                   owner=process_owner(self.settings.shard_ids or []), superseded=SUPERSEDED)
        self.timers = TimerRunner(self, poll=timedelta(seconds=self.settings.timer_poll_seconds))
        self.timers.on(RETRY_TIMER, lambda timer: self.tables.deliverer.drain(timer.game_id))
        install_turn_timers(self)
        install_ai_seats(self)
        await self.tree.set_translator(CatalogTranslator())
        install_error_handler(self)
        self.add_dynamic_items(LobbyButton, GameButton, GameSelect, HistoryButton)
        install_modal_router(self)
        await self.load_plugins()
        # before the gateway connects (no interaction, no timer yet): show every step a crash left undelivered
        await self.tables.deliverer.catch_up()
        for cog in list(self.cogs.values()):
            if hasattr(cog, "catch_up"):
                await cog.catch_up()
        await resume_ai_moves(self)  # a computer player's move whose timer was spent without a move
        self.timers.start()
        if self.settings.sync_commands:
            self.synced_commands = len(await self.sync_commands())

    async def load_plugins(self) -> None:
        """Load every cog package (:func:`bot.plugins.extensions`), then let each cog finish what needs all of them
        loaded (its ``plugins_loaded()``: the lobby builds ``/newgame`` from every game's engines and UIs)."""
        for extension in extensions():
            await self.load_extension(extension)
        for cog in list(self.cogs.values()):
            if hasattr(cog, "plugins_loaded"):
                cog.plugins_loaded()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        if self.settings.discord_api_base:
            point_at_api(self.settings.discord_api_base)
        await self.open_database()
        await super().start(token, reconnect=reconnect)

    async def connect(self, *, reconnect: bool = True) -> None:
        """With ``DISCORD_API_BASE``, first ask it for the gateway URL (``GET /gateway/bot``): discord.py asks only
        when the shard count is automatic, and otherwise (a fixed ``SHARD_COUNT``, a non-resumable reconnect)
        connects to its default gateway. Raises :class:`discord.GatewayNotFound` when the base cannot answer."""
        if self.settings.discord_api_base:
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await super().connect(reconnect=reconnect)

    async def on_ready(self) -> None:
        """Say once what started (see :mod:`bot.startup`) and how to invite the bot."""
        from bot.startup import invite_url, ready_line

        if self._announced:
            return
        self._announced = True
        log.info("%s", ready_line(self))
        if self.application_id is not None:
            log.info("invite: %s", invite_url(self.application_id))

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands: to ``DEV_GUILD_ID`` at once when set, else globally. Raises
        :class:`StartupError` when Discord refuses the server of ``DEV_GUILD_ID`` (the bot is not in it)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                return await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound) as exc:
                raise StartupError(
                    f"Discord refused to register the commands in DEV_GUILD_ID {self.settings.dev_guild_id} "
                    f"({exc.status} {exc.response.reason}); invite the bot to that server with the "
                    "applications.commands scope, or unset DEV_GUILD_ID") from None
        return await self.tree.sync()

    async def close(self) -> None:
        """Stop the timers, let interactions already being handled finish (at most :data:`SHUTDOWN_GRACE`
        seconds, so their replies and deliveries do not hit a closed HTTP session), then disconnect."""
        if hasattr(self, "timers"):
            await self.timers.stop()
        current = asyncio.current_task()
        handling = [task for task in asyncio.all_tasks() if task is not current and not task.done()
                    and task.get_name().startswith(INTERACTION_TASKS)]
        if handling:
            await asyncio.wait(handling, timeout=SHUTDOWN_GRACE)
        await super().close()
        if hasattr(self, "db_engine"):
            await self.db_engine.dispose()

    # --- per-guild settings -------------------------------------------------------------------------------
    async def config(self, guild_id: int | None) -> GuildConfig:
        """The guild's settings (defaults outside a guild), cached for :data:`CONFIG_TTL` (or until
        :meth:`forget_config`), for at most :data:`CONFIG_CACHE` servers."""
        if guild_id is None:
            return GuildConfig()
        now = self.clock.now()
        cached = self._configs.pop(guild_id, None)  # popped and put back: the dict is in order of use
        if cached is None or now - cached[1] >= CONFIG_TTL:
            from bot.guild_config import get_config

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

    # --- game components ------------------------------------------------------------------------------------
    async def on_game_component(self, interaction: discord.Interaction, game_id: int, version: int, name: str,
                                arg: str, values: list[str]) -> None:
        """Route a persistent game component to the game's UI; errors become ephemeral replies."""
        from bot.cogs.core.cog import show_secrets

        table = None
        try:
            if name == "secrets":  # answered with a message: deferred before the load while the database is slow
                await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)
            table = await self.tables.load(game_id)
            if name == "secrets":
                await show_secrets(self, interaction, table)
                return
            await ui_for(table.game, table.mode).on_component(interaction, table, name, arg, version, values)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self, interaction, exc, table)

    async def on_game_modal(self, interaction: discord.Interaction, game_id: int, version: int, name: str, arg: str,
                            values: dict[str, Any]) -> None:
        """Route a game modal's submit (see :mod:`bot.modals`) to the game's UI; errors become ephemeral replies."""
        table = None
        try:
            table = await self.tables.load(game_id)
            if name == LOBBY_OPTIONS:  # the host's Options form on a lobby
                await self.get_cog("Lobby").on_options_form(interaction, table, values)  # type: ignore[union-attr]
                return
            await ui_for(table.game, table.mode).on_modal(interaction, table, name, arg, version, values)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self, interaction, exc, table)


async def run_bot(settings: Settings) -> None:
    """Run until interrupted. ``settings.discord_token`` must be set. Raises :class:`StartupError` when the
    database cannot be opened, the token is refused, the API base is not a Discord endpoint or Discord cannot be
    reached."""
    import aiohttp

    bot = CoronerBot(settings)
    assert settings.discord_token is not None
    where = f"DISCORD_API_BASE {settings.discord_api_base}" if settings.discord_api_base else "Discord"
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        raise StartupError(f"{where} refused DISCORD_TOKEN; copy the token again from the Developer Portal "
                           "(Bot, Reset Token)") from None
    except discord.PrivilegedIntentsRequired:
        raise StartupError("Discord asks for a privileged intent this bot does not use; report it") from None
    except discord.HTTPException as exc:
        raise StartupError(f"{where} answered {exc.status} {exc.response.reason} to {exc.response.url.path}; "
                           "check DISCORD_API_BASE (a Discord-compatible endpoint) or leave it unset") from None
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:  # the gateway's "authentication failed"
            raise StartupError(f"{where} refused DISCORD_TOKEN at the gateway; copy the token again") from None
        raise StartupError(f"the gateway of {where} closed the connection ({exc.code}); check DISCORD_API_BASE "
                           "and the network") from None
    except discord.GatewayNotFound as exc:
        raise StartupError(f"cannot open the gateway of {where}: {exc}; check DISCORD_API_BASE and the network"
                           ) from None
    except (aiohttp.ClientError, OSError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StartupError(f"cannot reach {where}: {reason}; check the network (and DISCORD_API_BASE)") from None
