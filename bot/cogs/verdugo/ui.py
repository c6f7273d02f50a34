"""The Verdugo GameUI: the awaited player's controls under the public table, the prisoners' ephemeral Swap/Peek
menu and the Executioner's name-then-Chop confirmation.

Component names (``coroner:g|s:<game>:<version>:<name>:<arg>``): ``draw``, ``stop``, ``end_match``,
``direction`` (arg = left/right) and ``chop`` (arg = seat) are buttons; ``set_aside``, ``call``, ``choose``,
``successor``, ``target`` (the Executioner names a prisoner, answered by an ephemeral Chop button) and
``positions`` (one position = Peek, two = Swap) are selects; ``act`` opens the ephemeral Swap/Peek menu.
Every control is stamped with the table version, so an outdated one is refused. Menus come from the public view's
``menu`` (the awaited seat's legal actions), never from the adapter's own reading of the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.budget import CONTENT, clip
from bot.cogs.verdugo import render
from bot.components import GameSelect, game_button, view_of
from bot.deadline import edit_answer
from bot.errors import UserError
from bot.replies import in_reply, own_events, replying
from bot.tables import TableService
from bot.ui import COLOUR, SILENT, GameUI, Outgoing, RenderContext, on_table
from games.core import Event

if TYPE_CHECKING:
    from bot.tables import Table

MAX_OPTIONS = 25
#: a prisoner's own Peek (§7.2): shown in the answer of the Swap/Peek menu that made it, not by DM (issue 20)
OWN_RESULTS = frozenset({"verdugo.you.peek"})


class VerdugoUI(GameUI):
    game = "verdugo"
    score_key = "verdugo.score.crowns"  # a match's result is each player's Crowns (edition §9)
    scores_title_key = "verdugo.score.title"

    # --- rendering -----------------------------------------------------------------------------------------
    def echoes(self, event: Event, events: list[Event]) -> bool:
        """A Peek's card is the answer of the menu that made it (:mod:`bot.replies`); a Peek made otherwise (a
        step delivered by another task) still comes by DM, and "My secrets" keeps it."""
        return in_reply(event, OWN_RESULTS)

    def fresh_table(self, table: Table, events: list[Event]) -> bool:
        """A round's end (REVEAL ALL, edition §7.4) gets a new table message, so the reveal stays in the channel's
        history while the match goes on; the reveal that ends the match (§9.4) edits the table into the result,
        which is never edited again (a new message there cost a post and stripping the old table, issue 20)."""
        keys = [e.key for e in events]
        return "verdugo.reveal.all" in keys and not any(k.startswith("verdugo.over.") for k in keys)

    def words(self, ctx: RenderContext, params: dict[str, Any], declared: Iterable[str] = ()) -> dict[str, Any]:
        """Refusal and outcome parameters in words: seats, cards, positions (see :func:`render.words`)."""
        return render.words(ctx, "", params)

    def public_event(self, ctx: RenderContext, event: Event) -> str | None:
        return render.event_line(ctx, event)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        return Outgoing(embeds=[discord.Embed(description=render.event_line(ctx, event), colour=COLOUR)])

    def table_embed(self, ctx: RenderContext, view: dict[str, Any]) -> discord.Embed:
        return render.table_embed(ctx, view)

    def secrets_embed(self, ctx: RenderContext, seat: int, view: dict[str, Any]) -> discord.Embed:
        return render.secrets_embed(ctx, view)

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """The awaited decision's controls, from the public view's ``menu``."""
        menu: list[dict[str, Any]] = view["menu"]
        if not menu:
            return []
        table = ctx.table
        kinds = {a["type"] for a in menu}

        def button(name: str, label: str, arg: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary,
                   emoji: str | None = None) -> discord.ui.Item[Any]:
            return game_button(table.id, table.version, name, arg, label=label[:80], style=style, emoji=emoji)

        def select(name: str, placeholder: str, options: list[tuple[str, str]], count: int = 1) -> discord.ui.Item[Any]:
            opts = [discord.SelectOption(label=label[:100], value=value) for label, value in options[:MAX_OPTIONS]]
            return GameSelect(table.id, table.version, name, placeholder=placeholder[:150], options=opts,
                              min_values=count, max_values=count)

        if "draw" in kinds:
            return [button("draw", ctx.t("verdugo.ui.draw"), emoji="🃏")]
        if "set_aside" in kinds:
            return [select("set_aside", ctx.t("verdugo.ui.set_aside_pick"), [
                (render.card_name(ctx, "verdugo.object", view["active_objects"][a["index"]]), str(a["index"]))
                for a in menu])]
        if "call" in kinds:
            return [select("call", ctx.t("verdugo.ui.call"), [(ctx.name(a["seat"]), str(a["seat"]))
                                                             for a in menu])]
        if "peek" in kinds:
            return [button("act", ctx.t("verdugo.ui.act"), emoji="🔍")]
        if "choose_direction" in kinds:
            return [button("direction", ctx.t(f"verdugo.direction.{d}"), d) for d in ("left", "right")]
        card = render.card_name(ctx, "verdugo.card", (view["pending"] or {}).get("card"))
        if "choose_prisoner" in kinds:
            return [select("choose", ctx.t("verdugo.ui.choose", card=card),
                           [(ctx.name(a["seat"]), str(a["seat"])) for a in menu])]
        if "choose_pair" in kinds:
            seats = sorted({a["a"] for a in menu} | {a["b"] for a in menu})
            return [select("choose", ctx.t("verdugo.ui.choose_pair", card=card),
                           [(ctx.name(s), str(s)) for s in seats], count=2)]
        if "successor" in kinds:
            items = [select("successor", ctx.t("verdugo.ui.successor"),
                            [(ctx.name(a["seat"]), str(a["seat"])) for a in menu])]
            if view["match"] == "open":
                items.append(button("end_match", ctx.t("verdugo.ui.end_match"), style=discord.ButtonStyle.danger))
            return items
        if view["round_phase"] == "shield":
            return [button("chop", ctx.t("verdugo.ui.chop", seat=ctx.name(a["seat"])), str(a["seat"]),
                           style=discord.ButtonStyle.danger, emoji="🪓") for a in menu]
        items = [select("target", ctx.t("verdugo.ui.name_target"),
                        [(ctx.name(a["seat"]), str(a["seat"])) for a in menu if a["type"] == "chop"])]
        if "stop" in kinds:
            items.append(button("stop", ctx.t("verdugo.ui.stop"), style=discord.ButtonStyle.secondary))
        return items

    # --- clicks --------------------------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        """Refusals (ephemeral): the table service's gate (``table.*``) and the engine's codes: who may act
        (``verdugo.host_only`` for ending the match, which the host's click makes as ``HOST_SEAT``;
        ``verdugo.dead`` for a dead prisoner; ``core.not_your_turn``) and every rule of the move."""
        bot: Any = interaction.client
        if name == "end_match":  # the match's end is shown as a new result: the click is acknowledged first
            action = _action(name, arg, values)
            TableService.check_move(table, interaction.user.id, action, version)
            await interaction.response.defer()
            await self.play(bot, table, interaction.user.id, action, version=version)
            return
        if name in ("act", "target"):
            TableService.check_turn(table, interaction.user.id, version)
            ctx = RenderContext(table, table.language)
            if name == "act":
                await self._act_menu(interaction, ctx, version)
            else:
                await self._confirm_chop(interaction, ctx, version, _int(values[0]))
            return
        seat = table.seat_of(interaction.user.id)
        with replying(seat if name == "positions" else None):
            result = await self.play(bot, table, interaction.user.id, _action(name, arg, values), version=version,
                                     interaction=interaction)
        if not on_table(interaction, table):  # a private menu (Swap/Peek, the Chop confirmation): it goes,
            ctx = RenderContext(result.table, result.table.language)  # and a Peek's card is its answer
            seen = [render.event_line(ctx, e) for e in own_events(result.events, seat, OWN_RESULTS)] \
                if seat is not None else []
            answer = {"content": clip("\n".join(seen), CONTENT), "allowed_mentions": SILENT} if seen else {}
            await edit_answer(interaction, view=None, **answer)

    async def _act_menu(self, interaction: discord.Interaction, ctx: RenderContext, version: int) -> None:
        """The prisoner's private menu: pick one position to Peek at, or two to Swap."""
        view = ctx.table.engine.view(ctx.table.state, None)
        positions = [a["position"] for a in view["menu"] if a["type"] == "peek"]
        options = [discord.SelectOption(label=render.position_name(ctx, p, plain=True)[:100], value=str(p))
                   for p in positions]
        select = GameSelect(ctx.table.id, version, "positions", placeholder=ctx.t("verdugo.ui.pick_positions"),
                            options=options, min_values=1, max_values=2)
        await interaction.response.send_message(ctx.t("verdugo.ui.act_prompt"), view=view_of(select),
                                                ephemeral=True, allowed_mentions=SILENT)

    async def _confirm_chop(self, interaction: discord.Interaction, ctx: RenderContext, version: int,
                            target: int) -> None:
        """The Executioner named ``target``: the chop happens only when the ephemeral Chop button is pressed
        (he may name someone else first). Labels show names as typed; message text escapes their markdown."""
        label = ctx.t("verdugo.ui.chop", seat=ctx.name(target))
        chop = game_button(ctx.table.id, version, "chop", str(target), label=label[:80],
                           style=discord.ButtonStyle.danger, emoji="🪓")
        await interaction.response.send_message(ctx.t("verdugo.ui.chop_prompt", seat=ctx.shown_name(target)),
                                                view=view_of(chop), ephemeral=True, allowed_mentions=SILENT)


def _action(name: str, arg: str, values: list[str]) -> dict[str, Any]:
    """The engine action (JSON) a control stands for."""
    if name in ("draw", "stop", "end_match"):
        return {"type": name}
    if name == "direction":
        return {"type": "choose_direction", "direction": arg}
    if name == "chop":
        return {"type": "chop", "seat": _int(arg)}
    if name == "set_aside":
        return {"type": "set_aside", "index": _int(values[0])}
    if name in ("call", "successor"):
        return {"type": name, "seat": _int(values[0])}
    if name == "choose":
        if len(values) == 2:
            return {"type": "choose_pair", "a": _int(values[0]), "b": _int(values[1])}
        return {"type": "choose_prisoner", "seat": _int(values[0])}
    if name == "positions":
        picked: list[Any] = [v if v == "centre" else _int(v) for v in values]
        if len(picked) == 1:
            return {"type": "peek", "position": picked[0]}
        return {"type": "swap", "a": picked[0], "b": picked[1]}
    raise UserError("verdugo.wrong_action")


def _int(value: str) -> int:
    if not value.lstrip("-").isdigit():
        raise UserError("verdugo.wrong_action")
    return int(value)

