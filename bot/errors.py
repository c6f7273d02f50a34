"""The central error handler: rule refusals and table errors become ephemeral replies; nothing else leaks."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import catalog
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.bot import CoronerBot

log = logging.getLogger(__name__)


class UserError(Exception):
    """A refusal with a catalogue ``code`` (e.g. ``lobby.no_game_here``) and its parameters."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def error_text(language: str, exc: BaseException) -> str:
    """The player-facing text for ``exc``: a catalogue message for known refusals, a generic one otherwise."""
    from bot.tables import TableError

    cat = catalog(language)
    if isinstance(exc, IllegalAction | TableError | UserError):
        return "⛔ " + cat.render(exc.code, **exc.params)
    return "⚠️ " + cat.render("error.unexpected")


async def send_error(bot: CoronerBot, interaction: discord.Interaction, exc: BaseException) -> None:
    """Reply ephemerally with the error text (as a follow-up if the interaction was already answered)."""
    from bot.tables import TableError

    if not isinstance(exc, IllegalAction | TableError | UserError):
        log.exception("interaction failed", exc_info=exc)
    text = error_text(await bot.language(interaction.guild_id), exc)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply", exc_info=True)


def install_error_handler(bot: CoronerBot) -> None:
    """Route every app command error through :func:`send_error`."""

    async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, app_commands.MissingPermissions):
            original = UserError("error.missing_permissions")
        elif isinstance(original, app_commands.NoPrivateMessage):
            original = UserError("error.guild_only")
        await send_error(bot, interaction, original)

    bot.tree.on_error = on_error
