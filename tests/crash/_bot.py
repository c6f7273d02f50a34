"""The bot process of the crash test: Coroner with the test-only Hot Potato game, settings from the environment.

A pass is answered with an ephemeral "ok" follow-up once it is committed: that is the success reply the crash
test counts. Prints ``ready`` on stdout when the bot is connected."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import heap
from bot.bot import CoronerBot
from bot.settings import Settings
from bot.ui import GameUI, register_ui
from tests.support import potato, tiny_ui

if TYPE_CHECKING:
    from bot.tables import Table

OK = "ok"


class CrashPotatoUI(tiny_ui.PotatoUI):
    async def on_component(self, interaction: discord.Interaction, table: Table, name: str, arg: str,
                           version: int, values: list[str]) -> None:
        bot: Any = interaction.client
        await interaction.response.defer(ephemeral=True, thinking=True)
        await bot.tables.act(table.id, interaction.user.id, {"type": "pass", "to": int(arg)},
                             expected_version=version)
        await interaction.followup.send(OK, ephemeral=True)


async def serve(ui: GameUI, before_ready: Callable[[], None] | None = None) -> None:
    """Run Coroner with Hot Potato shown by ``ui`` until stopped, settings from the environment; at each gateway
    ready call ``before_ready`` (if given), then print ``ready`` on stdout."""
    potato.install()  # the engine registers itself on import
    register_ui(ui)
    settings = Settings()
    assert settings.discord_token is not None
    bot = CoronerBot(settings, guild_ready_timeout=0.05)

    async def ready() -> None:
        if before_ready is not None:
            before_ready()
        print("ready", flush=True)

    heap.settle_at_ready(bot)  # as run_bot does
    bot.add_listener(ready, "on_ready")
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())


if __name__ == "__main__":
    asyncio.run(serve(CrashPotatoUI()))
