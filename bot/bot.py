"""The bot process's composition root: :class:`CoronerBot` builds the database, the table service, the deliverer
and the timers, installs the handlers and loads the cogs; everything else is handed it as a
:class:`bot.app.Coroner`."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands

from bot import heap
from bot.ai_seats import install_ai_seats, resume_ai_moves
from bot.app import Coroner
from bot.components import GameButton, GameSelect, GameUserSelect, HistoryButton, LobbyButton, LobbySelect
from bot.db.check import open_database
from bot.db.session import make_sessionmaker
from bot.deadline import acknowledge_if_slow
from bot.delivery import Delivery
from bot.errors import install_error_handler, send_error, typed_texts
from bot.gone import install_gone
from bot.i18n.translator import CatalogTranslator
from bot.modals import LOBBY_OPTIONS, install_modal_router
from bot.outage import Outage, unavailable
from bot.plugins import extensions
from bot.private_view import show_secrets
from bot.seat_controls import BACK, accept_offer, take_back
from bot.seat_texts import TAKE
from bot.settings import Settings, StartupError
from bot.startup import invite_url, ready_line
from bot.tables import TableService
from bot.tables.leases import DeliveryHooks
from bot.tables.outbox import RETRY_TIMER
from bot.tables.service import process_owner
from bot.threads.watch import on_watch
from bot.timers import TimerRunner
from bot.turns import SUPERSEDED, install_turn_timers
from bot.ui import ui_for

log = logging.getLogger("coroner")
#: names discord.py gives the tasks that run an interaction's handler (slash commands, components, and the
#: ``on_interaction`` listeners, among them the modal router of :mod:`bot.modals`) and a DM's (``on_message``: the
#: Killer's route, a Farewell Letter), which a stop lets finish alike
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-",
                     "discord-ui-modal-dispatch-", "discord.py: on_interaction", "discord.py: on_message")
#: seconds a stop waits for the interactions being handled, and as long again for the timer handler running (a
#: container's stop timeout is 10 s by default)
SHUTDOWN_GRACE = 4.0
#: the exit status after a second SIGTERM (128 + SIGTERM, as a shell reports a process it terminated)
EXIT_AT_ONCE = 128 + signal.SIGTERM
#: what discord.py raises when an endpoint answers 200 with something that is not Discord's JSON
NOT_DISCORD = (TypeError, KeyError, ValueError, AttributeError)

#: the cog packages found when this module was imported (:func:`bot.plugins.extensions` looks again at start)
EXTENSIONS: tuple[str, ...] = extensions()


def point_at_api(base: str | None) -> None:
    """Rewire discord.py's REST client to ``base`` (``None``: Discord). The gateway is whatever ``GET /gateway/bot``
    answers there (see :meth:`CoronerBot.connect`): a REST-only rate-limit proxy forwards that to Discord, which
    names its own gateway."""
    discord.http.Route.BASE = f"{base}/api/v10" if base else "https://discord.com/api/v10"
    if not base:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


class CoronerBot(Coroner):
    """Coroner's composition root: builds the services in :meth:`setup_hook` (released in :meth:`close`), loads
    the cogs and routes the game components and modals."""

    delivery: Delivery
    outage: Outage

    _announced = False
    _setting_up = False  # setup_hook has begun (login's own requests are over)
    _stopping: asyncio.Task[None] | None = None

    def where(self) -> str:
        """The endpoint as the startup errors name it."""
        base = self.settings.discord_api_base
        return f"DISCORD_API_BASE {base}" if base else "Discord"

    def not_discord(self, request: str, exc: Exception) -> StartupError:
        return StartupError(f"{self.where()} answered {request} with something that is not Discord's API "
                            f"({type(exc).__name__}); check DISCORD_API_BASE (a Discord-compatible endpoint) or "
                            "leave it unset")

    async def login(self, token: str) -> None:
        """discord.py's login (``GET /users/@me`` and the application), then :meth:`setup_hook`. Raises
        :class:`StartupError` when the endpoint answered but not as Discord does (a web server answering 200)."""
        try:
            await super().login(token)
        except NOT_DISCORD as exc:
            if self._setting_up:  # our own setup failed: not the endpoint's fault
                raise
            raise self.not_discord("the login (GET /users/@me)", exc) from None

    async def open_database(self) -> None:
        """Connect and upgrade the database to the latest schema (before logging in, so a bad ``DATABASE_URL``
        fails fast). Raises :class:`StartupError` with a one-line reason."""
        self.db_engine = await open_database(self.settings.database_url)
        self.metrics.count_sql(self.db_engine)
        self.sessions = make_sessionmaker(self.db_engine)

    async def setup_hook(self) -> None:
        self._setting_up = True
        if not hasattr(self, "sessions"):
            await self.open_database()
        if self.settings.metrics_port:
            await self.metrics.serve(self.settings.metrics_port, self.sessions, self.clock.now)
        self.delivery = Delivery(self)
        hooks = DeliveryHooks(unavailable=unavailable, pause_until=self.clock.pause_until,
                              taken_over=lambda: self.metrics.taken_over("delivery"))
        # a process that runs only some of the shards shares its games with the processes running the others: a mark
        # held for a game's next move (:mod:`bot.tables.marks`) would keep them waiting for the game's delivery
        # lease, up to FLUSH_AFTER, for a step of theirs, so such a process writes each mark at once
        shards = self.settings.shard_ids
        alone = not shards or len(set(shards)) >= (self.settings.shard_count or 1)
        self.tables = TableService(self.sessions, deliver=self.delivery, plan=self.delivery.timers_for,
                                   clock=self.clock.now, on_timers=lambda due: self.timers.wake(due),
                                   owner=process_owner(self.settings.shard_ids or []), superseded=SUPERSEDED,
                                   ping=self.delivery.live.ping_plan, delivery=hooks, hold_marks=alone)
        self.outage = Outage(self.tables.deliverer.redraw_failed)  # Discord answering again redraws at once
        self.metrics.on_answer(self.outage.answered)
        self.timers = TimerRunner(self, poll=timedelta(seconds=self.settings.timer_poll_seconds))
        self.timers.on(RETRY_TIMER, lambda timer: self.tables.deliverer.drain(timer.game_id))
        install_turn_timers(self)
        install_ai_seats(self)
        install_gone(self)
        await self.tree.set_translator(CatalogTranslator())
        install_error_handler(self)
        self.add_dynamic_items(LobbyButton, LobbySelect, GameButton, GameSelect, GameUserSelect, HistoryButton)
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
            try:
                _, url, _ = await self.http.get_bot_gateway()
            except NOT_DISCORD as exc:
                raise self.not_discord("GET /gateway/bot", exc) from None
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await super().connect(reconnect=reconnect)

    async def on_ready(self) -> None:
        """Say once what started (see :mod:`bot.startup`) and how to invite the bot."""
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
        """Stop gracefully (``docker stop``'s SIGTERM, see :func:`run_bot`): stop taking new interactions (the
        gateway is disconnected), let the interactions being handled and the timer handler running finish (at most
        :data:`SHUTDOWN_GRACE` seconds each, so their moves are applied once and shown), give back every timer claim
        and delivery lease this process still holds (another process takes them at once, not when they run out),
        then close the HTTP session and the database. Calling it again waits for the same stop."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop(), name="coroner-stop")
        await asyncio.shield(self._stopping)

    async def __aexit__(self, *exc_info: object) -> None:
        """Leave ``async with`` only once the whole stop is over (:meth:`close`). discord.py's own exit waits for its
        part of the close alone, which :meth:`_stop` awaits before disposing of the database: :func:`run_bot` then
        returned and ``asyncio.run`` cancelled the disposal (on SQLite an ERROR "Exception closing connection"
        at every graceful stop)."""
        await self.close()

    async def _stop(self) -> None:
        for shard in self.shards.values():  # no new events: interactions, DMs
            await shard.disconnect()
        if hasattr(self, "timers"):
            await self.timers.stop(grace=SHUTDOWN_GRACE)
        if hasattr(self, "outage"):
            await self.outage.stop()
        current = asyncio.current_task()
        handling = [task for task in asyncio.all_tasks() if task is not current and not task.done()
                    and task.get_name().startswith(INTERACTION_TASKS)]
        if handling:
            await asyncio.wait(handling, timeout=SHUTDOWN_GRACE)
        if hasattr(self, "tables"):
            try:
                await self.tables.hand_back()
            except Exception:  # the database may be away: the leases then run out as after a crash
                log.exception("giving back this process's timer claims and delivery leases failed")
        await self.metrics.stop()
        await super().close()
        if hasattr(self, "db_engine"):
            await self.db_engine.dispose()

    # --- game components ------------------------------------------------------------------------------------
    async def on_game_component(self, interaction: discord.Interaction, game_id: int, version: int, name: str,
                                arg: str, values: list[str]) -> None:
        """Route a persistent game component to the game's UI; errors become ephemeral replies."""
        table = None
        try:
            if name in ("secrets", "watch") or (name, arg) == ("host", "panel"):  # answered with a private message:
                await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # deferred first while it is slow
            table = await self.tables.at(game_id, version)
            if name == "secrets":
                await show_secrets(interaction, table)
                return
            if name == "watch":
                await on_watch(self.delivery.threads, interaction, table)
                return
            if name == BACK:  # who plays a seat: the same controls in every game (bot.seat_controls)
                await take_back(self, interaction, table)
                return
            if name == TAKE and arg.isdigit():
                await accept_offer(self, interaction, table, int(arg))
                return
            if name == "host":  # the host's panel and its controls, the same for every game
                await self.get_cog("Host").on_component(interaction, table, arg, values)  # type: ignore[union-attr]
                return
            await ui_for(table.game, table.mode).on_component(interaction, table, name, arg, version, values)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self, interaction, exc, table)

    async def on_game_modal(self, interaction: discord.Interaction, game_id: int, version: int, name: str, arg: str,
                            values: dict[str, Any]) -> None:
        """Route a game modal's submit (see :mod:`bot.modals`) to the game's UI; errors become ephemeral replies."""
        table = None
        try:
            table = await self.tables.at(game_id, version)
            if name == LOBBY_OPTIONS:  # the host's Options form on a lobby
                await self.get_cog("Lobby").on_options_form(interaction, table, values)  # type: ignore[union-attr]
                return
            await ui_for(table.game, table.mode).on_modal(interaction, table, name, arg, version, values)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self, interaction, exc, table, typed=typed_texts(values))  # their text given back


def stop_on_sigterm(bot: CoronerBot) -> None:
    """On SIGTERM, stop ``bot`` gracefully (:meth:`CoronerBot.close`; :func:`run_bot` then returns and the process
    exits 0); a second SIGTERM exits at once with :data:`EXIT_AT_ONCE`."""
    loop = asyncio.get_running_loop()

    signals = 0

    def on_sigterm() -> None:
        nonlocal signals
        signals += 1
        if signals > 1:
            log.warning("second SIGTERM: exiting at once")
            os._exit(EXIT_AT_ONCE)
        log.info("SIGTERM: finishing what is in flight, then stopping")
        loop.create_task(bot.close(), name="coroner-sigterm")

    loop.add_signal_handler(signal.SIGTERM, on_sigterm)


async def run_bot(settings: Settings) -> None:
    """Run until interrupted or stopped by SIGTERM (gracefully: :meth:`CoronerBot.close`).
    ``settings.discord_token`` must be set. Raises :class:`StartupError` when the database cannot be opened, the
    token is refused, the API base is not a Discord endpoint or Discord cannot be reached."""
    bot = CoronerBot(settings)
    assert settings.discord_token is not None
    where = bot.where()
    stop_on_sigterm(bot)
    heap.settle_at_ready(bot)  # start-up's objects out of the collector's way
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
