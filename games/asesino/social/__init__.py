"""Asesino en Serie, social mode: real-time days, 6-12 players, played by DM and in the official medium.

Importing this package registers the engine as ``("asesino", "social")``.
"""

from __future__ import annotations

from games.asesino.social.actions import (
    AnonymousPost,
    BackJudgement,
    Crime,
    EndDay,
    ExpireJudgements,
    Inspect,
    Interview,
    ManiacKill,
    OpenJudgement,
    Protect,
    PublishNote,
    Recruit,
    RequestReview,
    ReviewLetter,
    SendClue,
    SocialAction,
    WriteLetter,
)
from games.asesino.social.clock import SocialOptions, day_end
from games.asesino.social.engine import ENGINE, PLACEHOLDER, SocialEngine, next_boundary
from games.asesino.social.roles import SocialRole
from games.asesino.social.state import SYSTEM_SEAT, SocialState
from games.core import register

register(ENGINE)

__all__ = [
    "ENGINE",
    "PLACEHOLDER",
    "SYSTEM_SEAT",
    "AnonymousPost",
    "BackJudgement",
    "Crime",
    "EndDay",
    "ExpireJudgements",
    "Inspect",
    "Interview",
    "ManiacKill",
    "OpenJudgement",
    "Protect",
    "PublishNote",
    "Recruit",
    "RequestReview",
    "ReviewLetter",
    "SendClue",
    "SocialAction",
    "SocialEngine",
    "SocialOptions",
    "SocialRole",
    "SocialState",
    "WriteLetter",
    "day_end",
    "next_boundary",
]
