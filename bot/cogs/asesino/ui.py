"""The Discord UIs of Asesino en Serie: tabletop (5-10) and 2-4 player ("small") modes.

Table components (persistent, drawn from the public view): Clockwise / Counter-clockwise while the first player
picks the direction, and for the player the game waits on a button named for what it asks ("Take my turn", "Say
your last words"...) or "Pass" when nothing can be played. The button opens a modal for that player only, built
from THEIR private view and ``legal_actions``, and the submitted move edits the table in place:

* tabletop turn: the card, the player to declare it on and the words; statement / last words: the text;
  accusation and effect order: one select;
* small turn: a card with its column and intention, or a column to reveal; effects (Accomplice / Prosecutor /
  Journalist): their selects, left empty to skip.

Every component carries the table version it was drawn at, so an outdated one is refused as stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.cogs.asesino import render
from bot.cogs.asesino._actions import SPEECH, ActionsMixin
from bot.cogs.reference.held import effect
from bot.components import game_button
from bot.ui import COLOUR, Outgoing, RenderContext
from games.asesino.series import standings
from games.core import Event, IllegalAction, Outcome

if TYPE_CHECKING:
    from bot.tables import Table

HAND_UPDATES = frozenset({"asesino.small.swap_mine", "asesino.small.swap_theirs"})  # DMs that change a hand
INTROS = frozenset({"asesino.intro.role", "asesino.small.intro"})


class AsesinoUI(ActionsMixin):
    """What both card modes share: event lines, DMs, the secrets embed, and the series hand-off."""

    game = "asesino"
    echo_keys = frozenset({"asesino.you_declared", "asesino.small.you_played"})  # the player just did it

    def outcome_text(self, ctx: RenderContext, outcome: Outcome) -> str:
        """The ending as a sentence of its own (the catalogue's ending is a clause, also used after "The game is
        over:"), so its first letter is capitalised."""
        roles = ctx.table.engine.view(ctx.table.state, None).get("roles") or {}
        text = render.ending_text(ctx, outcome.reason, roles)
        return text[:1].upper() + text[1:]

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

    def series_embed(self, ctx: RenderContext, rounds: list[dict[int, float]], names: dict[int, str], series_id: int,
                     played: int, total: int) -> discord.Embed | None:
        """Standings after ``played`` of ``total`` rounds (``rounds``: user id -> points, one dict a round; the
        players' ``names`` by user id): added up per player, as ``/leaderboard series:`` does."""
        result = standings(rounds)
        return render.series_embed(ctx, result.totals, result.winners, names, series_id, played, total)

    def _button(self, ctx: RenderContext, name: str, arg: str = "", *, label: str,
                style: discord.ButtonStyle = discord.ButtonStyle.primary, emoji: str | None = None) -> Any:
        return game_button(ctx.table.id, ctx.table.version, name, arg, label=label, style=style, emoji=emoji)

    def _turn_button(self, ctx: RenderContext, kind: str) -> Any:
        label = ctx.t("asesino.ui.take_turn" if kind in ("turn", "declare_all") else f"asesino.ui.control.{kind}")
        return self._button(ctx, "turn", label=label, emoji="🔪")


class TabletopUI(AsesinoUI):
    mode = "tabletop"

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
        """The waiting player pressed the table's button: one modal for what the game asks of them, from THEIR
        private view and ``legal_actions`` (a declaration: card, target and words at once)."""
        ctx = RenderContext(table, table.language)
        legal = table.engine.legal_actions(table.state, seat)
        if kind in SPEECH:
            await interaction.response.send_modal(self.speech_modal(ctx, kind))
            return
        if kind == "accuse":
            options = [discord.SelectOption(label=ctx.name(a.target)[:100], value=str(a.target)) for a in legal]
            modal = self.move_modal(ctx, kind, [("accuse", self.pick(ctx, "accuse", options))])
        elif kind == "order":  # the engine lists every order of the found effects
            orders = dict.fromkeys(tuple(a.order) for a in legal)
            options = [discord.SelectOption(label=render.card_list(ctx, list(order))[:100], value=",".join(order))
                       for order in orders]
            modal = self.move_modal(ctx, kind, [("order", self.pick(ctx, "order", options))])
        else:
            declares = [a for a in legal if getattr(a, "type", "") == "declare"]
            hand = table.engine.view(table.state, seat)["hand"]
            playable = {a.card for a in declares}
            cards = [discord.SelectOption(label=render.card_name(ctx, card), value=card,
                                          description=effect(f"asesino:card:{card}", ctx.language))
                     for card in dict.fromkeys(hand) if card in playable]
            if not cards:
                raise IllegalAction("asesino.error.cannot_play")
            targets = [discord.SelectOption(label=ctx.name(t)[:100], value=str(t))
                       for t in sorted({a.target for a in declares})]
            modal = self.move_modal(ctx, kind, [("card", self.pick(ctx, "card", cards)),
                                                ("target", self.pick(ctx, "target", targets)),
                                                ("words", self.words_field(ctx))])
        await interaction.response.send_modal(modal)

    def build_move(self, kind: str, answers: dict[str, Any]) -> dict[str, Any]:
        """An accusation, an effect order or a declaration (card, target and words) from the move modal."""
        if kind == "accuse":
            return {"type": "accuse", "target": int(answers["accuse"][0])}
        if kind == "order":
            return {"type": "order_effects", "order": answers["order"][0].split(",")}
        return {"type": "declare", "card": answers["card"][0], "target": int(answers["target"][0]),
                "words": str(answers.get("words", ""))}

    async def on_step(self, interaction: discord.Interaction, table: Table, seat: int, name: str, arg: str,
                      version: int, values: list[str]) -> bool:
        if name == "direction":
            await self.act(interaction, table, version, {"type": "choose_direction", "clockwise": arg == "cw"})
        else:
            return False
        return True
