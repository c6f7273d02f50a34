"""Asesino en Serie, tabletop mode (5-10 players). Importing this package registers the engine."""

from __future__ import annotations

from games.asesino.tabletop.engine import TabletopEngine
from games.core import register

ENGINE = register(TabletopEngine())

__all__ = ["ENGINE", "TabletopEngine"]
