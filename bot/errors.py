"""The central error handler: rule refusals and table errors become ephemeral replies; nothing else leaks."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord
from discord import AppCommandOptionType, app_commands

from bot.budget import CONTENT, EMBED_DESCRIPTION, EMBED_TOTAL, EMBEDS, clip, size
from bot.i18n import catalog
from bot.tables.model import TableError
from bot.ui import COLOUR, RenderContext, ui_for
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)
FENCE = "```"


class UserError(Exception):
    """A refusal with a catalogue ``code`` (e.g. ``lobby.no_game_here``) and its parameters."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def error_text(language: str, exc: BaseException, table: Table | None = None) -> str:
    """The player-facing text for ``exc``: a catalogue message for known refusals (:class:`IllegalAction`,
    :class:`~bot.tables.TableError`, :class:`UserError`), a generic one otherwise. With the ``table`` the refusal
    is about, its parameters are put in words by the game's UI (seats as the players' names); pass the game's
    language (``table.language``), not the server's current one. Fits a message's content whatever the
    parameters (a player's text quoted in a refusal is cut)."""
    cat = catalog(language)
    if isinstance(exc, IllegalAction | TableError | UserError):
        if table is None:
            return clip("⛔ " + cat.render(exc.code, **exc.params), CONTENT)
        declared = getattr(exc, "seat_params", ())  # only an IllegalAction declares seats beyond the convention
        words = ui_for(table.game, table.mode).words(RenderContext(table, language), exc.params, declared)
        return clip("⛔ " + cat.render(exc.code, **words), CONTENT)
    return "⚠️ " + cat.render("error.unexpected")


#: the key in ``interaction.extras`` of the language of the game an interaction is about (:func:`about`)
ABOUT = "coroner_game_language"


def about(interaction: discord.Interaction, table: Table) -> Table:
    """Record that ``interaction`` is about ``table`` (returned), so that a refusal raised later, wherever it is
    caught (the app command error handler too), comes in the game's language, not the server's current one
    (:func:`send_error`; its parameters are shown as given, as without a table)."""
    interaction.extras[ABOUT] = table.language
    return table


def typed_texts(values: Mapping[str, object]) -> list[str]:
    """The free text a modal submit carried: its text inputs' values that are not blank, in the form's order
    (a select's picked values are lists and are left out)."""
    return [value for value in values.values() if isinstance(value, str) and value.strip()]


def kept_embeds(texts: Sequence[str]) -> list[discord.Embed]:
    """``texts`` given back, one embed each, in a code block to copy (a ```` ``` ```` inside is broken with a
    zero-width space so the block holds); within one message's embed budget (4,096 units each, 6,000 in all,
    at most 10 embeds): a modal's text input holds at most 4,000, so one text always fits whole, and only a
    form of several long texts is cut ("…")."""
    embeds: list[discord.Embed] = []
    left = EMBED_TOTAL
    for text in texts[:EMBEDS]:
        room = min(EMBED_DESCRIPTION, left) - len(FENCE) * 2 - 2
        if room <= 0:
            break
        body = clip(text.replace(FENCE, "``\u200b`"), room)
        embeds.append(discord.Embed(description=f"{FENCE}\n{body}\n{FENCE}", colour=COLOUR))
        left -= size(embeds[-1].description or "")
    return embeds


async def send_error(bot: Coroner, interaction: discord.Interaction, exc: BaseException,
                     table: Table | None = None, *, typed: Sequence[str] = ()) -> None:
    """Reply ephemerally with the error text (as a follow-up if the interaction was already answered), in the
    language of ``table`` when the refusal is about a game (or of the game recorded by :func:`about`), else in
    the server's. ``typed`` is the free text of
    a refused modal (:func:`typed_texts`): a modal is gone once submitted, so the reply gives that text back
    (:func:`kept_embeds`) and nothing the player wrote is lost."""
    if not isinstance(exc, IllegalAction | TableError | UserError):
        log.exception("interaction failed", exc_info=exc)
    language = (table.language if table is not None else getattr(interaction, "extras", {}).get(ABOUT)
                or await bot.language(interaction.guild_id))
    text = error_text(language, exc, table)
    embeds = kept_embeds(typed)
    if embeds:
        text = clip(f"{text}\n{catalog(language).render('error.kept_text')}", CONTENT)
    extra = {"embeds": embeds} if embeds else {}
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **extra)
        else:
            await interaction.response.send_message(text, ephemeral=True, **extra)
    except discord.HTTPException:
        log.warning("could not deliver an error reply", exc_info=True)


def install_error_handler(bot: Coroner) -> None:
    """Route every app command error through :func:`send_error`: a missing permission, a server-only command used
    in DMs and a member option naming someone outside the server become their own private refusals."""

    async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, app_commands.MissingPermissions):
            original = UserError("error.missing_permissions")
        elif isinstance(original, app_commands.NoPrivateMessage):
            original = UserError("error.guild_only")
        elif isinstance(original, app_commands.TransformerError) and original.type is AppCommandOptionType.user:
            # discord.py's Member transformer: the option named a user (a pasted id) who is not in this server
            original = UserError("error.not_a_member")
        await send_error(bot, interaction, original)

    bot.tree.on_error = on_error
