"""Games as discovered plugins: the bot's extensions and the game choices of its commands come from the packages in
the tree, not from lists edited by hand.

A game's Discord part is a package ``bot/cogs/<game>/`` with a discord.py ``setup(bot)`` (it registers the game's
:class:`~bot.ui.GameUI`); its rules engine is a package ``games/<game>/`` (see :mod:`games.core.registry`). Both
are found on their parent package's ``__path__``; ``games/README.md`` says how to add one.
"""

from __future__ import annotations

import pkgutil

from discord import app_commands

from bot import cogs
from bot.i18n import t
from games.core import all_games

#: the bot's own cogs, loaded first and in this order; every other package under ``bot/cogs/`` follows by name
CORE_EXTENSIONS: tuple[str, ...] = ("bot.cogs.lobby", "bot.cogs.core", "bot.cogs.admin", "bot.cogs.dm",
                                    "bot.cogs.history", "bot.cogs.host")


def extensions() -> tuple[str, ...]:
    """Every cog package on ``bot.cogs.__path__`` (names starting with ``_`` are skipped): the core ones first,
    then the games' Discord parts in name order."""
    found = sorted(f"{cogs.__name__}.{info.name}" for info in pkgutil.iter_modules(cogs.__path__)
                   if info.ispkg and not info.name.startswith("_"))
    return (*[e for e in CORE_EXTENSIONS if e in found], *[e for e in found if e not in CORE_EXTENSIONS])


def game_choices(language: str, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices of every registered game whose id or name (in ``language``) contains ``current``
    (at most 25, Discord's limit)."""
    needle = current.lower()
    return [app_commands.Choice(name=t(f"game.{g.id}", language)[:100], value=g.id) for g in all_games()
            if needle in g.id or needle in t(f"game.{g.id}", language).lower()][:25]
