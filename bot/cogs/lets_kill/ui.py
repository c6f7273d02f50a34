"""The Let's Kill! GameUI: one Act button (and Pass during a response window) under the table; a click answers
with an ephemeral select of the clicker's legal moves (the card first when there are more than fit in one select).

Component names (``coroner:g|s:<game>:<version>:<name>:<arg>``): ``act`` and ``pass`` (buttons), ``card`` (select
of cards, ephemeral), ``do`` (select of moves, ephemeral; a value is the index of the move in
``legal_actions(state, seat)`` at that version, so a stale select is refused by the version check), ``aim`` (a
multi-select of a Weapon's targets, ``arg`` = the Weapon, when its declarations do not fit in one select).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.lets_kill import render
from bot.cogs.reference.held import card_effect, held, held_embed
from bot.components import GameSelect, game_button, view_of
from bot.errors import UserError
from bot.tables import TableService
from bot.ui import SILENT, GameUI, Outgoing, RenderContext
from games.core import Event
from games.lets_kill.cards import CARDS
from games.lets_kill.models import LetsKillOptions, PlayCard, Respond
from games.lets_kill.rules import victims_in_play, whackable

if TYPE_CHECKING:
    from bot.bot import CoronerBot
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

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return render.secrets_embed(ctx, view)

    def move_timeout(self, table: Table, config: Any) -> int:
        """A response window lasts the table's ``window_seconds`` option from its opening (LK-19, default 15 s),
        a shootout pledge the prompt time, and every other decision the turn time (``/config timeouts``)."""
        if _open_window(table) is not None:
            return _window_seconds(table)
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
        bot: CoronerBot = interaction.client  # type: ignore[assignment]
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
        if name == "aim":
            await self._close_panel(interaction)
            return await self._play(bot, table, interaction, PlayCard(card=arg, victims=values), version)
        picks = list(enumerate(legal))
        if name == "card":
            card = values[0] if values else ""
            picks = [(i, a) for i, a in picks if isinstance(a, PlayCard) and a.card == card]
            if len(picks) > MAX_OPTIONS and card in CARDS and CARDS[card].type == "weapon":
                return await self._aim(interaction, ctx, table, card)
        elif len(picks) > MAX_OPTIONS:
            return await self._cards_first(interaction, ctx, table, picks)
        owners = {inc.id: inc.owner for inc in table.state.incidents}
        options = [discord.SelectOption(label=render.action_label(ctx, a, owners), value=str(i),
                                        description=card_effect(getattr(a, "card", None) or "", ctx.language))
                   for i, a in picks[:MAX_OPTIONS]]
        placeholder = ctx.t("lets_kill.ui.pick")
        if len(picks) > MAX_OPTIONS:
            placeholder = ctx.t("lets_kill.ui.more", count=len(picks) - MAX_OPTIONS)
        select = GameSelect(table.id, table.version, "do", options=options, placeholder=placeholder[:150])
        await interaction.response.send_message(view=view_of(select), ephemeral=True, allowed_mentions=SILENT)
        return None

    async def _aim(self, interaction: discord.Interaction, ctx: RenderContext, table: Table, weapon: str) -> None:
        """A Weapon with more declarations than one select holds: pick its targets in a multi-select (the engine
        checks the declaration)."""
        targets = [v for v in victims_in_play(table.state) if whackable(table.state, v, weapon)][:MAX_OPTIONS]
        options = [discord.SelectOption(label=render.card_name(v)[:100], value=v,
                                        description=card_effect(v, ctx.language)) for v in targets]
        select = GameSelect(table.id, table.version, "aim", weapon, options=options, min_values=1,
                            max_values=len(options), placeholder=ctx.t("lets_kill.ui.aim", weapon=render.card_name(
                                weapon))[:150])
        await interaction.response.send_message(view=view_of(select), ephemeral=True, allowed_mentions=SILENT)

    async def _cards_first(self, interaction: discord.Interaction, ctx: RenderContext, table: Table,
                           picks: list[tuple[int, Any]]) -> None:
        """Too many moves for one select: the cards first (plus the moves that are not a card play)."""
        cards = list(dict.fromkeys(a.card for _, a in picks if isinstance(a, PlayCard)))
        options = [discord.SelectOption(label=render.card_name(c)[:100], value=c,
                                        description=card_effect(c, ctx.language)) for c in cards][:MAX_OPTIONS]
        items: list[discord.ui.Item[Any]] = [GameSelect(table.id, table.version, "card", options=options,
                                                        placeholder=ctx.t("lets_kill.ui.pick_card"))]
        others = [(i, a) for i, a in picks if not isinstance(a, PlayCard)]
        if others:
            items.append(GameSelect(table.id, table.version, "do", placeholder=ctx.t("lets_kill.ui.pick"),
                                    options=[discord.SelectOption(label=render.action_label(ctx, a, {}),
                                                                  value=str(i)) for i, a in others]))
        await interaction.response.send_message(view=view_of(*items), ephemeral=True, allowed_mentions=SILENT)

    @staticmethod
    async def _close_panel(interaction: discord.Interaction) -> None:
        """The ephemeral panel (a select and nothing else) goes; the table is edited. Editing its select away
        would leave an empty message, which Discord refuses (50006): delete it instead."""
        await interaction.response.defer()
        await interaction.delete_original_response()

    async def _play(self, bot: CoronerBot, table: Table, interaction: discord.Interaction, action: Any,
                    version: int) -> None:
        await self.play(bot, table, interaction.user.id, table.engine.dump_action(action), version=version,
                        interaction=interaction)


def _window_seconds(table: Table) -> int:
    """The table's response-window length in seconds (the ``window_seconds`` option, LK-19)."""
    return int(table.options.get("window_seconds", LetsKillOptions.model_fields["window_seconds"].default))


def _open_window(table: Table) -> Any:
    """The response window the game waits on (None when it waits on something else)."""
    state = table.state
    if state is None or state.window is None or state.pending is None or state.pending.kind != "window":
        return None
    return state.window

