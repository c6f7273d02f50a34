"""The Let's Kill! GameUI: one Act button (and Pass during a response window) under the table; a click answers
with an ephemeral panel: the Step-2 play built step by step (:mod:`bot.cogs.lets_kill.builder`: the card, its
targets, their order), any other decision as a select of the clicker's legal moves.

Component names (``coroner:g|s:<game>:<version>:<name>:<arg>``): ``act`` and ``pass`` (buttons), ``do`` (select
of moves, ephemeral; a value is the index of the move in ``legal_actions(state, seat)`` at that version, so a
stale select is refused by the version check), ``cards`` (a multi-select of Guns to pledge or cards to discard
when their combinations do not fit in one select; ``arg`` = the decision), and the play builder's ``card``,
``tgt``, ``place``, ``vic`` and ``ord`` (``arg`` = the play so far).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.lets_kill import builder, render
from bot.cogs.reference.held import card_effect, held, held_embed
from bot.components import GameSelect, game_button, view_of
from bot.errors import UserError
from bot.tables import TableService
from bot.ui import SILENT, GameUI, Outgoing, RenderContext
from games.core import Event
from games.lets_kill.cards import CARDS
from games.lets_kill.models import ChooseCards, LetsKillOptions, PlayCard, Pledge, Respond

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

MAX_OPTIONS = 25
HAND_EVENTS = ("lets_kill.dealt", "lets_kill.hand")


class LetsKillUI(GameUI):
    game = "lets_kill"
    echo_keys = frozenset({"lets_kill.your_surprise"})  # the player just chose it; My secrets shows it

    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        return render.words(ctx, params, declared)

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        return render.event_text(ctx, event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        """A hand (dealt, or changed) is listed card by card with what each card is; other DMs are one line."""
        if event.key in HAND_EVENTS:
            lines = [f"• {render.card_line(ctx, c)}" for c in event.params["cards"]]
            explained = held_embed(held("lets_kill", seat, {"hand": event.params["cards"]}), ctx.language)
            return Outgoing(embeds=[discord.Embed(title=ctx.t("lets_kill.ui.hand"), colour=render.COLOUR,
                                                  description=render.fit(ctx, lines, 4000)),
                                    *([explained] if explained else [])])
        return Outgoing(embeds=[discord.Embed(description=render.event_text(ctx, event)[:4000],
                                              colour=render.COLOUR)])

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return render.table_embed(ctx, view)

    def status_embeds(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.Embed]:
        return render.status_embeds(ctx, view)

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return render.secrets_embed(ctx, view)

    def move_timeout(self, table: Table, config: Any) -> int:
        """A response window lasts the table's ``window_seconds`` option from its opening (LK-19, default 15 s),
        a shootout pledge the table's ``pledge_seconds`` (§7.7, default 20 s), and every other decision the turn
        time (``/config timeouts``)."""
        if _open_window(table) is not None:
            return _option(table, "window_seconds")
        state = table.state
        if state is not None and state.pending is not None and state.pending.kind == "pledge" and not state.ended:
            return _option(table, "pledge_seconds")
        return super().move_timeout(table, config)

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        pending = view.get("pending")
        if not pending or view.get("ended"):
            return []
        gid, version = ctx.table.id, ctx.table.version
        items: list[discord.ui.Item[Any]] = [game_button(gid, version, "act", label=ctx.t("lets_kill.ui.act"),
                                                         style=discord.ButtonStyle.primary)]
        if pending["kind"] == "window":
            items.append(game_button(gid, version, "pass", label=ctx.t("lets_kill.ui.pass")))
        return items

    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        bot: Coroner = interaction.client  # type: ignore[assignment]
        ctx = RenderContext(table, table.language)
        # a control drawn earlier in the same open response window still stands (Table.stands, LK-19)
        seat, _ = TableService.check_turn(table, interaction.user.id, version)
        legal = table.engine.legal_actions(table.state, seat)
        if name == "pass":  # on the table: the table's edit answers the click
            return await self._play(bot, table, interaction, Respond(), version)
        if name == "do":
            index = int(values[0]) if values and values[0].isdigit() else -1
            if not 0 <= index < len(legal):
                raise UserError("lets_kill.bad_choice")
            await self._close_panel(interaction)
            return await self._play(bot, table, interaction, legal[index], version)
        if name == "cards":  # Guns to pledge, or cards to discard, picked in a multi-select
            action: Any = Pledge(cards=values) if arg == "pledge" else ChooseCards(cards=values)
            await self._close_panel(interaction)
            return await self._play(bot, table, interaction, action, version)
        pending = table.state.pending
        if pending is not None and pending.kind == "play" and legal:
            return await self._build(bot, interaction, ctx, table, legal, name, arg, values, version)
        picks = list(enumerate(legal))
        owners = {inc.id: inc.owner for inc in table.state.incidents}
        options = [discord.SelectOption(label=render.action_label(ctx, a, owners), value=str(i),
                                        description=card_effect(getattr(a, "card", None) or "", ctx.language))
                   for i, a in picks[:MAX_OPTIONS]]
        items: list[discord.ui.Item[Any]] = []
        if len(picks) > MAX_OPTIONS and pending is not None and pending.kind in ("pledge", "discard_choice"):
            items.append(self._cards_select(ctx, table, seat, pending))
            options = [o for o, (_, a) in zip(options, picks, strict=False) if not getattr(a, "cards", None)]
        placeholder = ctx.t("lets_kill.ui.pick")
        if len(picks) > MAX_OPTIONS and not items:
            placeholder = ctx.t("lets_kill.ui.more", count=len(picks) - MAX_OPTIONS)
        if options:
            items.append(GameSelect(table.id, table.version, "do", options=options, placeholder=placeholder[:150]))
        await interaction.response.send_message(view=view_of(*items), ephemeral=True, allowed_mentions=SILENT)
        return None

    async def _build(self, bot: Coroner, interaction: discord.Interaction, ctx: RenderContext, table: Table,
                     legal: list[Any], name: str, arg: str, values: list[str], version: int) -> None:
        """One step of a Step-2 play (:mod:`bot.cogs.lets_kill.builder`): Act opens the card panel, each answer
        edits the panel into the next step, the finished play is made (and the panel goes)."""
        if name == "act":
            return await self._panel(interaction, table, builder.card_panel(ctx, legal), new=True)
        if name == "card":
            value = values[0] if values else ""
            if value.startswith("!") and value[1:].isdigit() and int(value[1:]) < len(legal):
                await self._close_panel(interaction)
                return await self._play(bot, table, interaction, legal[int(value[1:])], version)
            partial = builder.Partial(card=value)
        elif name in ("tgt", "place", "vic", "ord"):
            partial = builder.advance(builder.Partial.decode(arg), name, values)
        else:
            raise UserError("lets_kill.bad_choice")
        result = builder.step(ctx, table.state, legal, partial)
        if isinstance(result, PlayCard):
            await self._close_panel(interaction)
            return await self._play(bot, table, interaction, result, version)
        return await self._panel(interaction, table, result, new=False)

    @staticmethod
    async def _panel(interaction: discord.Interaction, table: Table, panel: builder.Panel, *, new: bool) -> None:
        select = GameSelect(table.id, table.version, panel.name, panel.arg, options=panel.options,
                            placeholder=panel.placeholder[:150], min_values=panel.min_values,
                            max_values=panel.max_values)
        if new:
            await interaction.response.send_message(view=view_of(select), ephemeral=True, allowed_mentions=SILENT)
        else:
            await interaction.response.edit_message(view=view_of(select))

    @staticmethod
    def _cards_select(ctx: RenderContext, table: Table, seat: int, pending: Any) -> discord.ui.Item[Any]:
        """Guns to pledge (one or more) or the ``n`` cards to discard, when their combinations do not fit a select:
        the engine checks the pick (a target's pledge must reach the posse, §9.14)."""
        pledge = pending.kind == "pledge"
        cards = [c for c in table.state.hands[seat] if not pledge or CARDS[c].is_gun][:MAX_OPTIONS]
        low, high = (1, len(cards)) if pledge else (pending.n, pending.n)
        return GameSelect(table.id, table.version, "cards", "pledge" if pledge else "discard",
                          options=[discord.SelectOption(label=render.card_name(c)[:100], value=c,
                                                        description=card_effect(c, ctx.language)) for c in cards],
                          min_values=low, max_values=high,
                          placeholder=ctx.t("lets_kill.ui.pick_guns" if pledge else "lets_kill.ui.pick_discard"))

    @staticmethod
    async def _close_panel(interaction: discord.Interaction) -> None:
        """The ephemeral panel (a select and nothing else) goes; the table is edited. Editing its select away
        would leave an empty message, which Discord refuses (50006): delete it instead. A second press of the same
        panel (a double click) finds it deleted already (10008) and goes on to its move, refused as out of date."""
        await interaction.response.defer()
        with contextlib.suppress(discord.NotFound):
            await interaction.delete_original_response()

    async def _play(self, bot: Coroner, table: Table, interaction: discord.Interaction, action: Any,
                    version: int) -> None:
        await self.play(bot, table, interaction.user.id, table.engine.dump_action(action), version=version,
                        interaction=interaction)


def _option(table: Table, name: str) -> int:
    """A table timer option in seconds (``window_seconds``, LK-19; ``pledge_seconds``, §7.7), else its default."""
    return int(table.options.get(name, LetsKillOptions.model_fields[name].default))


def _open_window(table: Table) -> Any:
    """The response window the game waits on (None when it waits on something else)."""
    state = table.state
    if state is None or state.window is None or state.pending is None or state.pending.kind != "window":
        return None
    return state.window

