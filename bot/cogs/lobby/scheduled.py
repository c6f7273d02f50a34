"""``/newgame <game> ... starts_in:`` in the lobby cog: book a lobby that opens later, and open it when its
``lobby_open`` timer fires (the rules of it: :mod:`bot.tables.schedule`).

Booking answers the command in public (the game, when it opens and who hosts it), pinging nobody. At its time the
lobby is posted in the channel as a new message pinging the server's lobby role (:mod:`bot.cogs.lobby.ping`); a
channel busy at that time gets a short notice instead, naming the host. A booking that would open within the
server's lobby time of another booking of the channel is refused, naming that one (its time and host).

Posted and pinged once, whatever stops the bot on the way: a lobby opened but not posted yet is posted (pinging)
by the start's :meth:`ScheduledLobbies.catch_up`, or by the timer run again, and the one that finds it posted but
not recorded (the bot stopped between the two) adopts the message from the channel (:func:`posted_lobby`, by its
buttons) instead of posting and pinging again, however long the bot was down (the message nonce covers a few
minutes only)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.lobby.ping import with_ping
from bot.cogs.lobby.render import lobby_embed, lobby_expires_at, lobby_view
from bot.deadline import in_time, respond
from bot.errors import UserError
from bot.gone import end_gone
from bot.i18n import t
from bot.members import is_manager, user_names
from bot.posted import posted_with
from bot.reach import UNKNOWN_CHANNEL
from bot.tables.options import validate_starts_in
from bot.tables.schedule import LOBBY_OPEN, BookingClash
from bot.ui import SILENT

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)

#: the ``/newgame`` parameter that books a lobby for later: minutes from now (1 to ``MAX_STARTS_IN``, a week)
STARTS_IN = "starts_in"
#: how many of the channel's last messages are searched for a lobby posted before a crash
LOOK_BACK = 50


async def posted_lobby(channel: discord.abc.Messageable, game_id: int, bot_id: int) -> discord.Message | None:
    """The bot's message among the last :data:`LOOK_BACK` of ``channel`` that carries the buttons of lobby
    ``game_id`` (custom ids ``coroner:lobby:<game_id>:...``), or ``None``; also ``None`` when the history cannot
    be read (no Read Message History: the caller posts)."""
    return await posted_with(channel, bot_id, f"coroner:lobby:{game_id}:", limit=LOOK_BACK)


class ScheduledLobbies:
    """The scheduled half of :class:`bot.cogs.lobby.cog.Lobby` (which provides the methods below)."""

    bot: Coroner

    if TYPE_CHECKING:
        async def _checked(self, interaction: discord.Interaction, game: str, mode: str,
                           given: dict[str, Any]) -> tuple[Any, dict[str, Any], int | None]: ...
        async def _send_lobby(self, table: Table, kwargs: dict[str, Any]) -> discord.Message: ...
        async def _record_lobby(self, table: Table, message_id: int) -> None: ...

    def arm_schedule(self) -> None:
        self.bot.timers.on(LOBBY_OPEN, self.on_lobby_open)

    async def schedule_game(self, interaction: discord.Interaction, game: str, mode: str, given: dict[str, Any],
                            minutes: int) -> None:
        """Book the lobby ``minutes`` from now (checked as ``/newgame`` checks an opening lobby) and say so in the
        channel."""
        table, opens_at = await in_time(interaction, self._book(interaction, game, mode, given, minutes),
                                        thinking=True)
        stamp = int(opens_at.timestamp())
        text = t("lobby.scheduled", table.language, game=t(f"game.{game}", table.language),
                 mode=t(f"mode.{game}.{mode}", table.language), host=f"<@{table.host_id}>",
                 at=f"<t:{stamp}:f>", relative=f"<t:{stamp}:R>")
        await respond(interaction, ephemeral=False, content=text, allowed_mentions=SILENT)

    async def _book(self, interaction: discord.Interaction, game: str, mode: str, given: dict[str, Any],
                    minutes: int) -> tuple[Table, datetime]:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        config, settings, rounds = await self._checked(interaction, game, mode, given)
        opens_at = self.bot.clock.now() + timedelta(minutes=validate_starts_in(minutes))
        names, apart = user_names(interaction.user), timedelta(minutes=config.lobby_timeout_minutes)
        try:
            table = await self.bot.tables.schedule_lobby(interaction.guild_id, interaction.channel_id,
                                                         interaction.user.id, game, mode, settings, config.language,
                                                         opens_at=opens_at, host_names=names, rounds=rounds,
                                                         apart=apart)
        except BookingClash as clash:
            language, stamp = config.language, int(clash.params["opens_at"].timestamp())
            raise UserError("lobby.booking_clash", game=t(f"game.{clash.params['game']}", language),
                            host=f"<@{clash.params['host_id']}>", at=f"<t:{stamp}:f>",
                            count=config.lobby_timeout_minutes) from None
        return table, opens_at

    async def on_lobby_open(self, timer: Any) -> None:
        """The ``lobby_open`` timer: open the booked lobby and post it, pinging the lobby role; posted (and pinged)
        once however often the timer runs. A channel deleted since (Discord: Unknown Channel) ends it as cancelled,
        its booker told by DM (:func:`bot.gone.end_gone`); so does a channel that refuses the bot's post (403: a
        manager took the bot's permissions there meanwhile), as the lobby would be open but shown nowhere."""
        try:
            await self._open_booked(timer)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise
            table = await self.bot.tables.load(timer.game_id)
            await end_gone(self.bot, table, "gone.channel", where=f"<#{table.channel_id}>")
        except discord.Forbidden:
            log.warning("game %s: its channel refuses the booked lobby's post", timer.game_id, exc_info=True)
            table = await self.bot.tables.load(timer.game_id)
            await end_gone(self.bot, table, "gone.no_post", where=f"<#{table.channel_id}>")

    async def _open_booked(self, timer: Any) -> None:
        table = await self.bot.tables.load(timer.game_id)
        config = await self.bot.config(table.guild_id)
        expires = self.bot.clock.now() + timedelta(minutes=config.lobby_timeout_minutes)
        table, opening = await self.bot.tables.open_scheduled(table.id, expires, timer.payload.get("rounds"))
        channel = await self.bot.delivery.channel(table.channel_id)
        if opening == "busy":
            await channel.send(t("lobby.scheduled_busy", table.language, game=t(f"game.{table.game}", table.language),
                                 host=f"<@{table.host_id}>"), allowed_mentions=SILENT, nonce=f"busy{table.id}")
            return
        if table.status != "lobby" or table.lobby_message_id is not None:
            return  # opened and posted by an earlier run, or closed since
        await self._post_opened(table, ping=True)

    async def catch_up(self) -> None:
        """At start (before the gateway connects): a lobby the bot stopped before recording its message gets its
        message now, so it never blocks its channel unseen; a booked one pings the lobby role as its opening would
        have (a ``/newgame`` lobby does not: its answer may have pinged already). One already in the channel is
        adopted, not posted again."""
        for table in await self.bot.tables.lobbies_without_message():
            try:
                await self._post_opened(table, ping=await self.bot.tables.was_booked(table.id))
            except discord.HTTPException:
                log.warning("could not post the lobby message of game %s", table.id, exc_info=True)

    async def _post_opened(self, table: Table, *, ping: bool) -> None:
        """Post the open lobby ``table`` in its channel (with ``ping``, pinging the server's lobby role) and
        record its message, unless :func:`posted_lobby` finds it posted already: then that one is recorded."""
        channel = await self.bot.delivery.channel(table.channel_id)
        assert self.bot.user is not None
        message = await posted_lobby(channel, table.id, self.bot.user.id)
        if message is None:
            role = (await self.bot.config(table.guild_id)).lobby_role_id if ping else None
            content, mentions = with_ping(None, role, table.game, table.language)
            stamp = await lobby_expires_at(self.bot.tables, table)
            message = await self._send_lobby(table, {
                "content": content, "embed": lobby_embed(table, table.language, stamp),
                "view": lobby_view(table, table.language), "allowed_mentions": SILENT, **mentions})
        await self._record_lobby(table, message.id)

    async def cancel_booking(self, interaction: discord.Interaction) -> None:
        """``/cancel`` in a channel with no lobby or game: cancel the lobby booked here that opens first (the
        caller's own first; a server manager may cancel anyone's), saying so in the channel. Raises
        ``UserError("lobby.no_game_here")`` when nothing is booked here either, and the refusals of
        :meth:`~bot.tables.schedule.ScheduleMixin.cancel_booked`."""
        user = interaction.user
        booked = await self.bot.tables.booked_in_channel(interaction.channel_id or 0)
        if not booked:
            raise UserError("lobby.no_game_here")
        table, opens_at = next((b for b in booked if b[0].host_id == user.id), booked[0])
        manager = is_manager(user)
        table = await self.bot.tables.cancel_booked(table.id, user.id, is_manager=manager)
        stamp, language = int(opens_at.timestamp()), table.language
        channel = await self.bot.delivery.channel(table.channel_id)
        await channel.send(t("lobby.booking_cancelled", language, game=t(f"game.{table.game}", language),
                             at=f"<t:{stamp}:f>", user=f"<@{user.id}>"), allowed_mentions=SILENT)
        await respond(interaction, ephemeral=True, content=t("lobby.done.cancel", language))
