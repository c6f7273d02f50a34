"""Verdugo (the Executioner): a match of rounds for 4-8 players with Crowns, the Treasury and a rotating
Executioner (``rules/verdugo.es.txt`` and its card edition ``rules/editions/verdugo-edition.md``).

Importing this package registers the engine under ``("verdugo", "classic")``.
"""

from __future__ import annotations

from games.core.registry import register
from games.verdugo import ai  # noqa: F401  (registers the computer players)
from games.verdugo.engine import ENGINE, Verdugo
from games.verdugo.models import VerdugoOptions, VerdugoState

register(ENGINE)

__all__ = ["ENGINE", "Verdugo", "VerdugoOptions", "VerdugoState"]
