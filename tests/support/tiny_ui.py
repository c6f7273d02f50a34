"""The Discord UI of the test-only Hot Potato game: one "Pass to X" button per other player.

The template of a game's Discord part (``games/README.md``): copied to ``bot/cogs/<game>/__init__.py`` with
"potato" renamed, it is a complete extension.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.components import game_button
from bot.ui import GameUI, RenderContext, register_ui

if TYPE_CHECKING:
    from bot.tables import Table


class PotatoUI(GameUI):
    game = "potato"

    def turn_items(self, ctx: RenderContext, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        holder = view["holder"]
        return [game_button(ctx.table.id, ctx.table.version, "pass", str(seat), label=ctx.t("potato.pass_to",
                            seat=ctx.name(seat))) for seat in range(view["players"]) if seat != holder]

    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        """A "Pass to X" click: the table service refuses strangers, other seats and outdated buttons."""
        await self.play(interaction.client, table, interaction.user.id, {"type": "pass", "to": int(arg)},
                        version=version, interaction=interaction)


async def setup(bot: object) -> None:
    """The discord.py extension entry point of a game's Discord part: registers the game's UI."""
    register_ui(PotatoUI())
