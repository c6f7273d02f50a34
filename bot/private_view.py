"""A player's own private view, shown ephemerally: the My secrets button's answer and ``/hand``'s."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs.reference.held import held, held_embed
from bot.components import view_of
from bot.deadline import respond
from bot.errors import UserError
from bot.ui import Outgoing, RenderContext, ui_for

if TYPE_CHECKING:
    from bot.tables import Table


async def show_secrets(interaction: discord.Interaction, table: Table) -> None:
    """Reply ephemerally with the clicker's private view (only ever their own), what each card it holds does (the
    card reference, from that same view) and the controls the game offers there
    (:meth:`bot.ui.GameUI.secrets_items`): the callback, or the follow-up of an interaction deferred while the
    database was slow (:func:`bot.deadline.respond`). Raises ``UserError``: ``secrets.not_a_player``,
    ``secrets.not_started``."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise UserError("secrets.not_a_player")
    if table.state is None:
        raise UserError("secrets.not_started")
    ctx = RenderContext(table, table.language)
    ui, view = ui_for(table.game, table.mode), table.engine.view(table.state, seat)
    items = ui.secrets_items(ctx, seat, view) if table.status == "active" else []
    explained = held_embed(held(table.game, seat, view), ctx.language)  # what the seat's own cards do
    embeds = [ui.secrets_embed(ctx, seat, view), *([explained] if explained else [])]
    out = Outgoing(embeds=embeds, view=view_of(*items) if items else None, language=ctx.language)
    await respond(interaction, ephemeral=True, **out.kwargs())
