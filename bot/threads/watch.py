"""The living table's Watch button (:func:`bot.components.watch_button`): an onlooker joins the game's thread of
the dead and watchers. Answered only to the clicker; a seated player is refused (a seat that is out is added as it
goes out), and where the bot may not make threads the onlooker is told which permissions it lacks. A watcher is
never seated, so the game's own controls keep refusing them (``table.not_a_player``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.ui import SILENT

if TYPE_CHECKING:
    from bot.tables import Table
    from bot.threads.service import GameThreads


async def on_watch(threads: GameThreads, interaction: discord.Interaction, table: Table) -> None:
    """Add the clicker to the thread (answered ephemerally, deferred first: the thread may have to be made).
    Raises ``UserError``: ``threads.watch.seated`` for a seated player, ``threads.watch.over`` once the game is not
    running, ``threads.watch.unavailable`` without the thread permissions."""
    if table.status != "active":
        raise UserError("threads.watch.over")
    if table.seat_of(interaction.user.id) is not None:
        raise UserError("threads.watch.seated")
    if threads.allowed(table.channel_id) is False:
        raise UserError("threads.watch.unavailable")
    await interaction.response.defer(ephemeral=True, thinking=True)
    thread_id = await threads.watch(table, interaction.user.id)
    if thread_id is None:
        raise UserError("threads.watch.unavailable")
    text = await threads.bot.t(interaction.guild_id, "threads.watch.added", thread=f"<#{thread_id}>")
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=SILENT)
