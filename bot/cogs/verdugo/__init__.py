"""Verdugo on Discord: the public table with the awaited player's controls, the prisoners' ephemeral Swap/Peek
menu, the Executioner's name-then-Chop confirmation, roles and private looks by DM (or "My secrets")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.verdugo.ui import VerdugoUI
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    """Register the game UI (no slash commands of its own: the lobby, /hand, /rules and /leaderboard are
    generic)."""
    register_ui(VerdugoUI())
