"""The engine contract shared by every game: the :class:`Engine` base class (``games/core/engine.py``), the values
it speaks in (``contract.py``), who it waits on (``waiting.py``) and what a game declares (``description.py``)."""

from games.core.contract import (
    HOST_SEAT,
    SYSTEM_SEAT,
    Audience,
    Event,
    IllegalAction,
    Outcome,
    SeatInfo,
    Step,
    rng_for,
    seat_keys,
)
from games.core.description import SERVER_SETTING, Features, GameInfo, ModeInfo
from games.core.engine import Engine
from games.core.registry import all_games, get_engine, get_game, register
from games.core.waiting import Waiting

__all__ = [
    "Audience",
    "Engine",
    "Event",
    "Features",
    "GameInfo",
    "HOST_SEAT",
    "IllegalAction",
    "ModeInfo",
    "Outcome",
    "SERVER_SETTING",
    "SYSTEM_SEAT",
    "SeatInfo",
    "Step",
    "Waiting",
    "all_games",
    "get_engine",
    "get_game",
    "register",
    "rng_for",
    "seat_keys",
]
