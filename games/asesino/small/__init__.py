"""Asesino en Serie, 2-4 player mode (``small``). Importing this package registers the engine."""

from __future__ import annotations

from games.asesino.small.engine import SmallEngine
from games.core import register

ENGINE = register(SmallEngine())

__all__ = ["ENGINE", "SmallEngine"]
