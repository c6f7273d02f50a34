"""The host's panel: a private message of the host's powers over the running table, opened by the table's Host
button or ``/host``. Each power adds its controls through :func:`power` (in the order registered), so a new power
is one function here (or in its own module, registered at import):

    @power
    def _swap(ctx: RenderContext, table: Table) -> list[discord.ui.Item[Any]]:
        return [game_button(table.id, 0, "host", "swap", label=ctx.t("host.swap"))]

(``_replace`` below is one: a seat select, then :func:`replace_panel`). A ``host`` component's ``arg`` names the
power (its part before a ``.``: ``replace_ai.3`` carries the seat); :meth:`bot.cogs.host.cog.Host.on_component`
routes it (add the handler to its ``HANDLERS``). Every control refuses anyone but the host and the server's
managers privately (:func:`check_host`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import OPTION_TEXT, clip
from bot.components import GameSelect, GameUserSelect, LobbyButton, game_button, view_of
from bot.tables import TableError
from bot.tables.seats import holds
from bot.ui import COLOUR, RenderContext, text_name

if TYPE_CHECKING:
    from bot.tables import Table

#: a power's controls on the panel of ``table``
Power = Callable[[RenderContext, "Table"], list[discord.ui.Item[Any]]]
POWERS: list[Power] = []


def power(controls: Power) -> Power:
    """Register a power's controls on the host's panel (shown in the order registered)."""
    POWERS.append(controls)
    return controls


def check_host(table: Table, user_id: int, *, manager: bool) -> None:
    """Refuse ``user_id`` the host's powers over ``table`` unless they host it or manage the server (``manager``),
    and the game runs. Raises ``TableError``: ``table.not_active``, ``host.only``."""
    if table.status != "active":
        raise TableError("table.not_active", game_id=table.id)
    if user_id != table.host_id and not manager:
        raise TableError("host.only")


def panel(table: Table) -> dict[str, Any]:
    """The panel of ``table`` as message keywords (``embed``, ``view``): what the game is doing (running, or paused
    by whom) and every power's controls."""
    ctx = RenderContext(table, table.language)
    paused = table.engine.paused(table.state) if table.paused else None
    state = ctx.t("host.panel.paused", by=text_name(paused.by)) if paused else ctx.t("host.panel.running")
    embed = discord.Embed(title=ctx.t("host.panel.title", id=table.id), description=state, colour=COLOUR)
    return {"embed": embed, "view": view_of(*(item for controls in POWERS for item in controls(ctx, table)))}


@power
def _pause(ctx: RenderContext, table: Table) -> list[discord.ui.Item[Any]]:
    if table.paused:
        return [game_button(table.id, 0, "host", "resume", label=ctx.t("host.resume"), emoji="▶️",
                            style=discord.ButtonStyle.success)]
    return [game_button(table.id, 0, "host", "pause", label=ctx.t("host.pause"), emoji="⏸️",
                        style=discord.ButtonStyle.primary)]


@power
def _cancel(ctx: RenderContext, table: Table) -> list[discord.ui.Item[Any]]:
    """Cancel the game: the lobby's Cancel, which asks first (:func:`bot.cogs.lobby.render.cancel_confirmation`)."""
    return [LobbyButton(table.id, "cancel", label=ctx.t("host.cancel"), style=discord.ButtonStyle.danger)]


@power
def _replace(ctx: RenderContext, table: Table) -> list[discord.ui.Item[Any]]:
    """Replace a player: pick the seat (a person's, away or not; never a dead one, which is not handed over), then
    who takes it (:func:`replace_panel`)."""
    seats = [hold.seat for hold in holds(table) if hold.person and not hold.dead]
    if not seats:
        return []
    options = [discord.SelectOption(label=clip(f"#{seat + 1} {ctx.name(seat)}", OPTION_TEXT), value=str(seat))
               for seat in seats]
    return [GameSelect(table.id, 0, "host", "replace", options=options, placeholder=ctx.t("host.replace.pick_seat"))]


def replace_panel(table: Table, seat: int) -> dict[str, Any]:
    """The panel's second step of replacing ``seat``'s player, as message keywords (``embed``, ``view``): a member
    picker (the offer, as ``/replace seat member``), "The computer" (at once) and "Back" to the panel."""
    ctx = RenderContext(table, table.language)
    embed = discord.Embed(title=ctx.t("host.panel.title", id=table.id), colour=COLOUR,
                          description=ctx.t("host.replace.who", seat=ctx.shown_name(seat)))
    return {"embed": embed, "view": view_of(
        GameUserSelect(table.id, 0, "host", f"replace_to.{seat}", placeholder=ctx.t("host.replace.pick_member")),
        game_button(table.id, 0, "host", f"replace_ai.{seat}", label=ctx.t("host.replace.computer"), emoji="🤖",
                    style=discord.ButtonStyle.primary, row=1),
        game_button(table.id, 0, "host", "back", label=ctx.t("host.replace.back"), row=1))}
