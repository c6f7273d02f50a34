"""The social mode's computer players (edition ruling "AI seats in the social mode", ``games/asesino/README.md``).

The social mode is a game of writing and persuasion over real-time days; a computer player takes no part in that
side of it. It never writes (notes, Farewell Letters, anonymous posts, clues, review requests), never opens a
judgement and never interviews (an interview is a conversation). It uses its role's own power (the Killer's
recruitment and crime, the Doctor's protection, the Detective's inspection, the Maniac's kill) and backs open
judgements, each a random legal choice, as often as the rules allow (those powers are once a day or once a game);
when none of these is legal it passes until the game changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.asesino.social.actions import BackJudgement, Crime, Inspect, ManiacKill, Protect, Recruit
from games.core.ai import register_policy

#: what a computer player does in the social mode
QUIET_ACTIONS = (Recruit, Crime, Protect, Inspect, ManiacKill, BackJudgement)


class SocialSeatPolicy:
    """A random legal role power or judgement backing, else a pass (``None``)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any | None:
        quiet = [action for action in legal if isinstance(action, QUIET_ACTIONS)]
        return rng.choice(quiet) if quiet else None


POLICY = register_policy("asesino", SocialSeatPolicy(), mode="social")
