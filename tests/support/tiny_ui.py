"""The Discord UI of the test-only Hot Potato game: one "Pass to X" button per other player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.components import game_button
from bot.i18n import catalog
from bot.ui import GameUI, RenderContext, register_ui
from tests.support.tiny_game import MESSAGES

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


def install() -> None:
    """Register the UI and add the game's messages to the catalogues (idempotent)."""
    register_ui(PotatoUI())
    for language, messages in MESSAGES.items():
        catalog(language).messages.update(messages)


async def setup(bot: object) -> None:
    """The discord.py extension entry point of a game's Discord part (``bot/cogs/<game>/__init__.py``)."""
    install()
