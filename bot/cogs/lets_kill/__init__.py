"""Let's Kill! on Discord: the public table, hands by DM and "My secrets", one Act button for every decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.lets_kill.ui import LetsKillUI
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    """Register the game UI (the lobby, /hand, /status and the turn timers are generic)."""
    register_ui(LetsKillUI())
