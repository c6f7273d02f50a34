"""The engine contract shared by every game (see ``games/core/engine.py``)."""

from games.core.engine import (
    HOST_SEAT,
    SERVER_SETTING,
    SYSTEM_SEAT,
    Audience,
    Engine,
    Event,
    Features,
    GameInfo,
    IllegalAction,
    ModeInfo,
    Outcome,
    SeatInfo,
    Step,
    Waiting,
    rng_for,
    seat_keys,
)
from games.core.registry import all_games, get_engine, get_game, register

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
