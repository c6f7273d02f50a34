"""``/host``, ``/pause``, ``/resume`` and the ``host`` components (the table's Host button and the panel's
controls). Who may use them is checked here (the host or a server manager, :func:`~bot.cogs.host.panel.check_host`);
what pausing does is the engine's (:mod:`games.core.controls`), reached through the one door
(:meth:`bot.ui.GameUI.play`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.host.panel import check_host, panel, replace_panel
from bot.deadline import acknowledge_if_slow, edit_answer, in_time, respond
from bot.errors import UserError, send_error
from bot.i18n import t
from bot.members import is_manager
from bot.seat_controls import channel_post, offer_seat, to_computer
from bot.seat_texts import handed_word, offered_word
from bot.tables import TableError
from bot.ui import ui_for
from games.core.controls import NAME_LENGTH

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

#: the host's controls that are moves of the game (the panel's buttons and the commands)
CONTROLS = ("pause", "resume")


class Host(commands.Cog):
    """The host's powers over the running game of a channel."""

    def __init__(self, bot: Coroner) -> None:
        self.bot = bot

    async def _table_here(self, interaction: discord.Interaction) -> Table:
        await acknowledge_if_slow(interaction, ephemeral=True, thinking=True)  # before the first query
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)
        if table is None or table.status != "active":
            raise UserError("host.no_game_here")
        return table

    @app_commands.command(name="host", description=_("The host's controls of the game in this channel"))
    @app_commands.guild_only()
    async def host(self, interaction: discord.Interaction) -> None:
        try:
            table = await self._table_here(interaction)
            check_host(table, interaction.user.id, manager=is_manager(interaction.user))
            await respond(interaction, ephemeral=True, **panel(table))
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self.bot, interaction, exc)

    @app_commands.command(name="pause", description=_("Pause the game in this channel (host or Manage Server)"))
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, "pause")

    @app_commands.command(name="resume",
                          description=_("Resume the paused game in this channel (host or Manage Server)"))
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._command(interaction, "resume")

    async def _command(self, interaction: discord.Interaction, kind: str) -> None:
        table = None
        try:
            table = await self._table_here(interaction)
            done = await in_time(interaction, self.control(interaction, table, kind), ephemeral=True, thinking=True)
            await respond(interaction, ephemeral=True, content=t(f"host.done.{kind}", done.language))
        except Exception as exc:  # noqa: BLE001 - every failure becomes a clear ephemeral reply
            await send_error(self.bot, interaction, exc, table)

    async def control(self, interaction: discord.Interaction, table: Table, kind: str, *,
                      answering: bool = False) -> Table:
        """Make the host's control ``kind`` (``pause``, ``resume``) as ``interaction``'s user, through the one door;
        the table shows it (one edit). ``answering``: the interaction is a click on the panel, answered in time
        (:func:`bot.deadline.in_time`) by :meth:`bot.ui.GameUI.play`'s deferral when slow. Returns the table after
        it. Raises ``TableError`` (``host.only``, ``table.not_active``, ``host.stale.<kind>``: a move landed at the
        same moment, nothing changed) or the engine's refusal (``core.already_paused``, ``core.not_paused``,
        ``core.game_over``)."""
        user = interaction.user
        manager = is_manager(user)
        check_host(table, user.id, manager=manager)
        action = {"type": kind, "at": self.bot.clock.now().isoformat(), "by": user.display_name[:NAME_LENGTH]}
        try:
            result = await ui_for(table.game, table.mode).play(self.bot, table, user.id, action, manager=manager,
                                                               interaction=interaction if answering else None)
        except TableError as exc:  # a move landed at that moment: said as what did not happen, not "out of date"
            if exc.code == "table.stale":
                raise TableError(f"host.stale.{kind}", game_id=table.id) from exc
            raise
        return result.table

    async def on_component(self, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
        """A ``host`` component: ``panel`` (the table's Host button: the panel, privately), or a control on the
        panel (the panel is then edited to what the game is now)."""
        if arg == "panel":
            check_host(table, interaction.user.id, manager=is_manager(interaction.user))
            await respond(interaction, ephemeral=True, **panel(table))
            return
        handler = HANDLERS.get(arg.partition(".")[0])  # (a power's arg may carry a seat: ``replace_ai.3``)
        if handler is None:
            raise UserError("lobby.unknown_action")
        await handler(self, interaction, table, arg, values)


async def _control(cog: Host, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
    after = await cog.control(interaction, table, arg, answering=True)
    await edit_answer(interaction, **panel(after))


def _seat_of(table: Table, text: str) -> int:
    """The seat a replace control names (its select's value or its arg's tail). Raises ``table.bad_seat``."""
    if not text.isdigit() or not table.has_seat(int(text)):
        raise TableError("table.bad_seat", seat=text)
    return int(text)


async def _replace(cog: Host, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
    """Replace a player, first step: the seat picked, the panel asks who takes it."""
    check_host(table, interaction.user.id, manager=is_manager(interaction.user))
    await edit_answer(interaction, **replace_panel(table, _seat_of(table, values[0] if values else "")))


async def _replace_to(cog: Host, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
    """Replace a player by the member picked: the same offer as ``/replace seat member``, posted in the channel;
    the panel goes back to the host's powers and says who the offer went to."""
    check_host(table, interaction.user.id, manager=is_manager(interaction.user))
    seat = _seat_of(table, arg.partition(".")[2])
    newcomer = int(values[0]) if values and values[0].isdigit() else 0
    bots = interaction.extras.get("picked_bots", set())
    await in_time(interaction, offer_seat(cog.bot, table, seat, newcomer, is_bot=newcomer in bots,
                                          by=interaction.user.id, post=channel_post(cog.bot, table)))
    await edit_answer(interaction, content=offered_word(table, seat, newcomer), **panel(table))


async def _replace_ai(cog: Host, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
    """Replace a player by the computer at once; the panel says so (and closes once the game ended with it, or
    once the host handed their own seat and with it the host's powers, :func:`~bot.seat_controls.handed_word`)."""
    check_host(table, interaction.user.id, manager=is_manager(interaction.user))
    seat = _seat_of(table, arg.partition(".")[2])
    after = await in_time(interaction, to_computer(cog.bot, table, seat))
    hosts = interaction.user.id == after.host_id or is_manager(interaction.user)
    await edit_answer(interaction, content=handed_word(table, after, seat),
                      **(panel(after) if after.status == "active" and hosts else {"embed": None, "view": None}))


async def _back(cog: Host, interaction: discord.Interaction, table: Table, arg: str, values: list[str]) -> None:
    check_host(table, interaction.user.id, manager=is_manager(interaction.user))
    await edit_answer(interaction, content=None, **panel(table))


#: a panel control's handler: ``(cog, interaction, table, arg, values)``
Handler = Callable[[Host, discord.Interaction, "Table", str, list[str]], Awaitable[None]]
#: the panel's controls by ``arg`` (its part before a ``.``; see :mod:`bot.cogs.host.panel` to add a power)
HANDLERS: dict[str, Handler] = {**{kind: _control for kind in CONTROLS}, "replace": _replace,
                                "replace_to": _replace_to, "replace_ai": _replace_ai, "back": _back}
