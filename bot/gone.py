"""Games whose place is gone: their channel deleted (``CHANNEL_DELETE``; a thread's ``THREAD_DELETE``), the bot
removed from their server (``GUILD_DELETE`` for good, not an outage), or either while the bot was down (found when
it is ready again: :func:`catch_up`, confirmed by Discord answering Unknown Channel, or Unknown Guild / Missing
Access).

Nothing of such a game can be shown again, so it ends as cancelled through the table service's cancel for the bot
(:meth:`bot.tables.TableService.cancel_by_bot`: a running game by the game's own cancel, logged and in its history;
a lobby or a booked lobby closed; every timer disarmed), and each of its people is told so by one short DM.

The official medium channel deleted (``/config medium``): the setting is cleared, so a social lobby cannot start
without a new one (``asesino_social.ui.no_medium``), and each running social game of the server is told in its
channel that its medium posts appear there from now on (:meth:`bot.delivery.Delivery.post_medium` falls back to the
game's channel: no post is lost).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.guild_config import update_config
from bot.i18n import t
from bot.reach import MISSING_ACCESS, UNKNOWN_CHANNEL, UNKNOWN_GUILD
from bot.ui import Outgoing, ui_for

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)


async def end_gone(bot: Coroner, table: Table, key: str, *, where: str, guild_left: bool = False) -> bool:
    """End ``table`` (as cancelled, by the bot) because its place is gone and DM each of its people the message
    ``key`` (``{game}``, ``{where}``: the channel or server as it was named). ``guild_left``: the bot is no longer
    in its server (then nothing is given back there, e.g. the dead role). Whether it ended now (False: it was
    over already)."""
    by = bot.user.display_name if bot.user is not None else "Coroner"
    ended = await bot.tables.cancel_by_bot(table.id, by)
    if ended is None:
        return False
    log.info("game %s ended as cancelled: %s %s is gone", ended.id, "server" if guild_left else "channel", where)
    if ended.state is not None and not guild_left:
        try:
            await ui_for(ended.game, ended.mode).on_cancelled(bot, ended)
        except discord.HTTPException:
            log.warning("could not tidy up after game %s", ended.id, exc_info=True)
    for seat in ended.seats:
        if not seat.is_ai:
            await bot.delivery.dm(ended, seat.seat, gone_notice(ended, key, where))
    return True


def gone_notice(table: Table, key: str, where: str) -> Outgoing:
    """The DM each person of ``table`` gets once it ended because its place is gone: the message ``key``
    (``gone.channel``, ``gone.server``, ``gone.server_unseen``) naming the game and ``where`` it was (a channel
    mention or name, a server's name: up to 100 characters), pinging nobody."""
    return Outgoing(content=t(key, table.language, game=t(f"game.{table.game}", table.language), where=where),
                    language=table.language)


def medium_notice(table: Table) -> Outgoing:
    """What a running social game's channel is told once the server's official medium was deleted."""
    return Outgoing(content=t("gone.medium", table.language), language=table.language)


async def channel_gone(bot: Coroner, channel_id: int, where: str) -> None:
    """End every game not over yet (booked, lobby, running) of the deleted channel ``channel_id`` (named
    ``where`` in the DMs)."""
    for table in await bot.tables.open_tables(channel_id=channel_id):
        await end_gone(bot, table, "gone.channel", where=where)


async def medium_gone(bot: Coroner, guild_id: int) -> None:
    """The official medium of ``guild_id`` was deleted: clear the setting and tell each running social game's
    channel where its medium posts go now."""
    async with bot.sessions() as session, session.begin():
        await update_config(session, guild_id, medium_channel_id=None)
    bot.forget_config(guild_id)
    for table in await bot.tables.open_tables(guild_id=guild_id):
        if table.status == "active" and (table.game, table.mode) == ("asesino", "social"):
            channel = await bot.delivery.channel(table.channel_id)
            try:
                await channel.send(**medium_notice(table).kwargs())
            except discord.HTTPException:
                log.warning("could not tell game %s its medium is gone", table.id, exc_info=True)


async def catch_up(bot: Coroner) -> None:
    """When the bot is ready: end the games (not over yet) whose place went while the bot was down, as Discord
    confirms: a server of this process's shards the bot is no longer in (:func:`removed_while_down`: Unknown Guild
    or Missing Access), and, in the servers it sees, a channel that is no longer there (Unknown Channel; a channel
    merely not cached, an archived thread, is left alone). Servers of another process's shards, and servers in an
    outage (unavailable), are left alone."""
    tables = await bot.tables.open_tables()
    removed = await removed_while_down(bot, {table.guild_id for table in tables})
    for table in tables:
        if table.guild_id in removed:
            await end_gone(bot, table, "gone.server_unseen", where=f"<#{table.channel_id}>", guild_left=True)
            continue
        guild = bot.get_guild(table.guild_id)
        if guild is None or guild.unavailable or guild.get_channel_or_thread(table.channel_id) is not None:
            continue
        try:
            await bot.fetch_channel(table.channel_id)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await end_gone(bot, table, "gone.channel", where=f"<#{table.channel_id}>")
        except discord.HTTPException:
            log.warning("could not look up the channel of game %s", table.id, exc_info=True)


def ours(bot: Coroner, guild_id: int) -> bool:
    """Whether ``guild_id`` is on one of this process's shards (Discord's ``(guild_id >> 22) % shard_count``), so
    that its absence from the bot's servers once ready means something."""
    shards = getattr(bot, "shards", None) or {0: None}
    return (guild_id >> 22) % (bot.shard_count or 1) in shards


async def removed_while_down(bot: Coroner, guild_ids: set[int]) -> set[int]:
    """The ones of ``guild_ids`` the bot was removed from while it was down: on this process's shards
    (:func:`ours`), not among its servers once ready (a server in an outage is there, unavailable), and confirmed by
    Discord (``GET /guilds/{id}``: Unknown Guild, or Missing Access). Any other answer leaves a server alone."""
    removed = set()
    for guild_id in sorted(guild_ids):
        if bot.get_guild(guild_id) is not None or not ours(bot, guild_id):
            continue
        try:
            await bot.fetch_guild(guild_id)
        except (discord.NotFound, discord.Forbidden) as exc:
            if exc.code in (UNKNOWN_GUILD, MISSING_ACCESS):
                removed.add(guild_id)
        except discord.HTTPException:
            log.warning("could not look up server %s", guild_id, exc_info=True)
    return removed


def install_gone(bot: Coroner) -> None:
    """Listen for deleted channels and threads, the bot leaving a server, and (once ready) catch up."""

    async def on_guild_channel_delete(channel: discord.abc.GuildChannel) -> None:
        await channel_gone(bot, channel.id, f"#{channel.name}")
        if (await bot.config(channel.guild.id)).medium_channel_id == channel.id:
            await medium_gone(bot, channel.guild.id)

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        await channel_gone(bot, payload.thread_id, f"<#{payload.thread_id}>")

    async def on_guild_remove(guild: discord.Guild) -> None:
        for table in await bot.tables.open_tables(guild_id=guild.id):
            await end_gone(bot, table, "gone.server", where=guild.name, guild_left=True)

    async def on_ready() -> None:
        await catch_up(bot)

    for listener in (on_guild_channel_delete, on_raw_thread_delete, on_guild_remove, on_ready):
        bot.add_listener(listener, listener.__name__)
