"""Slash commands of the social mode: ``/accuse player`` opens a judgement, ``/post`` writes an anonymous post to
the official medium (through a modal). Both act on the social game of the channel they are used in; refusals are
ephemeral."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.asesino_social.days import is_social
from bot.cogs.asesino_social.ui import SOCIAL, open_modal_checked, seat_or_refuse
from bot.errors import UserError
from bot.i18n import t
from bot.ui import text_name

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table


class SocialCommands(commands.Cog):
    """``/accuse`` and ``/post``."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot

    async def _game_here(self, interaction: discord.Interaction) -> tuple[Table, int]:
        """The social game of this channel and the user's seat in it."""
        found = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if found is None or found.status != "active" or not is_social(found):
            raise UserError("asesino_social.ui.no_social_game")
        table = self.bot.tables.handed(found)
        return table, seat_or_refuse(table, interaction.user.id)

    @app_commands.command(name="accuse", description=_("Open a judgement against a player (social game)"))
    @app_commands.describe(player=_("The player you accuse"))
    @app_commands.guild_only()
    async def accuse(self, interaction: discord.Interaction, player: discord.Member) -> None:
        table, _seat = await self._game_here(interaction)
        accused = table.seat_of(player.id)
        if accused is None:
            raise UserError("asesino_social.ui.not_in_game", name=text_name(player.display_name))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await SOCIAL.play(self.bot, table, interaction.user.id, {"type": "open_judgement", "accused": accused})
        await interaction.followup.send(t("asesino_social.ui.done.open_judgement", table.language), ephemeral=True)

    @app_commands.command(name="post", description=_("Write an anonymous post to the official medium (social game)"))
    @app_commands.guild_only()
    async def post(self, interaction: discord.Interaction) -> None:
        table, seat = await self._game_here(interaction)
        await interaction.response.send_modal(open_modal_checked(self.bot, table, seat, "anonymous_post"))
