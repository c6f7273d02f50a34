"""The controls that change who plays a seat (issue 24), each a move through the one door
(:meth:`bot.ui.GameUI.play` -> :meth:`bot.tables.TableService.act`, checked by :mod:`bot.tables.seats` and the engine
contract, :mod:`games.core.seats`):

* "I'm back" on the table, and in the DM its player gets when the computer takes their seat over
  (:func:`away_notices`), :func:`take_back`: the player the computer plays for takes their seat back; the table's
  edit answers the click (the DM's, that DM's edit). Anyone else gets a private refusal and nothing changes.
* "Take the seat" under the host's offer (:func:`accept_offer`): the person the offer names takes the seat; its
  secrets (the seat's own view) reach them by DM (closed DMs: "My secrets" instead), and the old holder's controls
  are refused from then on. An offer ends when nobody took it after :data:`OFFER_FOR`, when another offer of the
  seat supersedes it, when the seat is handed over or when the game ends: its message says which, its button gone
  (:func:`offer_lapsed`), and a click that comes later still is refused.
* :func:`hand_over`: the host's replacement (``/replace``), by the computer at once (:func:`to_computer`) or by an
  offer to a member (:func:`offer_seat`); the host's panel (:mod:`bot.cogs.host`) makes the same two.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.components import GameButton, secrets_button, view_of
from bot.deadline import edit_answer, in_time, respond
from bot.errors import UserError
from bot.i18n import t
from bot.members import is_manager, user_names
from bot.seat_texts import handed_word, host_seat_taken, newcomer_dm, offer_end, offer_message, offered_word
from bot.tables import Table, TableError
from bot.tables.seats import holds
from bot.ui import Outgoing, RenderContext, text_name, ui_for
from games.core import HOST_SEAT, Event
from games.core.controls import NAME_LENGTH
from games.core.seats import MAX_NAMES, seat_change_refusal

if TYPE_CHECKING:
    from bot.app import Coroner

log = logging.getLogger(__name__)

#: how long an offer of a seat stands before it lapses
OFFER_FOR = timedelta(minutes=15)
BACK = "back"


def back_button(table: Table, label: str) -> GameButton:
    """The table's "I'm back" button (any version: it stands while the computer plays someone's seat)."""
    return GameButton(table.id, 0, BACK, label=label, emoji="🙋", style=discord.ButtonStyle.success)


def away_notices(table: Table, events: list[Event]) -> list[tuple[int, Outgoing]]:
    """The DM each player gets when the computer takes their seat over (a ``seat.away`` event of the step that
    produced ``table``): what happened, where, and the same "I'm back" button as the table's (it works from the
    DM, across restarts: its custom_id carries the game only)."""
    ctx = RenderContext(table, table.language)
    return [(event.params["seat"], Outgoing(
        content=ctx.t("seat.away_dm", channel=table.channel_id), language=table.language,
        view=view_of(back_button(table, ctx.t("seat.button.back"))))) for event in events
        if event.key == "seat.away" and table.user_of(event.params.get("seat", -1)) is not None]


async def take_back(bot: Coroner, interaction: discord.Interaction, table: Table) -> None:
    """The clicker takes back the seat the computer plays for them, from the table or from the DM that told them
    (:func:`away_notices`): the table's edit answers a click on it; a DM's click is answered by that DM saying
    they are back (its button gone), or, once the host handed their seat over, saying so (its button gone too).
    Raises ``TableError`` (``seat.error.not_yours`` for anyone the computer plays for nobody of;
    ``seat.error.back_already`` from the DM of someone who came back already; ``table.not_active``)."""
    seat = table.away_seat_of(interaction.user.id)
    if seat is None and interaction.guild_id is None and table.seat_of(interaction.user.id) is not None:
        raise TableError("seat.error.back_already")  # (the DM's button, once they came back by the table's)
    if seat is None and interaction.guild_id is None:  # (the DM's button, once the host handed the seat over)
        ctx = RenderContext(table, table.language)
        await edit_answer(interaction, content=ctx.t("seat.handed_over_dm", channel=table.channel_id), view=None)
        return
    if seat is None:
        raise TableError("seat.error.not_yours", seat=table.seat_of(interaction.user.id))
    result = await ui_for(table.game, table.mode).play(bot, table, interaction.user.id,
                                                       {"type": "seat_back", "seat": seat}, interaction=interaction)
    if interaction.guild_id is None:  # the DM's button
        ctx = RenderContext(result.table, result.table.language)
        await edit_answer(interaction, content=ctx.t("seat.back_dm", channel=table.channel_id), view=None)
    elif not interaction.response.is_done():  # (a click from a table message no longer current)
        await interaction.response.defer()


async def accept_offer(bot: Coroner, interaction: discord.Interaction, table: Table, seat: int) -> None:
    """The clicker takes ``seat`` the host offered them: the seat is theirs and goes by their name from now on (the
    history keeps who held it before); the seat's secrets reach them by DM, named as the seat went before, with the
    controls the seat has now (those of **My secrets**: an answer the seat owes, say), and the offer's message says
    so (its button gone); when their DMs are closed it says that instead, with the "My secrets" button that shows
    them the secrets privately (and the channel's closed-DM notice names them, as any closed-DM player). When it
    was the host's own seat, the host (passed on) is told by DM (:func:`host_seat_taken`). Raises
    ``TableError`` (``seat.error.no_offer``, ``seat.error.offer_lapsed``, ``seat.error.seated``,
    ``seat.error.computer``...)."""
    ui = ui_for(table.game, table.mode)
    names = [name[:NAME_LENGTH] for name in user_names(interaction.user)][:MAX_NAMES]
    result = await ui.play(bot, table, interaction.user.id, {"type": "seat_replaced", "seat": seat, "to": "person",
                                                             "names": names}, interaction=interaction)
    ctx = RenderContext(result.table, result.table.language)
    out = newcomer_dm(ui, table, result.table, seat)
    if await in_time(interaction, bot.delivery.dm(result.table, seat, out)):
        await edit_answer(interaction, content=ctx.t("seat.taken"), view=None)
    else:
        await edit_answer(interaction, content=ctx.t("seat.taken_dm_closed"),
                          view=view_of(secrets_button(table.id, ctx.t("secrets.button"))))
    if table.user_of(seat) == table.host_id and result.table.host_id != table.host_id:
        await bot.delivery.dm(table, seat, host_seat_taken(table, result.table, seat))


def check_replacer(interaction: discord.Interaction, table: Table) -> None:
    """Refuse anyone but the table's host and the server's managers the replacement of a player. Raises
    ``UserError("seat.error.host_only")``."""
    if interaction.user.id != table.host_id and not is_manager(interaction.user):
        raise UserError("seat.error.host_only")


def computer_name(table: Table) -> str:
    """The name a seat handed to the computer goes by from then on: the next computer player's of ``table``, as the
    lobby numbers them (``lobby.ai_name``: "🤖 AI 2" beside a lobby's "🤖 AI 1")."""
    return t("lobby.ai_name", table.language, number=sum(seat.is_ai for seat in table.seats) + 1)[:NAME_LENGTH]


async def to_computer(bot: Coroner, table: Table, seat: int) -> Table:
    """The host hands ``seat`` to the computer at once (``seat_replaced`` to the computer, sent as ``HOST_SEAT``;
    the caller checked who asks): from then on the seat is the computer's and goes by a computer player's name
    (:func:`computer_name`; the history keeps who held it before). The table after it (over as abandoned when
    nobody plays any more). Raises ``TableError`` (``table.bad_seat``, ``seat.error.computer``,
    ``seat.error.dead``, ``table.not_active``)."""
    if not table.has_seat(seat):
        raise TableError("table.bad_seat", seat=str(seat + 1))  # numbered from 1, as shown (not a seat to name)
    action = {"type": "seat_replaced", "seat": seat, "to": "computer", "names": [computer_name(table)]}
    result = await ui_for(table.game, table.mode).play(bot, table, None, action, seat=HOST_SEAT)
    return result.table


async def offer_seat(bot: Coroner, table: Table, seat: int, newcomer: int, *, is_bot: bool, by: int,
                     post: Callable[[Outgoing], Awaitable[int | None]]) -> None:
    """Offer ``seat`` to the member ``newcomer`` (a Discord id; ``is_bot``: a bot account) for the host ``by``: the
    offer is armed (it lapses after :data:`OFFER_FOR`; the seat's earlier offers end now, superseded) and its
    public message, with the "Take the seat" button only ``newcomer`` may use (:func:`accept_offer`), posted by
    ``post`` (which returns its id, kept so that the offer's end edits it: :func:`offer_lapsed`). Who may be
    offered which seat is the engine's rule (:func:`games.core.seats.seat_change_refusal`). Raises
    ``UserError("seat.error.bot")`` or ``TableError`` (``table.bad_seat``, ``table.not_active``,
    ``seat.error.member_seated``, ``seat.error.computer``, ``seat.error.dead``); nothing is armed or posted
    then."""
    if not table.has_seat(seat):
        raise TableError("table.bad_seat", seat=str(seat + 1))  # numbered from 1, as shown (not a seat to name)
    if is_bot:
        raise UserError("seat.error.bot")
    if table.status != "active":
        raise TableError("table.not_active", game_id=table.id)
    refusal = seat_change_refusal(holds(table), {"type": "seat_replaced", "seat": seat, "to": "person"},
                                  person=True, sender=table.seat_of(newcomer), offered=True)
    if refusal == "seat.error.seated":  # (said to the host, of the member)
        raise TableError("seat.error.member_seated", user=f"<@{newcomer}>")
    if refusal is not None:
        raise TableError(refusal, seat=seat)
    now = bot.clock.now()
    timer = await bot.tables.arm_offer(table.id, seat, newcomer, by, now + OFFER_FOR, now)
    bot.timers.wake(now)  # (the offers it superseded are due now)
    message = await post(offer_message(table, seat, newcomer))
    if message is not None:
        ended = await bot.tables.offer_posted(timer, message)
        if ended is not None:  # it ended (superseded, the seat handed over...) before its message was recorded
            await end_offer(bot, table.id, ended)


async def hand_over(bot: Coroner, interaction: discord.Interaction, table: Table, seat: int,
                    member: discord.Member | None) -> None:
    """``/replace``: the host's replacement of ``seat``: to the computer at once (``member`` None; answered
    privately), or an offer to ``member`` (:func:`offer_seat`): the command's public answer, or, once the command
    was deferred (privately, so that a refusal is never public), a channel message of its own, the host told
    privately. Raises ``UserError``
    (``seat.error.host_only``, ``seat.error.bot``) or ``TableError``."""
    check_replacer(interaction, table)
    if member is None:
        after = await to_computer(bot, table, seat)
        await respond(interaction, ephemeral=True, content=handed_word(table, after, seat))
        return
    if not interaction.response.is_done():  # the offer is the command's public answer
        await offer_seat(bot, table, seat, member.id, is_bot=member.bot, by=interaction.user.id,
                         post=lambda out: respond(interaction, ephemeral=False, **out.kwargs()))
        return
    # deferred privately (a slow database: a refusal stays private), so the offer is a message of its own
    await offer_seat(bot, table, seat, member.id, is_bot=member.bot, by=interaction.user.id,
                     post=channel_post(bot, table))
    await respond(interaction, ephemeral=True, content=offered_word(table, seat, member.id))


def channel_post(bot: Coroner, table: Table) -> Callable[[Outgoing], Awaitable[int | None]]:
    """An offer's ``post`` (:func:`offer_seat`) that sends it to the game's channel as a message of its own (the
    host's panel, and ``/replace`` once its answer was deferred privately)."""
    delivery = bot.delivery

    async def post(out: Outgoing) -> int:
        return (await delivery.send(await delivery.channel(table.channel_id), out, "offer")).id

    return post


async def offer_lapsed(bot: Coroner, timer: Any) -> None:
    """The ``seat_offer`` timer (:data:`~bot.tables.seats.OFFER_TIMER`): the offer ended; its message (by the id
    its payload keeps) says why, its button gone: it lapsed, another offer of the seat superseded it, the seat was
    handed over, its newcomer took another seat (payload ``why``: ``superseded``, ``taken``, ``seated``) or the game
    is over. The offer the newcomer took
    was disarmed: this does not run for it. An offer that ends before its message is recorded has no message here:
    :func:`offer_seat` ends it once it records it (:meth:`~bot.tables.offers.OffersMixin.offer_posted`)."""
    await end_offer(bot, timer.game_id, timer.payload)


async def end_offer(bot: Coroner, game_id: int, payload: dict[str, Any]) -> None:
    """Edit the message of the offer whose timer payload is ``payload`` (``seat``, ``user_id``, ``message``,
    ``why``) to say why it ended, its button gone (:func:`offer_lapsed`). A message Discord refuses to edit
    (deleted) is logged and left; a payload without a message: nothing."""
    seat, message = payload.get("seat"), payload.get("message")
    if not isinstance(message, int) or not isinstance(seat, int):
        return
    table = await bot.tables.load(game_id)
    channel = await bot.delivery.channel(table.channel_id)
    try:
        await channel.get_partial_message(message).edit(  # type: ignore[attr-defined]
            **offer_end(table, payload).kwargs(edit=True))
    except discord.HTTPException as exc:
        log.info("could not end the offer message %s of game %s: %s", message, table.id, exc)


def seat_line(ctx: RenderContext, event: Event) -> str:
    """The public line of a seat change's event (``seat.*``), worded alike in every game: the seat by the name it
    goes by now, and for a replacement the name it had (``was``)."""
    params = ctx.seat_params(event.params)
    if event.key.startswith("seat.replaced."):  # (one logged before the names were: the seat's name stands in)
        was = event.params.get("was")
        params["was"] = text_name(str(was)) if was else params["seat"]
    return ctx.t(event.key, **params)
