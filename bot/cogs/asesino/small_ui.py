"""The 2-4 player ("small") mode on Discord: six columns, a card played with a declared intention, reveals and
the revealer's effects (see ``ui`` for the general flow)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.asesino import render
from bot.cogs.asesino.ui import AsesinoUI
from bot.cogs.reference.held import effect
from bot.errors import UserError
from bot.ui import RenderContext
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.tables import Table

EMPTY_ACTIONS = {"accomplice": {"type": "accomplice_swap"}, "prosecutor": {"type": "prosecutor_swap"},
                 "journalist": {"type": "journalist_reveal"}}


def _ref(value: str) -> dict[str, int]:
    column, index = value.split(".")
    return {"column": int(column), "index": int(index)}


def _turn(answers: dict[str, Any]) -> dict[str, Any]:
    """A card played into a column with its intention, or a column revealed (exactly one of the two)."""
    card, where, reveal = answers.get("scard") or [], answers.get("splay") or [], answers.get("reveal") or []
    if reveal and not (card or where):
        return {"type": "reveal", "column": int(reveal[0])}
    if card and where and not reveal:
        column, declared = where[0].split(".")
        return {"type": "play_card", "card": card[0], "column": int(column), "declared": declared}
    raise UserError("asesino.ui.play_or_reveal")


def _accomplice(answers: dict[str, Any]) -> dict[str, Any]:
    """Up to two cards given to one player; nothing picked skips the effect."""
    if not answers.get("give"):
        return EMPTY_ACTIONS["accomplice"]
    if not answers.get("gtarget"):
        raise UserError("asesino.ui.give_to_whom")
    return {"type": "accomplice_swap", "target": int(answers["gtarget"][0]),
            "cards": [value.split(".", 1)[1] for value in answers["give"]]}


def _effect(kind: str, picked: list[str]) -> dict[str, Any]:
    """The Prosecutor's swap or the Journalist's reveal of the picked cards; nothing picked skips it."""
    if not picked:
        return EMPTY_ACTIONS[kind]
    return {"type": "prosecutor_swap" if kind == "prosecutor" else "journalist_reveal",
            "slots": [_ref(value) for value in picked]}


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
        """One modal for the move the game waits on: an effect's selects (left empty to skip it), or a turn's card
        with its column and intention, or a column to reveal."""
        ctx = RenderContext(table, table.language)
        legal = table.engine.legal_actions(table.state, seat)
        if kind == "accomplice":
            hand = table.engine.view(table.state, seat)["hand"]
            cards = [discord.SelectOption(label=render.card_name(ctx, card), value=f"{i}.{card}",
                                          description=effect(f"asesino:card:{card}", ctx.language))
                     for i, card in enumerate(hand)]
            targets = [discord.SelectOption(label=ctx.name(t)[:100], value=str(t))
                       for t in sorted({a.target for a in legal if a.target is not None})]
            fields = [("give", self.pick(ctx, "give", cards, min_values=0, max_values=2)),
                      ("gtarget", self.pick(ctx, "gtarget", targets, min_values=0))]
            modal = self.move_modal(ctx, kind, fields)
        elif kind in ("prosecutor", "journalist"):
            refs = {(ref.column, ref.index): ref for action in legal for ref in action.slots}
            options = self._ref_options(ctx, list(refs.values()), table)
            modal = self.move_modal(ctx, kind, [(kind, self.pick(ctx, kind, options, min_values=0, max_values=2))])
        else:
            hand = table.engine.view(table.state, seat)["hand"]
            plays = [a for a in legal if a.type == "play_card"]
            cards = [discord.SelectOption(label=render.card_name(ctx, card), value=card,
                                          description=effect(f"asesino:card:{card}", ctx.language))
                     for card in dict.fromkeys(hand) if card in {a.card for a in plays}]
            where = [discord.SelectOption(label=ctx.t(f"asesino.ui.play_as.{declared}", column=column + 1),
                                          value=f"{column}.{declared}")
                     for column, declared in dict.fromkeys((a.column, a.declared) for a in plays)]
            reveals = [discord.SelectOption(label=ctx.t("asesino.ui.reveal_column", column=a.column + 1),
                                            value=str(a.column)) for a in legal if a.type == "reveal"]
            fields = [(name, self.pick(ctx, name, options, min_values=0)) for name, options in
                      (("scard", cards), ("splay", where), ("reveal", reveals)) if options]
            if not fields:
                raise IllegalAction("asesino.error.cannot_play")
            modal = self.move_modal(ctx, kind, fields)
        await interaction.response.send_modal(modal)

    def build_move(self, kind: str, answers: dict[str, Any]) -> dict[str, Any]:
        """The Accomplice's gift, the Prosecutor's swap, the Journalist's reveal or a turn, from the move modal."""
        if kind == "accomplice":
            return _accomplice(answers)
        if kind in ("prosecutor", "journalist"):
            return _effect(kind, answers.get(kind) or [])
        return _turn(answers)
