"""Cereal Killer on Discord: hidden movement, the Killer's routes by DM, board images on every status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.cogs.cereal_killer.ui import ANSWER_TIMER, CerealUI, clear_answer_buttons
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    """Register the game UI (no slash commands of its own: the lobby, /hand and DMs are generic) and the timer
    that takes the Killer's answer buttons away at their deadline."""
    register_ui(CerealUI())

    async def on_answer_due(timer: Any) -> None:
        await clear_answer_buttons(bot, timer)

    bot.timers.on(ANSWER_TIMER, on_answer_due)
