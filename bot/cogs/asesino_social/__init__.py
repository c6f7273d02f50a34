"""Asesino en Serie on Discord: the social mode (real-time days, official medium).

``setup`` registers :class:`~bot.cogs.asesino_social.ui.SocialUI` for ``("asesino", "social")``, the day and
judgement timers (:mod:`bot.cogs.asesino_social.days`) and the ``/accuse`` and ``/post`` commands. The
server's dead role is handled in :mod:`bot.cogs.asesino_social.dead`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import games.asesino.social  # noqa: F401 - registers the engine
from bot.cogs.asesino_social import days
from bot.cogs.asesino_social.cog import SocialCommands
from bot.cogs.asesino_social.ui import SOCIAL
from bot.ui import register_ui

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    register_ui(SOCIAL)
    days.install(bot)
    await bot.add_cog(SocialCommands(bot))
