"""What a computer player does in the social mode (ruling 30 in ``games/asesino/README.md``).

Its choices come from the mode's policy (:mod:`games.asesino.ai`, its side's goal, from its own view); of these it
makes only the quiet ones: its role's power (the Killer's recruitment and crime, the Doctor's protection, the
Detective's inspection, the Maniac's kill) and opening or backing a judgement. It never writes (notes, Farewell
Letters, anonymous posts, clues, review requests) and never interviews anyone (an interview is a conversation):
when the policy would, it passes until the game changes. Those powers and judgements are limited to once a day
(or once a game), so a computer player's day ends after a few moves.
"""

from __future__ import annotations

from typing import Any

from games.asesino.social.actions import (
    BackJudgement,
    Crime,
    Inspect,
    ManiacKill,
    OpenJudgement,
    Protect,
    Recruit,
)

#: the moves a computer player makes in the social mode
QUIET_ACTIONS = (Recruit, Crime, Protect, Inspect, ManiacKill, OpenJudgement, BackJudgement)


def ai_plays(action: Any) -> bool:
    """Whether a computer player makes ``action`` (an engine action its policy chose); False: it passes."""
    return isinstance(action, QUIET_ACTIONS)
