"""Asesino en Serie on Discord: the social mode (real-time days, official medium)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    """Register the mode UIs (filled in by bot/cogs/asesino_social/_render.py and _views.py)."""
