"""The registry of game engines, keyed by ``(game, mode)``.

Game packages are imported lazily from :data:`BUILTIN` so that importing one game never imports the others.
Tests may :func:`register` extra engines (e.g. a tiny stand-in game).
"""

from __future__ import annotations

import importlib

from games.core.engine import Engine, GameInfo

#: game id -> modules that each register one engine (one mode) on import
BUILTIN: dict[str, tuple[str, ...]] = {
    "asesino": ("games.asesino.tabletop", "games.asesino.small", "games.asesino.social"),
    "cereal_killer": ("games.cereal_killer",),
    "verdugo": ("games.verdugo",),
}

_ENGINES: dict[tuple[str, str], Engine] = {}


def register(engine: Engine) -> Engine:
    """Add ``engine`` under ``(engine.game, engine.mode.id)``. Re-registering replaces the entry."""
    _ENGINES[(engine.game, engine.mode.id)] = engine
    return engine


def _load_builtins() -> None:
    for modules in BUILTIN.values():
        for module in modules:
            importlib.import_module(module)


def get_engine(game: str, mode: str) -> Engine:
    """The engine for ``game`` in ``mode``. Raises ``KeyError`` when there is none."""
    if (game, mode) not in _ENGINES:
        _load_builtins()
    return _ENGINES[(game, mode)]


def all_games() -> list[GameInfo]:
    """Every registered game with its modes, in registration order."""
    _load_builtins()
    games: dict[str, GameInfo] = {}
    for (game, _), engine in _ENGINES.items():
        games.setdefault(game, GameInfo(id=game, modes=[])).modes.append(engine.mode)
    return list(games.values())


def get_game(game: str) -> GameInfo:
    """The registered game ``game`` with its modes. Raises ``KeyError`` when there is none."""
    for info in all_games():
        if info.id == game:
            return info
    raise KeyError(game)
