"""``/card name``: what one card, object, Scaffold card, role, question, space kind or ability does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.budget import OPTION_TEXT, clip
from bot.cogs.reference._render import card_embed
from bot.cogs.reference.entries import lookup, search
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.catalog import LANGUAGES
from bot.ui import Outgoing

if TYPE_CHECKING:
    from bot.app import Coroner


def choices(current: str, language: str) -> list[app_commands.Choice[str]]:
    """At most 25 autocomplete choices for ``current``, matched on the names in every language (the server's
    first) and shown as ``name · game`` in ``language``; the value is the entry's key."""
    found = search(current, (language, *(other for other in LANGUAGES if other != language)))
    return [app_commands.Choice(name=clip(f"{e.name(language)} · {t(f'game.{e.game}', language)}", OPTION_TEXT),
                                value=e.key) for e in found[:25]]


class Reference(commands.Cog):
    """The card reference."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot

    async def name_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return choices(current, await self.bot.language(interaction.guild_id))

    @app_commands.command(name="card", description=_("What a card, object, role, question or space does"))
    @app_commands.describe(name=_("Start typing its name"))
    @app_commands.autocomplete(name=name_autocomplete)
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """Reply (only to the asker) with the entry picked from the autocomplete; a typed name is matched too
        (the first entry whose name contains it). Raises ``UserError("ref.unknown")``."""
        language = await self.bot.language(interaction.guild_id)
        entry = lookup(name) or next(iter(search(name, (language, *LANGUAGES))), None) if name.strip() else None
        if entry is None:
            raise UserError("ref.unknown", name=name)
        out = Outgoing(embeds=[card_embed(entry, language)], language=language)
        await interaction.response.send_message(ephemeral=True, **out.kwargs())
