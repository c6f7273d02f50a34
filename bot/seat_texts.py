"""The texts of the seat controls (:mod:`bot.seat_controls`), each a whole message budgeted by :mod:`bot.budget`
(an :class:`~bot.ui.Outgoing`, or a text fitted to a message's content), whatever the names: the newcomer's secrets
DM, the old host's DM, a seat's offer and the edit that ends it, and what the host is told privately."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.budget import CONTENT, fit_lines
from bot.components import GameButton, view_of
from bot.ui import GameUI, Outgoing, RenderContext

if TYPE_CHECKING:
    from bot.tables import Table

TAKE = "take_seat"
#: why an offer ended, as its timer's payload says (``ended``: the game is over)
OFFER_ENDS = ("lapsed", "superseded", "taken", "seated", "ended")


def fitted(text: str, language: str) -> str:
    """``text`` as a message's whole content (:func:`bot.budget.fit_lines`): for an answer that also carries a
    panel, where an :class:`~bot.ui.Outgoing` would not."""
    return fit_lines(text, CONTENT, language)


def newcomer_dm(ui: GameUI, before: Table, after: Table, seat: int) -> Outgoing:
    """The DM a newcomer gets once they took ``seat`` (``before`` and ``after`` the change): the seat named as it
    went before, its secrets (the seat's own view) and, while the game runs, the controls **My secrets** has (an
    answer the seat owes, say)."""
    ctx = RenderContext(after, after.language)
    view = after.engine.view(after.state, seat)
    was = RenderContext(before, before.language).shown_name(seat)  # by now the seat goes by the newcomer's name
    items = ui.secrets_items(ctx, seat, view) if after.status == "active" else []
    return Outgoing(content=ctx.t("seat.new_holder", seat=was, channel=before.channel_id),
                    embeds=[ui.secrets_embed(ctx, seat, view)], view=view_of(*items) if items else None,
                    language=ctx.language)


def host_seat_taken(before: Table, after: Table, seat: int) -> Outgoing:
    """The DM the host gets once a newcomer took the host's own ``seat`` (``before`` and ``after`` the change): who
    took it, where, and who hosts the game from now on (:func:`games.core.seats.next_host`)."""
    ctx = RenderContext(after, after.language)
    successor = after.seat_of(after.host_id)
    return Outgoing(content=ctx.t("seat.host_seat_taken_dm", user=ctx.shown_name(seat), channel=after.channel_id,
                                  host=ctx.shown_name(successor) if successor is not None else "-"),
                    language=after.language)


def offer_message(table: Table, seat: int, newcomer: int) -> Outgoing:
    """The public offer of ``seat`` to the member ``newcomer`` (a Discord id), pinging them alone, with the "Take
    the seat" button (its custom_id carries the seat)."""
    ctx = RenderContext(table, table.language)
    button = GameButton(table.id, 0, TAKE, str(seat), label=ctx.t("seat.button.take"), emoji="🪑",
                        style=discord.ButtonStyle.primary)
    return Outgoing(content=ctx.t("seat.offer", user=f"<@{newcomer}>", seat=ctx.shown_name(seat)),
                    view=view_of(button), mentions=True, only_pings=(newcomer,), language=table.language)


def offer_end(table: Table, payload: dict[str, Any]) -> Outgoing:
    """What an offer's message says once it ended (its timer's ``payload``: ``seat``, ``user_id``, ``why``, one of
    :data:`OFFER_ENDS`; ``ended`` whatever the payload says once ``table`` is over), pinging nobody; sent as the
    whole message (``kwargs(edit=True)``), its button gone."""
    why = payload.get("why", "lapsed") if table.status == "active" else "ended"
    ctx = RenderContext(table, table.language)
    return Outgoing(content=ctx.t(f"seat.offer_{why}", user=f"<@{payload.get('user_id')}>",
                                  seat=ctx.shown_name(int(payload["seat"]))), language=table.language)


def handed_word(before: Table, after: Table, seat: int) -> str:
    """What the host is told once ``seat`` went to the computer (``before`` and ``after`` the change): that it is
    the computer's, and when it was the host's own seat, who hosts the game from now on (:func:`fitted`)."""
    ctx = RenderContext(before, before.language)  # (the seat by the name it had: now it is the computer's)
    said = ctx.t("seat.handed_to_computer", seat=ctx.shown_name(seat))
    successor = after.seat_of(after.host_id)
    if after.host_id != before.host_id and successor is not None:
        said += "\n" + ctx.t("seat.host_passed", user=after.shown_name(successor))
    return fitted(said, before.language)


def offered_word(table: Table, seat: int, newcomer: int) -> str:
    """What the host is told privately once ``seat``'s offer to ``newcomer`` (a Discord id) was posted
    (:func:`fitted`)."""
    ctx = RenderContext(table, table.language)
    return fitted(ctx.t("host.replace.offered", user=f"<@{newcomer}>", seat=ctx.shown_name(seat)), table.language)
