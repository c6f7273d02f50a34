"""Let's Kill! (3-5 players): whack Victims with Weapons, score Incidents, first to hold 20 points (RB + card
edition v1.1). Importing the package registers the engine."""

from __future__ import annotations

from games.core.registry import register
from games.lets_kill import ai  # noqa: F401  (registers the computer players)
from games.lets_kill.engine import ENGINE

register(ENGINE)

__all__ = ["ENGINE"]
