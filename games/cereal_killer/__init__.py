"""Cereal Killer: hidden movement for 2 players (Killer vs Detective) or 3 (+ Lola, the police dog).

Importing this package registers the engine under ``("cereal_killer", "classic")`` and its computer players
(:mod:`games.cereal_killer.ai`).
"""

from __future__ import annotations

from games.cereal_killer import ai  # noqa: F401  (registers the computer players)
from games.cereal_killer.engine import ENGINE, CerealKiller
from games.cereal_killer.models import CerealOptions, CerealState
from games.core.registry import register

register(ENGINE)

__all__ = ["ENGINE", "CerealKiller", "CerealOptions", "CerealState"]
