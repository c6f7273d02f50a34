"""The 2-4 player ("small") mode on Discord: six columns, a card played with a declared intention, reveals and
the revealer's effects (see ``ui`` for the general flow)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.asesino import render
from bot.cogs.asesino.ui import AsesinoUI
from bot.components import view_of
from bot.ui import RenderContext
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.tables import Table

EMPTY_ACTIONS = {"accomplice": {"type": "accomplice_swap"}, "prosecutor": {"type": "prosecutor_swap"},
                 "journalist": {"type": "journalist_reveal"}}


def _ref(value: str) -> dict[str, int]:
    column, index = value.split(".")
    return {"column": int(column), "index": int(index)}


class SmallUI(AsesinoUI):
    mode = "small"

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return render.small_embed(ctx, view)

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        waiting = view.get("waiting")
        if not waiting:
            return []
        if waiting["must_pass"]:  # the engine says passing is the only legal move
            return [self._button(ctx, "pass", label=ctx.t("asesino.ui.pass"), style=discord.ButtonStyle.secondary)]
        return [self._turn_button(ctx, waiting["kind"])]

    def _ref_options(self, ctx: RenderContext, refs: list[Any], table: Table) -> list[discord.SelectOption]:
        columns = table.engine.view(table.state, None)["columns"]
        options = []
        for ref in refs:
            slot = columns[ref.column]["slots"][ref.index]
            who = ctx.name(slot["by"]) if slot["by"] is not None else ctx.t("asesino.ui.dealt")
            label = ctx.t("asesino.ui.slot", column=ref.column + 1, index=ref.index + 1, who=who)
            options.append(discord.SelectOption(label=label[:100], value=f"{ref.column}.{ref.index}"))
        return options

    async def on_turn(self, interaction: discord.Interaction, table: Table, seat: int, kind: str) -> None:
        ctx = RenderContext(table, table.language)
        legal = table.engine.legal_actions(table.state, seat)
        if kind == "accomplice":
            hand = table.engine.view(table.state, seat)["hand"]
            options = [discord.SelectOption(label=render.card_name(ctx, card), value=f"{i}.{card}")
                       for i, card in enumerate(hand)]
            await self.ephemeral(interaction, ctx, "asesino.ui.pick_give",
                                 self.select(ctx, "give", options, max_values=2), self.skip_button(ctx, kind))
            return
        if kind in ("prosecutor", "journalist"):
            refs = {(ref.column, ref.index): ref for action in legal for ref in action.slots}
            count = 2 if kind == "prosecutor" else 1
            options = self._ref_options(ctx, list(refs.values()), table)
            await self.ephemeral(interaction, ctx, f"asesino.ui.pick_{kind}",
                                 self.select(ctx, kind, options, min_values=count, max_values=2),
                                 self.skip_button(ctx, kind))
            return
        hand = table.engine.view(table.state, seat)["hand"]
        playable = {a.card for a in legal if a.type == "play_card"}
        items: list[discord.ui.Item[Any]] = []
        card_options = [discord.SelectOption(label=render.card_name(ctx, card), value=card)
                        for card in dict.fromkeys(hand) if card in playable]
        if card_options:
            items.append(self.select(ctx, "scard", card_options))
        reveal_options = [discord.SelectOption(label=ctx.t("asesino.ui.reveal_column", column=a.column + 1),
                                               value=str(a.column)) for a in legal if a.type == "reveal"]
        if reveal_options:
            items.append(self.select(ctx, "reveal", reveal_options))
        if not items:
            raise IllegalAction("asesino.error.cannot_play")
        await self.ephemeral(interaction, ctx, "asesino.ui.pick_small", *items)

    async def on_step(self, interaction: discord.Interaction, table: Table, seat: int, name: str, arg: str,
                      version: int, values: list[str]) -> bool:
        ctx = RenderContext(table, table.language)
        legal = table.engine.legal_actions(table.state, seat)
        if name == "scard":
            card = values[0]
            options = [discord.SelectOption(
                label=ctx.t(f"asesino.ui.play_as.{a.declared}", column=a.column + 1), value=f"{a.column}.{a.declared}")
                for a in legal if a.type == "play_card" and a.card == card]
            if not options:
                raise IllegalAction("asesino.error.card_not_in_hand", card=render.card_name(ctx, card))
            await interaction.response.edit_message(
                content=ctx.t("asesino.ui.pick_column", card=render.card_name(ctx, card)),
                view=view_of(self.select(ctx, "splay", options, arg=card, version=version)))
        elif name == "splay":
            column, declared = values[0].split(".")
            await self.act(interaction, table, version, {"type": "play_card", "card": arg, "column": int(column),
                                                         "declared": declared})
        elif name == "reveal":
            await self.act(interaction, table, version, {"type": "reveal", "column": int(values[0])})
        elif name == "give":
            cards = [value.split(".", 1)[1] for value in values]
            targets = sorted({a.target for a in legal if a.target is not None and sorted(a.cards) == sorted(cards)})
            options = [discord.SelectOption(label=ctx.name(t)[:100], value=str(t)) for t in targets]
            if not options:
                raise IllegalAction("asesino.error.bad_cards")
            await interaction.response.edit_message(
                content=ctx.t("asesino.ui.pick_give_target"),
                view=view_of(self.select(ctx, "gtarget", options, arg=".".join(cards), version=version)))
        elif name == "gtarget":
            await self.act(interaction, table, version, {"type": "accomplice_swap", "target": int(values[0]),
                                                         "cards": arg.split(".")})
        elif name in ("prosecutor", "journalist"):
            kind = "prosecutor_swap" if name == "prosecutor" else "journalist_reveal"
            await self.act(interaction, table, version, {"type": kind, "slots": [_ref(v) for v in values]})
        elif name == "skip" and arg in EMPTY_ACTIONS:
            await self.act(interaction, table, version, EMPTY_ACTIONS[arg])
        else:
            return False
        return True
