"""The Killer's controls in the channel, so closed DMs never cost the Killer anything (issue 9).

Everything the Killer's DMs carry can also be done from "My secrets" (an ephemeral reply only the Killer sees):
while its route is due, a **Send my route** button opens the route modal (the same grammar as a DM, read by
:func:`games.cereal_killer.route.parse_route`); while a question or a Sniff waits, one button per answer. A refused
route is answered privately (ephemerally) with the engine's exact reason; an accepted one with its confirmation.

Component and modal ids follow :mod:`bot.components`: ``coroner:g:<game>:<version>:route:`` (the button) and
``coroner:m:<game>:<version>:route:`` (the modal), both stamped with the table version they were drawn at, so a
route typed after the turn timer already walked for the Killer is refused as out of date.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.budget import fit_modal
from bot.cogs.cereal_killer import messages as msg
from bot.components import game_button
from bot.errors import UserError, send_error, typed_texts
from bot.modals import GameModal
from bot.ui import Outgoing, RenderContext
from games.cereal_killer.models import KILLER
from games.cereal_killer.route import ParseError, parse_route

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import ActResult, Table
    from bot.ui import GameUI

ROUTE_INPUT = "route"
ROUTE_MAX = 200


def route_action(content: str) -> dict[str, Any]:
    """The engine action (JSON) for a route written as in a DM (``8 3 2 1 victim 3 witness 4``). Raises
    ``UserError`` with the parser's ``cereal_killer.parse.*`` code when it cannot be read, quoting what could not
    be read (``text``), not just the word that stopped it (each quote cut to 100 characters: a DM may hold 4,000)."""
    turn = parse_route(content)
    if isinstance(turn, ParseError):
        quoted = {key: _quoted(value) if isinstance(value, str) else value for key, value in turn.params.items()}
        raise UserError(turn.code, **quoted, text=_quoted(content))
    return turn.model_dump()


def _quoted(text: str, limit: int = 100) -> str:
    """``text`` on one line, cut to ``limit`` characters, without backticks (it is shown in quotes)."""
    line = " ".join(text.replace("`", "'").split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def killer_items(ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
    """The Killer's controls under its "My secrets" (from its own view): one button per answer it may give now, or
    the **Send my route** button while its route is due; none otherwise."""
    table = ctx.table
    if view["result"] is not None:
        return []
    if view["pending_options"]:
        return [game_button(table.id, table.version, "answer", option, style=discord.ButtonStyle.primary,
                            label=msg.word(ctx, "cereal_killer.answer", option)[:80])
                for option in view["pending_options"]]
    if view["phase"] == "killer":
        return [game_button(table.id, table.version, "route", style=discord.ButtonStyle.primary,
                            label=ctx.t("cereal_killer.ui.button.route")[:80])]
    return []


class RouteModal(GameModal):
    """The Killer's route typed in the channel (the DM grammar); every submit, in this process or after a
    restart, goes through the modal router to :meth:`CerealUI.on_modal` and so to :func:`submit_route`."""

    def __init__(self, ui: GameUI, table: Table, version: int) -> None:
        ctx = RenderContext(table, table.language)
        super().__init__(table.id, version, "route", title=ctx.t("cereal_killer.ui.route_title"))
        example = "cereal_killer.ui.route_placeholder_first" if table.state.killer is None else (
            "cereal_killer.ui.route_placeholder")
        self.add_item(discord.ui.Label(text=ctx.t("cereal_killer.ui.route_label"), component=discord.ui.TextInput(
            placeholder=ctx.t(example), custom_id=ROUTE_INPUT, max_length=ROUTE_MAX)))
        fit_modal(self)


#: the engine's refusals of a route (:meth:`games.cereal_killer.engine.CerealKiller.route_refusal`) as a DM or the
#: route modal words them: where the hunters play, which buttons answer the question, when the route is due
DM_WORDS = {"cereal_killer.route.not_killer": "cereal_killer.dm.not_killer",
            "cereal_killer.answer_first": "cereal_killer.dm.answer_buttons",
            "cereal_killer.route.not_now": "cereal_killer.dm.not_now"}


def check_route_sender(table: Table, seat: int | None) -> None:
    """Refuse a route (by DM or from My secrets) from ``seat`` when the engine says it may not be sent now
    (:meth:`~games.cereal_killer.engine.CerealKiller.route_refusal`), in the DM's words (:data:`DM_WORDS`): not the
    Killer (``cereal_killer.dm.not_killer``), the hunters' question is to be answered first
    (``cereal_killer.dm.answer_buttons``), or not the Killer's phase (``cereal_killer.dm.not_now``)."""
    refusal = table.engine.route_refusal(table.state, -1 if seat is None else seat)
    if refusal is None:
        return
    if refusal.code not in DM_WORDS:
        raise refusal
    raise UserError(DM_WORDS[refusal.code], channel=f"<#{table.channel_id}>")


async def submit_route(ui: GameUI, interaction: discord.Interaction, table: Table, version: int,
                       content: str) -> None:
    """Play the Killer's route typed in the modal; answer privately: the confirmation (the route and its place)
    or the exact refusal (the parser's or the engine's, in words) with the typed route given back to copy
    (:func:`bot.errors.kept_embeds`). Nothing changes on a refusal."""
    bot: Coroner = interaction.client  # type: ignore[assignment]
    try:
        check_route_sender(table, table.seat_of(interaction.user.id))
        action = route_action(content)
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await ui.play(bot, table, interaction.user.id, action, version=version)
        await interaction.followup.send(**confirmation(result).kwargs(), ephemeral=True)
    except Exception as exc:  # noqa: BLE001 - every refusal becomes an ephemeral reply, the route given back
        await send_error(bot, interaction, exc, table, typed=typed_texts({ROUTE_INPUT: content}))


def confirmation(result: ActResult) -> Outgoing:
    """The Killer's private confirmation of an accepted route (the engine's ``route_recorded`` event) with its
    board, as the modal's reply (a follow-up: nothing of the bot's REST budget; no DM repeats it)."""
    table = result.table
    ctx = RenderContext(table, table.language)
    recorded = next(e for e in result.events if e.key == "cereal_killer.route_recorded")
    out = msg.private_message(ctx, KILLER, recorded, table.engine.view(table.state, KILLER))
    out.language = table.language
    return out
