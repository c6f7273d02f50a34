"""``/replace``: the host hands a seated player's seat to someone in the channel (an offer they accept) or to the
computer (issue 24)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.seats.cog import Seats

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Seats(bot))
