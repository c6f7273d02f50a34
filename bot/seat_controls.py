"""The controls that change who plays a seat (issue 24), each a move through the one door
(:meth:`bot.ui.GameUI.play` -> :meth:`bot.tables.TableService.act`, checked by :mod:`bot.tables.seats` and the engine
contract, :mod:`games.core.seats`):

* "I'm back" on the table (:func:`take_back`): the player the computer plays for takes their seat back; the table's
  edit answers the click. Anyone else gets a private refusal and nothing changes.
* "Take the seat" under the host's offer (:func:`accept_offer`): the person the offer names takes the seat; its
  secrets (the seat's own view) reach them by DM, and the old holder's controls are refused from then on.
* :func:`hand_over`: the host's replacement (``/replace``), by the computer at once or by an offer to a member.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.components import GameButton
from bot.deadline import edit_answer, respond
from bot.errors import UserError
from bot.tables import Table, TableError
from bot.tables.seats import OFFER_TIMER
from bot.ui import PINGS_USERS, Outgoing, RenderContext, ui_for
from games.core import HOST_SEAT

if TYPE_CHECKING:
    from bot.app import Coroner

#: how long an offer of a seat stands before it lapses
OFFER_FOR = timedelta(minutes=15)
BACK, TAKE = "back", "take_seat"


def back_button(table: Table, label: str) -> GameButton:
    """The table's "I'm back" button (any version: it stands while the computer plays someone's seat)."""
    return GameButton(table.id, 0, BACK, label=label, emoji="🙋", style=discord.ButtonStyle.success)


async def take_back(bot: Coroner, interaction: discord.Interaction, table: Table) -> None:
    """The clicker takes back the seat the computer plays for them. Raises ``TableError``
    (``seat.error.not_yours`` for anyone the computer plays for nobody of; ``table.not_active``)."""
    seat = table.away_seat_of(interaction.user.id)
    if seat is None:
        raise TableError("seat.error.not_yours", seat=table.seat_of(interaction.user.id))
    await ui_for(table.game, table.mode).play(bot, table, interaction.user.id, {"type": "seat_back", "seat": seat},
                                              interaction=interaction)
    if not interaction.response.is_done():  # (a click from a table message no longer current)
        await interaction.response.defer()


async def accept_offer(bot: Coroner, interaction: discord.Interaction, table: Table, seat: int) -> None:
    """The clicker takes ``seat`` the host offered them: the seat is theirs, the offer's message says so (its
    button gone) and the seat's secrets reach them by DM. Raises ``TableError`` (``seat.error.no_offer``,
    ``seat.error.seated``, ``seat.error.computer``...)."""
    ui = ui_for(table.game, table.mode)
    result = await ui.play(bot, table, interaction.user.id, {"type": "seat_replaced", "seat": seat, "to": "person"},
                           interaction=interaction)
    ctx = RenderContext(result.table, result.table.language)
    await edit_answer(interaction, content=ctx.t("seat.taken"), view=None)
    view = result.table.engine.view(result.table.state, seat)
    out = Outgoing(content=ctx.t("seat.new_holder", seat=ctx.shown_name(seat), channel=table.channel_id),
                   embeds=[ui.secrets_embed(ctx, seat, view)], language=ctx.language)
    await bot.delivery.dm(result.table, seat, out)


async def hand_over(bot: Coroner, interaction: discord.Interaction, table: Table, seat: int,
                    member: discord.Member | None) -> None:
    """The host's replacement of ``seat``: to the computer at once (``member`` None; answered privately), or an
    offer to ``member`` (the command's public answer, with the "Take the seat" button; it lapses after
    :data:`OFFER_FOR`). Raises ``UserError`` (``seat.error.host_only``, ``seat.error.bot``) or ``TableError``."""
    user = interaction.user
    manager = isinstance(user, discord.Member) and user.guild_permissions.manage_guild
    if user.id != table.host_id and not manager:
        raise UserError("seat.error.host_only")
    if not table.has_seat(seat):
        raise TableError("table.bad_seat", seat=seat)
    ctx = RenderContext(table, table.language)
    if member is None:
        await ui_for(table.game, table.mode).play(bot, table, None, {"type": "seat_replaced", "seat": seat,
                                                                      "to": "computer"}, seat=HOST_SEAT)
        await respond(interaction, ephemeral=True, content=ctx.t("seat.handed_to_computer", seat=ctx.shown_name(seat)))
        return
    if member.bot:
        raise UserError("seat.error.bot")
    if table.seat_of(member.id) is not None:
        raise TableError("seat.error.seated", seat=seat)
    if table.status != "active" or next(s for s in table.seats if s.seat == seat).is_ai:
        raise TableError("seat.error.computer" if table.status == "active" else "table.not_active", seat=seat)
    await bot.timers.schedule(table.id, OFFER_TIMER, bot.clock.now() + OFFER_FOR,
                              {"seat": seat, "user_id": member.id, "by": user.id})
    button = GameButton(table.id, 0, TAKE, str(seat), label=ctx.t("seat.button.take"), emoji="🪑",
                        style=discord.ButtonStyle.primary)
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    await respond(interaction, ephemeral=False, content=ctx.t("seat.offer", user=member.mention,
                                                              seat=ctx.shown_name(seat)),
                  view=view, allowed_mentions=PINGS_USERS)
