"""Asesino en Serie on Discord: the tabletop and 2-4 player modes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    """Register the mode UIs (filled in by bot/cogs/asesino/_render.py and _views.py)."""
