"""Cereal Killer on Discord: hidden movement, routes by DM, board images."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    """Register the game UI (filled in by bot/cogs/cereal_killer/_render.py and _views.py)."""
