"""Cereal Killer on Discord: hidden movement, the Killer's routes by DM, board images on every status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.cereal_killer._views import CerealUI
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    """Register the game UI (no slash commands of its own: the lobby, /hand and DMs are generic)."""
    del bot
    register_ui(CerealUI())
