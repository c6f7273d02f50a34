"""``/card name``: what one card, object, Scaffold card, role, question, space kind or ability does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.budget import OPTION_TEXT, clip
from bot.cogs.reference._render import card_embed
from bot.cogs.reference.entries import Entry, lookup, search, shares_name
from bot.errors import UserError
from bot.i18n import t
from bot.i18n.catalog import LANGUAGES
from bot.ui import Outgoing

if TYPE_CHECKING:
    from bot.app import Coroner


def label(entry: Entry, language: str) -> str:
    """An entry as a choice shows it: ``name · game``, with ``· kind`` where another entry of the game has the
    same name (``"Victim · Asesino en Serie · Social game role"``); at most 100 characters."""
    parts = [entry.name(language), t(f"game.{entry.game}", language)]
    if shares_name(entry, language):
        parts.append(t(f"ref.kind.{entry.game}.{entry.kind}", language))
    return clip(" · ".join(parts), OPTION_TEXT)


def choices(current: str, language: str) -> list[app_commands.Choice[str]]:
    """At most 25 autocomplete choices for ``current``, matched on the names in every language (the server's
    first, accents and case ignored) and shown as :func:`label` in ``language``; the value is the entry's key."""
    found = search(current, (language, *(other for other in LANGUAGES if other != language)))
    return [app_commands.Choice(name=label(e, language), value=e.key) for e in found[:25]]


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
        (the first entry whose name contains it). Raises ``UserError("ref.empty")`` for a blank name and
        ``UserError("ref.unknown")`` for one nothing is called."""
        language = await self.bot.language(interaction.guild_id)
        if not name.strip():
            raise UserError("ref.empty")
        entry = lookup(name) or next(iter(search(name, (language, *LANGUAGES))), None)
        if entry is None:
            raise UserError("ref.unknown", name=name)
        out = Outgoing(embeds=[card_embed(entry, language)], language=language)
        await interaction.response.send_message(ephemeral=True, **out.kwargs())
