"""The Cereal Killer GameUI: the hunters' buttons and selects on the status message, the Move modal, the
Killer's route by DM and its answer buttons by DM.

Component names (``coroner:g|s:<game>:<version>:<name>:<arg>``): ``place`` (select of Cafes), ``move`` (button
opening a modal), ``step`` (select of next spaces), ``ask`` (select of questions), ``arrest`` / ``sniff`` /
``bite`` (selects of spaces in reach), ``bark``, ``end`` (buttons), ``answer`` (the Killer's answer buttons, in
its DM or under My secrets; ``arg`` = the offered answer), ``route`` (the Killer's button under My secrets that
opens the route modal, :mod:`.killer_panel`). Every one is stamped with the table version it was drawn at, so
outdated ones are refused.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from cachetools import LRUCache

from bot.budget import fit_modal
from bot.cogs.cereal_killer import messages as msg
from bot.cogs.cereal_killer.describe import board_geometry, place_name
from bot.cogs.cereal_killer.killer_panel import (
    ROUTE_INPUT,
    RouteModal,
    check_route_sender,
    killer_items,
    route_action,
    submit_route,
)
from bot.cogs.reference.held import effect
from bot.components import GameSelect, game_button, view_of
from bot.deadline import edit_answer
from bot.errors import UserError
from bot.modals import GameModal
from bot.replies import in_reply, own_events, replying
from bot.tables import TableService
from bot.tables.model import TimerPlan
from bot.tables.outbox import current_step
from bot.ui import Attachment, GameUI, Outgoing, RenderContext, ui_for
from games.cereal_killer.board import Geometry
from games.cereal_killer.models import KILLER, ROLES
from games.core import Event

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import ActResult, Table

PROMPTS = ("cereal_killer.prompt.question", "cereal_killer.prompt.sniff")
#: what only answers the move its player just made: Lola's Bark, answered at once, is the answer of her click (an
#: ephemeral follow-up, no DM: issue 20, :mod:`bot.replies`); her Sniff's answer waits for the Killer's choice and
#: comes by DM; both stay under My secrets
OWN_RESULTS = frozenset({"cereal_killer.bark_answer"})
ANSWER_TIMER = "cereal_killer_answer_due"
#: answer prompts remembered as cleared by the Killer's click (:attr:`CerealUI.cleared`)
CLEARED = 1_000
log = logging.getLogger(__name__)
NUMBERS = re.compile(r"\d+")


def _space_options(ctx: RenderContext, geo: Geometry, spaces: Sequence[int]) -> list[discord.SelectOption]:
    """One option per space, labelled e.g. "12 (Park)"."""
    return [discord.SelectOption(label=place_name(geo, s, ctx.language), value=str(s)) for s in spaces]


class CerealUI(GameUI):
    game = "cereal_killer"
    #: the Killer's own route, shown back to it: the edited table acknowledges it (the route stays under My secrets,
    #: and the result shows every route), a route sent from the modal is confirmed in its reply
    echo_keys = frozenset({"cereal_killer.route_recorded"})

    def __init__(self) -> None:
        #: (game id, table version) of answer prompts whose DM buttons went with the Killer's click on them, in this
        #: process: their deadline's timer has nothing to take away (:func:`clear_answer_buttons`)
        self.cleared: LRUCache[tuple[int, int], bool] = LRUCache(maxsize=CLEARED)

    def echoes(self, event: Event, events: list[Event]) -> bool:
        """The Killer's route is an echo unless the bot walked it (its turn timed out: ``turn.auto`` for the
        Killer in the same step), when the Killer learns only by DM where it now stands; so is Lola's Bark answer
        while her click is answered (:data:`OWN_RESULTS`)."""
        walked_for = any(e.key == "turn.auto" and e.params.get("seat") == KILLER for e in events)
        return (super().echoes(event, events) and not walked_for) or in_reply(event, OWN_RESULTS)

    def step_timers(self, table: Table, timeout_at: datetime) -> list[TimerPlan]:
        """Armed with a step that leaves the Killer an answer due (a question or a Sniff): at the deadline
        (``timeout_at``, when the turn timer answers for it) the Killer's DM answer buttons are taken away."""
        if table.state is None or table.state.pending is None:
            return []
        return [TimerPlan(ANSWER_TIMER, timeout_at, {"version": table.version})]

    # --- rendering -----------------------------------------------------------------------------------------
    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        """Roles, questions, answers and routes spelled out (e.g. ``who`` -> the Detective)."""
        return msg.params_of(ctx, params, declared)

    def lobby_lines(self, table: Table, language: str) -> list[str]:
        """While the lobby is open: the role each joined player will get (join order: the host is the Killer,
        then the Detective, then Lola)."""
        if table.status != "lobby":
            return []
        ctx = RenderContext(table, language)
        return [f"**{ctx.t('cereal_killer.ui.roles')}**", *(
            ctx.t("cereal_killer.ui.role_line", seat=ctx.mention(seat.seat), role=msg.word(ctx, "cereal_killer.name",
                                                                                             role))
            for seat, role in zip(table.seats, ROLES, strict=False))]

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        return msg.text_of(ctx, event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        out = msg.private_message(ctx, seat, event, ctx.table.engine.view(ctx.table.state, seat))
        if seat == KILLER and event.key in PROMPTS:
            step = current_step()  # the turn timer committed with the question answers for the Killer then
            deadline = step.deadlines.get("turn_timeout") if step is not None else None
            out.embeds[0].add_field(name=ctx.t("cereal_killer.ui.time_limit"), value=ctx.t(
                "cereal_killer.ui.deadline", when=f"<t:{int(deadline.timestamp())}:R>") if deadline else ctx.t(
                "cereal_killer.ui.deadline_turn"), inline=False)
            out.view = view_of(*(game_button(ctx.table.id, ctx.table.version, "answer", option, style=(
                discord.ButtonStyle.primary), label=msg.word(ctx, "cereal_killer.answer", option))
                for option in event.params["options"]))
        return out

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return msg.status_embed(ctx, view)

    def table_files(self, ctx: RenderContext, view: dict[str, Any]) -> list[Attachment]:
        return msg.board_files(ctx, view)

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return msg.secrets(ctx, seat, view)

    def secrets_items(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """The Killer's answer buttons or its Send my route button (see :mod:`.killer_panel`)."""
        return killer_items(ctx, view) if seat == KILLER else []

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """The acting hunter's controls, from the engine's public ``hunter_moves`` (none while the Killer moves or
        answers)."""
        options = view.get("hunter_moves")
        if options is None:
            return []
        geo, gid, version = board_geometry(view), ctx.table.id, ctx.table.version

        def select(name: str, placeholder: str, choices: list[discord.SelectOption]) -> GameSelect:
            return GameSelect(gid, version, name, options=choices[:25], placeholder=ctx.t(placeholder))

        def button(name: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> discord.ui.Item[Any]:
            return game_button(gid, version, name, label=ctx.t(f"cereal_killer.ui.button.{name}"), style=style)

        if options["place"]:
            return [select("place", "cereal_killer.ui.pick.place", _space_options(ctx, geo, options["place"]))]
        items: list[discord.ui.Item[Any]] = []
        if options["step"]:
            items.append(button("move", discord.ButtonStyle.primary))
        if options["bark"]:
            items.append(button("bark"))
        if options["end"]:
            items.append(button("end", discord.ButtonStyle.danger))
        if options["step"]:
            items.append(select("step", "cereal_killer.ui.pick.step", _space_options(ctx, geo, options["step"])))
        if options["ask"]:
            items.append(select("ask", "cereal_killer.ui.pick.ask", [discord.SelectOption(
                label=msg.word(ctx, "cereal_killer.question", q)[:100], value=q,
                description=effect(f"cereal_killer:question:{q}", ctx.language)) for q in options["ask"]]))
        for name in ("arrest", "sniff", "bite"):
            if options[name]:
                items.append(select(name, f"cereal_killer.ui.pick.{name}", _space_options(ctx, geo, options[name])))
        return items

    # --- the hunters' components and the Killer's answer buttons --------------------------------------------
    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        bot: Coroner = interaction.client  # type: ignore[assignment]
        if name in ("move", "route"):
            TableService.check_turn(table, interaction.user.id, version)
            modal = move_modal(table, version) if name == "move" else RouteModal(self, table, version)
            await interaction.response.send_modal(modal)
            return
        action = _action(name, values[0] if values else arg)
        seat = table.seat_of(interaction.user.id)
        with replying(seat if name == "bark" else None):
            result = await self.play(bot, table, interaction.user.id, action, version=version,
                                     interaction=interaction)
        if name == "bark" and seat is not None:  # the table's edit answered the click: Lola's answer follows it
            await _answer_privately(interaction, result, seat)
        if name == "answer":  # the Killer's DM prompt or My secrets: its buttons go with the answer (the table was
            # edited apart)
            await edit_answer(interaction, view=None)
            if interaction.guild_id is None:  # the DM prompt itself: nothing left for its deadline to clear
                self.cleared[(table.id, version)] = True

    async def on_modal(self, interaction: discord.Interaction, table: Table, name: str, arg: str, version: int,
                       values: dict[str, Any]) -> None:
        """A :class:`bot.modals.GameModal` submit: ``move`` (the hunter's walk typed as space numbers, ``7 12 13``,
        at most 10 steps; the table's edit answers it) or ``route`` (the Killer's route typed under My secrets,
        :func:`.killer_panel.submit_route`)."""
        if name == "route":
            await submit_route(self, interaction, table, version, values.get(ROUTE_INPUT, ""))
            return
        if name != "move":
            raise UserError("cereal_killer.ui.unknown_control")
        path = [int(n) for n in NUMBERS.findall(values.get("path", ""))]
        if not path:
            raise UserError("cereal_killer.ui.move_empty")
        await self.play(interaction.client, table, interaction.user.id, {"type": "move", "path": path[:10]},
                        version=version, interaction=interaction)

    # --- the Killer's route by DM --------------------------------------------------------------------------
    def accepts_dm(self, table: Table, seat: int | None) -> bool:
        """Every player's DM is read, so a hunter writing to the bot is told why it does not count."""
        return seat is not None and table.state is not None

    async def on_dm(self, bot: Any, message: discord.Message, table: Table, seat: int, content: str) -> None:
        """Parse and apply the Killer's turn; the route confirmation (with its board) arrives as the engine's
        private event. Refusals: ``cereal_killer.dm.*``, the parser's ``cereal_killer.parse.*`` and every
        engine code of :func:`games.cereal_killer.killer.check_killer_turn`, parameters in words."""
        check_route_sender(table, seat)
        await self.play(bot, table, message.author.id, route_action(content), version=table.version)


async def _answer_privately(interaction: discord.Interaction, result: ActResult, seat: int) -> None:
    """``seat``'s own results of the step (:data:`OWN_RESULTS`), drawn as their DM would be, as an ephemeral
    follow-up of its click (a webhook: nothing of the bot's REST budget)."""
    ctx = RenderContext(result.table, result.table.language)
    view = result.table.engine.view(result.table.state, seat)
    for event in own_events(result.events, seat, OWN_RESULTS):
        out = msg.private_message(ctx, seat, event, view)
        out.language = result.table.language
        await interaction.followup.send(**out.kwargs(), ephemeral=True)


async def clear_answer_buttons(bot: Coroner, timer: Any) -> None:
    """The ``cereal_killer_answer_due`` timer: at the deadline of the Killer's answer (given by then, by a click
    or by the turn timer), take the answer buttons of that prompt (table version ``payload["version"]``) off
    the Killer's DM. A restart in between is fine: a missed timer fires at start. Nothing to do (no read, no
    request) when the Killer answered with those very buttons in this process (:attr:`CerealUI.cleared`)."""
    ui = ui_for("cereal_killer")
    if isinstance(ui, CerealUI) and ui.cleared.pop((timer.game_id, timer.payload.get("version")), None):
        return
    table = await bot.tables.load(timer.game_id)
    user_id = table.user_of(KILLER)
    if user_id is None:
        return
    prefix = f"coroner:g:{table.id}:{timer.payload.get('version')}:answer:"
    try:
        channel = await bot.create_dm(discord.Object(id=user_id))
        async for message in channel.history(limit=25):
            ids = [getattr(item, "custom_id", None) or "" for row in message.components
                   for item in getattr(row, "children", [])]
            if any(i.startswith(prefix) for i in ids):
                await message.edit(view=None)
                return
    except discord.HTTPException:
        log.debug("could not clear the answer buttons of game %s", table.id, exc_info=True)


def _action(name: str, value: str) -> dict[str, Any]:
    """The engine action (JSON) a control stands for; ``value`` is the picked option or the button's arg."""
    if name in ("bark", "end", "ask", "answer"):
        return {"bark": {"type": "bark"}, "end": {"type": "end_turn"}, "ask": {"type": "ask", "question": value},
                "answer": {"type": "choose_answer", "answer": value}}[name]
    if name == "step":
        return {"type": "move", "path": [_int(value)]}
    kinds = {"place": "place_detective", "arrest": "arrest", "sniff": "sniff", "bite": "bite"}
    if name not in kinds:
        raise UserError("cereal_killer.ui.unknown_control")
    return {"type": kinds[name], "space": _int(value)}


def _int(value: str) -> int:
    if not value.isdigit():
        raise UserError("cereal_killer.ui.bad_space", value=value)
    return int(value)


def move_modal(table: Table, version: int) -> GameModal:
    """Free-text walk for the acting hunter (``7 12 13``), answered by :meth:`CerealUI.on_modal`."""
    ctx = RenderContext(table, table.language)
    modal = GameModal(table.id, version, "move", title=ctx.t("cereal_killer.ui.move_title"))
    modal.add_item(discord.ui.Label(text=ctx.t("cereal_killer.ui.move_label"), component=discord.ui.TextInput(
        custom_id="path", placeholder=ctx.t("cereal_killer.ui.move_placeholder"), max_length=60)))
    return fit_modal(modal)
