"""The server's dead role (``/config deadrole``) in a social game: given to each player as they die, taken back
from every dead player when the game ends, or as soon as their dead seat is handed over to someone else (the
computer or a newcomer, ``seat_replaced``): the role is the person's who died, so it never moves with the seat.

Best effort: when Discord refuses (no Manage Roles, the role above the bot's, an unknown role or member, a server
error), the refusal is logged and the game goes on; one refusal never stops the other players' changes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import ActResult, Table

log = logging.getLogger(__name__)

DEATH = "asesino_social.death"


async def after_action(bot: Coroner, result: ActResult) -> None:
    """Give the dead role to players the action killed; once the game is over, take it back from every dead
    player instead. Never raises for Discord's refusals."""
    table = result.table
    if table.status == "finished":
        await clear_dead(bot, table)
    elif table.status == "active":
        await mark_dead(bot, table, [e.params["seat"] for e in result.events if e.key == DEATH])


async def release_seat(bot: Coroner, before: Table, result: ActResult, action: dict[str, Any]) -> None:
    """Take the dead role back from the person who held a dead seat ``before`` the seat change ``action`` gave it
    to someone else (:func:`clear_dead` at the end only reaches a seat's holder then). Never raises for
    Discord's refusals."""
    if action.get("type") != "seat_replaced" or result.table.state is None:
        return
    seat = action.get("seat")
    if not isinstance(seat, int) or not result.table.has_seat(seat) or result.table.state.seats[seat].alive:
        return
    user_id = before.user_of(seat)
    if user_id is not None and user_id != result.table.user_of(seat):
        await _change(bot, result.table, [seat], add=False, holders={seat: user_id})


async def mark_dead(bot: Coroner, table: Table, seats: list[int]) -> None:
    """Give the dead role to ``seats``."""
    await _change(bot, table, seats, add=True)


async def clear_dead(bot: Coroner, table: Table) -> None:
    """Take the dead role back from every dead player of a finished (or cancelled) game."""
    if table.state is None:
        return
    await _change(bot, table, [i for i, seat in enumerate(table.state.seats) if not seat.alive], add=False)


async def _change(bot: Coroner, table: Table, seats: list[int], *, add: bool,
                  holders: dict[int, int] | None = None) -> None:
    """Give (``add``) or take back the dead role for ``seats``, from their holders in ``table`` unless ``holders``
    (seat -> Discord user id) names them."""
    if not seats:
        return
    role_id = (await bot.config(table.guild_id)).dead_role_id
    if role_id is None:
        return
    for seat in seats:
        user_id = (holders or {}).get(seat, table.user_of(seat))
        if user_id is None:
            continue
        try:
            if add:
                await bot.http.add_role(table.guild_id, user_id, role_id, reason="Coroner: dead in game")
            else:
                await bot.http.remove_role(table.guild_id, user_id, role_id, reason="Coroner: game over")
        except discord.HTTPException as exc:  # Forbidden included
            log.info("could not %s the dead role %s for %s: %s", "give" if add else "take back", role_id, user_id,
                     exc)
