"""The server's dead role (``/config deadrole``) in a social game, applied as the engine's rule says
(:func:`games.core.seats.dead_role`: who died gets it; when the game ends, finished or cancelled, every dead
player gives it back; a dead seat is never handed over, so the role never moves with a seat).

Best effort: when Discord refuses (no Manage Roles, the role above the bot's, an unknown role or member, a server
error), the refusal is logged and the game goes on; one refusal never stops the other players' changes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.tables.seats import holds
from games.core.seats import dead_role

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)


async def apply_dead_role(bot: Coroner, before: Table, after: Table) -> None:
    """Give and take back the dead role as the step from ``before`` to ``after`` calls for (``after`` over:
    taken back from every dead player). Never raises for Discord's refusals."""
    if after.state is None or before.state is None:
        return
    gets, loses = dead_role(holds(before), holds(after), over=after.status != "active")
    await _change(bot, after, gets, add=True)
    await _change(bot, after, loses, add=False)


async def _change(bot: Coroner, table: Table, seats: list[int], *, add: bool) -> None:
    """Give (``add``) or take back the dead role for the holders of ``seats`` in ``table``."""
    if not seats:
        return
    role_id = (await bot.config(table.guild_id)).dead_role_id
    if role_id is None:
        return
    for seat in seats:
        user_id = table.user_of(seat)
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
