"""Asesino en Serie on Discord: the tabletop and 2-4 player modes (UIs in ``ui`` and ``small_ui``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    """Register the tabletop and small mode UIs (a finished series round reaches the lobby cog through a timer the
    delivery arms, so the UIs hold no bot)."""
    register_ui(TabletopUI())
    register_ui(SmallUI())
