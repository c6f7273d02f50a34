"""Server settings: ``/config`` (Manage Server only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.admin.cog import Admin

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Admin(bot))
