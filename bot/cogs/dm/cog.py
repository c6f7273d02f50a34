"""Resolve which game a DM is for and hand it to that game's UI (:meth:`bot.ui.GameUI.on_dm`).

A player in several games that take DMs starts the message with the game number, e.g. ``#12 8 3 2 1``; the bot
asks for it when it is missing, and says so when the number names none of their running games. A DM no game
waits for but one plainly meant for a game (:meth:`bot.ui.GameUI.claims_dm`, e.g. a ``letter:`` on a day without
a letter) goes to that game, whose refusal says when it takes such a message. Refusals are
answered in the same DM and change nothing; a refusal Discord does not deliver (the player's DMs are closed) falls
back like every other private message: the channel names the player with the game's next public step and
**My secrets** shows them their private information (:meth:`bot.delivery.Delivery.dm`). A DM that no game takes is
answered in the language of the server of
the sender's newest game (of any status, finished ones too), or in English when they never played.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.cogs.dm.missed import MissedDMs
from bot.errors import error_text
from bot.i18n import t
from bot.ui import SILENT, ui_for

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)
GAME_PREFIX = re.compile(r"^\s*#(?P<id>\d+)\s*")


class DirectMessages(commands.Cog):
    """``on_message`` for DMs."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        self.missed = MissedDMs(bot, self.on_message)  # DMs sent while the bot was away, read back when ready

    async def candidates(self, user_id: int) -> list[Table]:
        """Active games of ``user_id`` whose UI accepts a DM from them now."""
        tables = await self.bot.tables.tables_of_user(user_id)
        return [x for x in tables if x.status == "active" and ui_for(x.game, x.mode).accepts_dm(x, x.seat_of(user_id))]

    async def reply_language(self, user_id: int) -> str:
        """The language of a DM no game takes: that of the server of ``user_id``'s newest game, else English."""
        guild_id = await self.bot.tables.latest_guild_of_user(user_id)
        return await self.bot.language(guild_id) if guild_id is not None else "en"

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot or not self.missed.first_time(message):
            return
        tables = await self.candidates(message.author.id)
        content, named = message.content, None
        if (match := GAME_PREFIX.match(content)) is not None:
            named = int(match["id"])
            tables = [x for x in tables if x.id == named]
            content = content[match.end():]
        if not tables:  # none waits for a DM: one the message is plainly written for refuses it in its own words
            mine = await self.bot.tables.tables_of_user(message.author.id)
            tables = [x for x in mine if x.status == "active" and (named is None or x.id == named)
                      and ui_for(x.game, x.mode).claims_dm(x, x.seat_of(message.author.id), content)]
        if not tables:
            key = "dm.nothing_waiting" if named is None or any(x.id == named for x in mine) else "dm.no_such_game"
            language = await self.reply_language(message.author.id)
            await message.channel.send(t(key, language, id=named), allowed_mentions=SILENT)
            return
        language = tables[0].language
        if len(tables) > 1:
            games = "\n".join(t("dm.game_line", language, id=x.id, game=t(f"game.{x.game}", language),
                                channel=f"<#{x.channel_id}>") for x in tables)
            await message.channel.send(t("dm.which_game", language, games=games), allowed_mentions=SILENT)
            return
        table = self.bot.tables.handed(tables[0])
        seat = table.seat_of(message.author.id)
        assert seat is not None
        try:
            await ui_for(table.game, table.mode).on_dm(self.bot, message, table, seat, content)
        except Exception as exc:  # noqa: BLE001 - refusals are answered in the DM; nothing changed
            await self.refuse(message, table, error_text(table.language, exc, table))

    async def refuse(self, message: discord.Message, table: Table, text: str) -> None:
        """Answer a refused DM move in the DM; when Discord does not take it, record the failed DM for the
        channel's closed-DM notice, as :meth:`bot.delivery.Delivery.dm` does for every private message."""
        try:
            await message.channel.send(text, allowed_mentions=SILENT)
        except discord.HTTPException as exc:
            closed = isinstance(exc, discord.Forbidden)
            log.info("the refusal of a DM from %s was not delivered (%s)", message.author.id, exc.status)
            await self.bot.tables.dm_refused(table.id, message.author.id, closed=closed)
