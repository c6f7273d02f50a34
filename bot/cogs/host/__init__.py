"""The host's powers on a running table: the Host button's private panel (:mod:`bot.cogs.host.panel`) and the same
powers as commands (``/host``, ``/pause``, ``/resume``; ``/cancel`` is the lobby's, with its confirmation)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.host.cog import Host

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Host(bot))
