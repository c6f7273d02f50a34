"""Lobbies: ``/newgame``, Join / Leave / Start / Cancel buttons, ``/join``, ``/start``, ``/cancel``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.lobby.cog import Lobby

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Lobby(bot))
