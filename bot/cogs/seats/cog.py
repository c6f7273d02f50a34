"""``/replace seat [member]``: the table's host (or a member with Manage Server) replaces a seated player of the
channel's running game: by ``member`` (an offer posted in the channel that only they may accept) or, without one,
by the computer at once. The seat is picked from the table's seats (autocomplete); everything else is
:func:`bot.seat_controls.hand_over`. An offer nobody took lapses by its timer (:func:`bot.seat_controls.offer_lapsed`,
registered here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.budget import OPTION_TEXT, clip
from bot.deadline import acknowledge_if_slow
from bot.errors import UserError, send_error
from bot.seat_controls import hand_over, offer_lapsed
from bot.tables.seats import OFFER_TIMER, holds

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

#: the highest seat number the command takes (a table holds at most 12 players); seats are numbered from 1 as the
#: table and the autocomplete show them ("#1 Alice")
MAX_SEAT = 12


class Seats(commands.Cog):
    """``/replace``, and the lapse of the offers it and the host's panel make."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot
        bot.timers.on(OFFER_TIMER, lambda timer: offer_lapsed(bot, timer))

    async def _running(self, interaction: discord.Interaction) -> Table:
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None or table.status != "active":
            raise UserError("seat.error.no_game")
        return table

    async def seat_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        """The seats of the channel's running game a host may hand over (a person's, away or not, not dead) whose
        name contains ``current`` (at most 25)."""
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None or table.state is None:
            return []
        typed = current.casefold()
        return [app_commands.Choice(name=clip(f"#{h.seat + 1} {table.shown_name(h.seat)}", OPTION_TEXT),
                                    value=h.seat + 1) for h in holds(table)
                if h.person and not h.dead and typed in table.shown_name(h.seat).casefold()][:25]

    @app_commands.command(name="replace", description=_("Hand a player's seat to someone else or to the computer"))
    @app_commands.describe(seat=_("The seat to hand over"),
                           member=_("Who takes it (they accept with a button); leave empty for the computer"))
    @app_commands.autocomplete(seat=seat_autocomplete)
    @app_commands.guild_only()
    async def replace(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, MAX_SEAT],
                      member: discord.Member | None = None) -> None:
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # a refusal is never public
        table = None
        try:
            table = await self._running(interaction)
            await hand_over(self.bot, interaction, table, seat - 1, member)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply, seats by name
            await send_error(self.bot, interaction, exc, table)
