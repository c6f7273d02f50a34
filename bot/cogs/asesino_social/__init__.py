"""Asesino en Serie on Discord: the social mode (real-time days, official medium).

``setup`` registers :class:`~bot.cogs.asesino_social._views.SocialUI` for ``("asesino", "social")``, the day and
judgement timers (:mod:`bot.cogs.asesino_social._days`) and the ``/accuse`` and ``/post`` commands. The
server's dead role is handled in :mod:`bot.cogs.asesino_social._dead`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import games.asesino.social  # noqa: F401 - registers the engine
from bot.cogs.asesino_social import _days
from bot.cogs.asesino_social._views import SOCIAL
from bot.cogs.asesino_social.cog import SocialCommands
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    register_ui(SOCIAL)
    _days.install(bot)
    await bot.add_cog(SocialCommands(bot))
