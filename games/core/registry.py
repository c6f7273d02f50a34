"""The registry of game engines, keyed by ``(game, mode)``, filled by the game packages themselves.

A game is a package ``games/<game>/`` (any package beside ``games/core``) whose import registers each of its
engines with :func:`register`. The registry discovers those packages on ``games.__path__`` the first time a game is
looked up (again only when that path changes), so a game dropped into the tree is playable with no list to edit (see
``games/README.md``). Tests may :func:`register` extra engines (e.g. a tiny stand-in game).
"""

from __future__ import annotations

import importlib
import pkgutil

import games
from games.core.description import GameInfo
from games.core.engine import Engine

#: packages under ``games/`` that are not games
NOT_GAMES = frozenset({"core"})

_ENGINES: dict[tuple[str, str], Engine] = {}
#: the ``games.__path__`` whose every game package was imported: listed again only when the path changes (a test
#: adding a directory), not at every lookup (reading the directories cost ten listings a lobby)
_loaded: tuple[str, ...] | None = None


def register(engine: Engine) -> Engine:
    """Add ``engine`` under ``(engine.game, engine.mode.id)``. Re-registering replaces the entry."""
    _ENGINES[(engine.game, engine.mode.id)] = engine
    return engine


def game_packages() -> list[str]:
    """The importable names of every game package on ``games.__path__`` (e.g. ``games.asesino``), sorted."""
    return sorted(f"games.{info.name}" for info in pkgutil.iter_modules(games.__path__)
                  if info.ispkg and info.name not in NOT_GAMES and not info.name.startswith("_"))


def _load_games() -> None:
    global _loaded
    path = tuple(games.__path__)
    if path == _loaded:
        return
    for package in game_packages():
        importlib.import_module(package)
    _loaded = path


def get_engine(game: str, mode: str) -> Engine:
    """The engine for ``game`` in ``mode``. Raises ``KeyError`` when there is none."""
    if (game, mode) not in _ENGINES:
        _load_games()
    return _ENGINES[(game, mode)]


def all_games() -> list[GameInfo]:
    """Every registered game with its modes, in registration order."""
    _load_games()
    found: dict[str, GameInfo] = {}
    for (game, _), engine in _ENGINES.items():
        found.setdefault(game, GameInfo(id=game, modes=[])).modes.append(engine.mode)
    return list(found.values())


def get_game(game: str) -> GameInfo:
    """The registered game ``game`` with its modes. Raises ``KeyError`` when there is none."""
    for info in all_games():
        if info.id == game:
            return info
    raise KeyError(game)
