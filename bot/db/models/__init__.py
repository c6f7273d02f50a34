"""Every table of the store. Importing this package registers all models on :data:`bot.db.base.Base.metadata`."""

from bot.db.models.game import ACTIVE_STATUSES, GAME_STATUSES, FormerHolder, Game, GameAction, Seat, Timer
from bot.db.models.guild import GuildSettings
from bot.db.models.live import LiveTableState
from bot.db.models.outbox import OutboxEntry
from bot.db.models.social import AnonymousPost, FarewellLetter
from bot.db.models.stats import SERIES_STATUSES, Achievement, Score, Series
from bot.db.models.threads import GameThread

__all__ = [
    "ACTIVE_STATUSES",
    "GAME_STATUSES",
    "SERIES_STATUSES",
    "Achievement",
    "AnonymousPost",
    "FarewellLetter",
    "FormerHolder",
    "Game",
    "GameAction",
    "GameThread",
    "GuildSettings",
    "LiveTableState",
    "OutboxEntry",
    "Score",
    "Seat",
    "Series",
    "Timer",
]
