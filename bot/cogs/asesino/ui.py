"""The Discord UIs of Asesino en Serie: tabletop (5-10) and 2-4 player ("small") modes.

Status message components (persistent, drawn from the public view): Clockwise / Counter-clockwise while the
first player picks the direction, "Take my turn" (or "Pass" when nothing can be played) for the player the game
waits on. "Take my turn" answers only that player, ephemerally, with components built from THEIR private view
and ``legal_actions``:

* tabletop turn: select a hand card -> the message turns into a select of legal targets -> picking the target
  opens a modal for the declared words (a select may answer with a modal as its first response);
* statement / last words: the button itself opens the modal; accusation and effect order: one select;
* small turn: select a hand card -> select the column and the declared intention; or a select of columns to
  reveal; effects (Accomplice / Prosecutor / Journalist): a select (two steps for the Accomplice) and "Skip".

Every component carries the table version it was drawn at, so an outdated one is refused as stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.asesino import render
from bot.cogs.asesino._actions import ActionsMixin
from bot.components import game_button, view_of
from bot.ui import COLOUR, Outgoing, RenderContext
from games.asesino.series import standings
from games.core import Event, IllegalAction

if TYPE_CHECKING:
    from bot.tables import Table

HAND_UPDATES = frozenset({"asesino.you_declared", "asesino.small.you_played", "asesino.small.swap_mine",
                          "asesino.small.swap_theirs"})
INTROS = frozenset({"asesino.intro.role", "asesino.small.intro"})
SPEECH = frozenset({"statement", "last_words"})


class AsesinoUI(ActionsMixin):
    """What both card modes share: event lines, DMs, the secrets embed, and the series hand-off."""

    game = "asesino"
    supports_series = False

    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        return render.words(ctx, params, declared)

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        return render.event_line(ctx, event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        if event.key in INTROS:
            return Outgoing(embeds=[render.intro_embed(ctx, event)])
        embeds = [discord.Embed(description=render.event_line(ctx, event), colour=COLOUR)]
        if event.key == "asesino.prompt.accuse":
            embeds[0].description = f"{embeds[0].description}\n{ctx.t('asesino.ui.use_button')}"
        if event.key in HAND_UPDATES and ctx.table.state is not None:
            embeds.append(render.hand_embed(ctx, seat, ctx.table.engine.view(ctx.table.state, seat)))
        return Outgoing(embeds=embeds)

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return render.hand_embed(ctx, seat, view)

    def series_embed(self, ctx: RenderContext, rounds: list[dict[int, float]], series_id: int, played: int,
                     total: int) -> discord.Embed:
        """Standings after ``played`` of ``total`` rounds (``rounds``: seat -> points, one dict a round)."""
        result = standings(rounds)
        return render.series_embed(ctx, result.totals, result.winners, series_id, played, total)

    def _button(self, ctx: RenderContext, name: str, arg: str = "", *, label: str,
                style: discord.ButtonStyle = discord.ButtonStyle.primary, emoji: str | None = None) -> Any:
        return game_button(ctx.table.id, ctx.table.version, name, arg, label=label, style=style, emoji=emoji)

    def _turn_button(self, ctx: RenderContext, kind: str) -> Any:
        label = ctx.t("asesino.ui.take_turn" if kind in ("turn", "declare_all") else "asesino.ui.answer")
        return self._button(ctx, "turn", label=label, emoji="🔪")


class TabletopUI(AsesinoUI):
    mode = "tabletop"
    supports_series = True

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return render.tabletop_embed(ctx, view)

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        waiting = view.get("waiting")
        if not waiting:
            return []
        kind = waiting["kind"]
        if kind == "direction":
            return [self._button(ctx, "direction", "cw", label=ctx.t("asesino.ui.clockwise"), emoji="🔃"),
                    self._button(ctx, "direction", "ccw", label=ctx.t("asesino.ui.counterclockwise"), emoji="🔄")]
        if waiting["must_pass"]:  # the engine says passing is the only legal move (public: no target left)
            return [self._button(ctx, "pass", label=ctx.t("asesino.ui.pass"), style=discord.ButtonStyle.secondary)]
        return [self._turn_button(ctx, kind)]

    async def on_turn(self, interaction: discord.Interaction, table: Table, seat: int, kind: str) -> None:
        """The waiting player pressed "Take my turn": the components for what the game asks of them."""
        ctx = RenderContext(table, table.language)
        legal = table.engine.legal_actions(table.state, seat)
        if kind in SPEECH:
            await interaction.response.send_modal(self.speech_modal(ctx, kind, {"type": kind}))
            return
        if kind == "accuse":
            options = [discord.SelectOption(label=ctx.t("asesino.ui.no_accusation"), value="none")] + [
                discord.SelectOption(label=ctx.name(a.target)[:100], value=str(a.target))
                for a in legal if a.target is not None]
            await self.ephemeral(interaction, ctx, "asesino.ui.pick_accused", self.select(ctx, "accuse", options))
            return
        if kind == "order":  # the engine lists every order of the found effects
            orders = dict.fromkeys(tuple(a.order) for a in legal)
            options = [discord.SelectOption(label=render.card_list(ctx, list(order))[:100], value=",".join(order))
                       for order in orders]
            await self.ephemeral(interaction, ctx, "asesino.ui.pick_order", self.select(ctx, "order", options))
            return
        hand = table.engine.view(table.state, seat)["hand"]
        playable = {a.card for a in legal if getattr(a, "type", "") == "declare"}
        options = [discord.SelectOption(label=render.card_name(ctx, card), value=card)
                   for card in dict.fromkeys(hand) if card in playable]
        if not options:
            raise IllegalAction("asesino.error.cannot_play")
        await self.ephemeral(interaction, ctx, "asesino.ui.pick_card", self.select(ctx, "card", options))

    async def on_step(self, interaction: discord.Interaction, table: Table, seat: int, name: str, arg: str,
                      version: int, values: list[str]) -> bool:
        ctx = RenderContext(table, table.language)
        if name == "direction":
            await self.act(interaction, table, version, {"type": "choose_direction", "clockwise": arg == "cw"},
                           from_status=True)
        elif name == "card":
            card = values[0]
            targets = [a.target for a in table.engine.legal_actions(table.state, seat)
                       if getattr(a, "type", "") == "declare" and a.card == card]
            if not targets:
                raise IllegalAction("asesino.error.card_not_in_hand", card=render.card_name(ctx, card))
            options = [discord.SelectOption(label=ctx.name(t)[:100], value=str(t)) for t in targets]
            await interaction.response.edit_message(
                content=ctx.t("asesino.ui.pick_target", card=render.card_name(ctx, card)),
                view=view_of(self.select(ctx, "target", options, arg=card, version=version)))
        elif name == "target":
            action = {"type": "declare", "card": arg, "target": int(values[0])}
            await interaction.response.send_modal(self.speech_modal(ctx, "words", action, version=version))
        elif name == "accuse":
            target = None if values[0] == "none" else int(values[0])
            await self.act(interaction, table, version, {"type": "accuse", "target": target})
        elif name == "order":
            await self.act(interaction, table, version, {"type": "order_effects", "order": values[0].split(",")})
        else:
            return False
        return True
