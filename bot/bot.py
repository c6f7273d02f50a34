"""The bot process: a typed ``AutoShardedBot`` that owns the database, the table service, the timers and the cogs."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.clock import Clock
from bot.components import GameButton, GameSelect, LobbyButton
from bot.delivery import Delivery
from bot.errors import install_error_handler, send_error
from bot.guild_config import GuildConfig
from bot.i18n import catalog
from bot.i18n.translator import CatalogTranslator
from bot.plugins import extensions
from bot.settings import Settings
from bot.timers import TimerRunner
from bot.turns import install_turn_timers
from bot.ui import ui_for

log = logging.getLogger(__name__)

#: the cog packages found when this module was imported (:func:`bot.plugins.extensions` looks again at start)
EXTENSIONS: tuple[str, ...] = extensions()


def point_at_api(base: str | None) -> None:
    """Rewire discord.py's REST client (and so the gateway URL it asks for) to ``base`` (``None``: Discord)."""
    discord.http.Route.BASE = f"{base}/api/v10" if base else "https://discord.com/api/v10"
    # a fixed shard count (and a non-resumable reconnect) connects to the default gateway without asking REST
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base.replace("http", "ws", 1) + "/gateway" if base else "wss://gateway.discord.gg/")


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
            **options,
        )
        self.settings = settings
        self.clock = clock or Clock()
        self._configs: dict[int, GuildConfig] = {}

    async def open_database(self) -> None:
        """Connect and upgrade the database to the latest schema (before logging in, so a bad ``DATABASE_URL``
        fails fast). Raises :class:`StartupError` with a one-line reason."""
        from sqlalchemy.exc import SQLAlchemyError

        from bot.db.migrate import upgrade_to_head
        from bot.db.session import create_engine, make_sessionmaker

        try:
            self.db_engine = create_engine(self.settings.database_url)
            await upgrade_to_head(self.db_engine)
        except (SQLAlchemyError, OSError, ValueError) as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise StartupError(f"cannot open the database {_safe_url(self.settings.database_url)}: {reason}") from exc
        self.sessions = make_sessionmaker(self.db_engine)

    async def setup_hook(self) -> None:
        from bot.tables import TableService

        if not hasattr(self, "sessions"):
            await self.open_database()
        self.delivery = Delivery(self)
        self.tables = TableService(self.sessions, deliver=self.delivery, clock=self.clock.now)
        self.timers = TimerRunner(self)
        install_turn_timers(self)
        await self.tree.set_translator(CatalogTranslator())
        install_error_handler(self)
        self.add_dynamic_items(LobbyButton, GameButton, GameSelect)
        for extension in extensions():
            await self.load_extension(extension)
        self.timers.start()
        if self.settings.sync_commands:
            await self.sync_commands()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        if self.settings.discord_api_base:
            point_at_api(self.settings.discord_api_base)
        await self.open_database()
        await super().start(token, reconnect=reconnect)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands: to ``DEV_GUILD_ID`` at once when set, else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def close(self) -> None:
        if hasattr(self, "timers"):
            await self.timers.stop()
        await super().close()
        if hasattr(self, "db_engine"):
            await self.db_engine.dispose()

    # --- per-guild settings -------------------------------------------------------------------------------
    async def config(self, guild_id: int | None) -> GuildConfig:
        """The guild's settings (defaults outside a guild), cached until :meth:`forget_config`."""
        if guild_id is None:
            return GuildConfig()
        cached = self._configs.get(guild_id)
        if cached is None:
            from bot.guild_config import get_config

            async with self.sessions() as session:
                cached = self._configs[guild_id] = await get_config(session, guild_id)
        return cached  # never re-read the cache: a /config in between may have just emptied it

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
            table = await self.tables.load(game_id)
            if name == "secrets":
                await show_secrets(self, interaction, table)
                return
            await ui_for(table.game, table.mode).on_component(interaction, table, name, arg, version, values)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self, interaction, exc, table)


class StartupError(Exception):
    """The bot cannot start; the message is one line for the person running it."""


def _safe_url(url: str) -> str:
    """``url`` without its password, for messages."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


async def run_bot(settings: Settings) -> None:
    """Run until interrupted. ``settings.discord_token`` must be set. Raises :class:`StartupError` when the
    database cannot be opened, the token is refused or Discord cannot be reached."""
    import aiohttp

    bot = CoronerBot(settings)
    assert settings.discord_token is not None
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure as exc:
        raise StartupError(f"Discord refused the token: {exc}") from exc
    except (aiohttp.ClientError, OSError) as exc:
        raise StartupError(f"cannot reach Discord: {exc}") from exc
