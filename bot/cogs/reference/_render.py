"""The reference's embeds: one entry (``/card``) and a game's cards page (``/rules game page:cards``), both fitted
to Discord's embed limits (:mod:`bot.budget`)."""

from __future__ import annotations

import discord

from bot.budget import EMBED_DESCRIPTION, FIELD_NAME, FIELD_VALUE, FIELDS, clip, fit_lines
from bot.cogs.reference.entries import Entry, of_game
from bot.i18n import t
from bot.ui import COLOUR


def rulings_line(entry: Entry, language: str) -> str:
    """``"LK-22, LK-23 (in the card edition and games/lets_kill/README.md)"``, or ``""`` without rulings."""
    rulings = entry.rulings()
    if not rulings:
        return ""
    return t("ref.rulings.where", language, rulings=", ".join(rulings), source=t(f"ref.source.{entry.game}", language))


def card_embed(entry: Entry, language: str) -> discord.Embed:
    """One entry: its name, game and kind (with its type line), what it does and its rulings."""
    embed = discord.Embed(title=clip(entry.name(language), 256), colour=COLOUR,
                          description=clip(entry.text(language), EMBED_DESCRIPTION))
    embed.set_author(name=clip(f"{t(f'game.{entry.game}', language)} · {entry.kind_name(language)}", 256))
    if line := rulings_line(entry, language):
        embed.add_field(name=t("ref.rulings", language), value=clip(line, FIELD_VALUE), inline=False)
    return embed


def cards_page(game: str, language: str) -> discord.Embed:
    """Every entry of ``game`` by kind, one field per kind: ``**name**: what it does`` lines, cut to a field's
    1024 units with "…and N more" (the rest is one ``/card`` away)."""
    embed = discord.Embed(title=t("ref.page.title", language, game=t(f"game.{game}", language)), colour=COLOUR)
    kinds: dict[str, list[Entry]] = {}
    for entry in of_game(game):
        kinds.setdefault(entry.kind, []).append(entry)
    for kind, members in list(kinds.items())[:FIELDS]:
        lines = "\n".join(clip(f"**{e.name(language)}**: {e.text(language)}", 200) for e in members)
        embed.add_field(name=clip(t(f"ref.kind.{game}.{kind}", language), FIELD_NAME),
                        value=fit_lines(lines, FIELD_VALUE, language), inline=False)
    embed.set_footer(text=t("ref.page.footer", language))
    return embed
