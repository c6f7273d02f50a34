"""The host's review of a refused Farewell Letter (ruling "Farewell Letters": "The writer may send a refused letter
to the host for review instead; the host approves (it is posted) or rejects it privately").

When a player's action produced ``asesino_social.review.sent``, :func:`offer` DMs the game's host the letter (with
mentions neutralised), its writer, why the checks refused it, and two persistent buttons
``social_review:<review>-yes`` / ``-no``. :func:`decide` plays the click as the host action ``review_letter``
through the one door every move takes (:meth:`bot.ui.GameUI.play`): the table service makes the host's click
``HOST_SEAT`` and the engine refuses anyone else (``asesino_social.host_only``, privately, changing nothing); the
DM becomes the decision. The writer hears the decision from the engine's private event.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.asesino.render import neutral
from bot.components import game_button, view_of
from bot.deadline import edit_answer
from bot.errors import UserError
from bot.ui import COLOUR, Outgoing, RenderContext, ui_for
from games.asesino.social.writing import check_text
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import ActResult, Table

log = logging.getLogger(__name__)

BUTTON = "social_review"
SENT = "asesino_social.review.sent"
FIELD_LIMIT = 1000


def review_message(table: Table, review_id: int) -> Outgoing:
    """The host's DM for pending review ``review_id``: the letter, its writer, the refusal and the two buttons."""
    ctx = RenderContext(table, table.language)
    review = table.state.reviews[review_id - 1]
    try:
        check_text(table.state, review.text)
        reason = "-"
    except IllegalAction as exc:
        reason = ctx.t(exc.code, **exc.params)
    embed = discord.Embed(title=ctx.t("asesino_social.ui.review_title", review=review.id, game=table.id),
                          description=neutral(review.text)[:4000], colour=COLOUR)
    embed.add_field(name=ctx.t("asesino_social.ui.review_writer"), value=ctx.shown_name(review.seat)[:FIELD_LIMIT])
    embed.add_field(name=ctx.t("asesino_social.ui.review_reason"), value=neutral(reason)[:FIELD_LIMIT], inline=False)
    view = view_of(
        game_button(table.id, 0, BUTTON, f"{review.id}-yes", label=ctx.t("asesino_social.ui.review_approve"),
                    style=discord.ButtonStyle.success),
        game_button(table.id, 0, BUTTON, f"{review.id}-no", label=ctx.t("asesino_social.ui.review_reject"),
                    style=discord.ButtonStyle.danger))
    return Outgoing(embeds=[embed], view=view)


async def offer(bot: Coroner, result: ActResult) -> None:
    """DM the host every review the action sent (best effort: a closed DM is logged; the review stays pending)."""
    table = result.table
    for event in result.events:
        if event.key != SENT:
            continue
        try:
            channel = await bot.create_dm(discord.Object(id=table.host_id))
            await channel.send(**review_message(table, event.params["review"]).kwargs())
        except discord.HTTPException:
            log.warning("could not show review %s of game %s to its host", event.params["review"], table.id,
                        exc_info=True)


async def decide(bot: Coroner, interaction: discord.Interaction, table: Table, arg: Any) -> None:
    """Approve or reject on review ``arg`` (``<id>-yes`` / ``<id>-no``) pressed. Raises ``UserError``
    (``asesino_social.ui.unknown``), the table's refusal (``table.not_a_player``) or the engine's (not the host:
    ``asesino_social.host_only``; a review already decided) — answered privately by the caller's error handler."""
    number, _, answer = str(arg).partition("-")
    if not number.isdigit() or answer not in ("yes", "no"):
        raise UserError("asesino_social.ui.unknown")
    action = {"type": "review_letter", "review": int(number), "approve": answer == "yes"}
    await ui_for(table.game, table.mode).play(bot, table, interaction.user.id, action, interaction=interaction)
    ctx = RenderContext(table, table.language)
    decided = "approved" if answer == "yes" else "rejected"
    await edit_answer(interaction, content=ctx.t(f"asesino_social.ui.review_{decided}", review=number), view=None)
