"""Resolve which game a DM is for and hand it to that game's UI (:meth:`bot.ui.GameUI.on_dm`).

A player in several games that take DMs starts the message with the game number, e.g. ``#12 8 3 2 1``; the bot
asks for it when it is missing. Refusals are answered in the same DM and change nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.errors import error_text
from bot.i18n import t
from bot.ui import SILENT, ui_for

if TYPE_CHECKING:
    from bot.bot import CoronerBot
    from bot.tables import Table

GAME_PREFIX = re.compile(r"^\s*#(?P<id>\d+)\s*")


class DirectMessages(commands.Cog):
    """``on_message`` for DMs."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot

    async def candidates(self, user_id: int) -> list[Table]:
        """Active games of ``user_id`` whose UI accepts a DM from them now."""
        tables = await self.bot.tables.tables_of_user(user_id)
        return [x for x in tables if x.status == "active" and ui_for(x.game, x.mode).accepts_dm(x, x.seat_of(user_id))]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot:
            return
        tables = await self.candidates(message.author.id)
        content = message.content
        if (match := GAME_PREFIX.match(content)) is not None:
            tables = [x for x in tables if x.id == int(match["id"])]
            content = content[match.end():]
        if not tables:
            mine = await self.bot.tables.tables_of_user(message.author.id)
            language = mine[-1].language if mine else "en"
            await message.channel.send(t("dm.nothing_waiting", language), allowed_mentions=SILENT)
            return
        language = tables[0].language
        if len(tables) > 1:
            games = "\n".join(t("dm.game_line", language, id=x.id, game=t(f"game.{x.game}", language),
                                channel=f"<#{x.channel_id}>") for x in tables)
            await message.channel.send(t("dm.which_game", language, games=games), allowed_mentions=SILENT)
            return
        table = tables[0]
        seat = table.seat_of(message.author.id)
        assert seat is not None
        try:
            await ui_for(table.game, table.mode).on_dm(self.bot, message, table, seat, content)
        except Exception as exc:  # noqa: BLE001 - refusals are answered in the DM; nothing changed
            await message.channel.send(error_text(table.language, exc, table), allowed_mentions=SILENT)
