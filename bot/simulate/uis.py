"""The games' Discord parts without Discord: each game extension's ``setup`` run against a stand-in bot, so that
its :class:`~bot.ui.GameUI` (catalogue renderers, ``complete_action``) is registered exactly as in the bot."""

from __future__ import annotations

import importlib
from unittest.mock import AsyncMock, MagicMock

from bot.plugins import CORE_EXTENSIONS, extensions

_loaded = False


def load_uis() -> None:
    """Register every game extension's UI once per process (the core cogs are not games and are skipped).
    Raises ``RuntimeError`` if an extension's ``setup`` waits on something real (it must only register)."""
    global _loaded
    if _loaded:
        return
    bot = MagicMock(name="bot")
    bot.add_cog = AsyncMock()
    for name in extensions():
        if name in CORE_EXTENSIONS:
            continue
        setup = importlib.import_module(name).setup(bot)
        try:
            setup.send(None)
        except StopIteration:
            continue
        setup.close()
        raise RuntimeError(f"{name}.setup waited on the bot; coroner simulate cannot load it")
    _loaded = True
