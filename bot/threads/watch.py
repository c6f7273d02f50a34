"""The living table's Watch button (:func:`bot.components.watch_button`): an onlooker joins the game's thread of
the dead and watchers. Answered only to the clicker; a seated player still in the game is refused (a seat that is
out is added as it goes out), and where the bot may not make threads the onlooker is told which permissions it
lacks. A watcher is never seated, so the game's own controls keep refusing them (``table.not_a_player``); one the
host hands a living seat leaves the thread at that step (:meth:`bot.threads.service.GameThreads.after_step`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.i18n import t
from bot.ui import SILENT

if TYPE_CHECKING:
    from bot.tables import Table
    from bot.threads.service import GameThreads


async def on_watch(threads: GameThreads, interaction: discord.Interaction, table: Table) -> None:
    """Add the clicker to the thread (answered ephemerally, deferred first: the thread may have to be made); a
    seated player who is out is shown the thread they are in. Raises ``UserError``: ``threads.watch.over`` once
    the game is not running, ``threads.watch.unavailable`` without the thread permissions, ``threads.watch.seated``
    for a player still in the game, ``threads.watch.none`` when the game has no such thread (Discord refused it,
    or a player could have read it)."""
    if table.status != "active":
        raise UserError("threads.watch.over")
    if threads.allowed(table.channel_id) is False:
        raise UserError("threads.watch.unavailable")
    if not interaction.response.is_done():  # (already deferred while the database is slow)
        await interaction.response.defer(ephemeral=True, thinking=True)
    if table.seat_of(interaction.user.id) is not None:  # a player who is out is in the thread already
        thread_id = await threads.thread_with(table, interaction.user.id)
        if thread_id is None:
            raise UserError("threads.watch.seated")
    else:
        thread_id = await threads.watch(table, interaction.user.id)
    if thread_id is None:
        raise UserError("threads.watch.none")
    text = t("threads.watch.added", table.language, thread=f"<#{thread_id}>")
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=SILENT)
