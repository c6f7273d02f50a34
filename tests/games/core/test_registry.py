"""The engine registry (:mod:`games.core.registry`) finds the game packages itself, listing ``games/`` once."""

from __future__ import annotations

import pkgutil
from typing import Any

import pytest

import games
from games.core import registry
from games.core.registry import all_games, get_engine, get_game


def test_lookups_list_the_games_directory_once_until_its_path_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lobby looks games up about ten times: the directory is read at the first lookup only, and again when
    ``games.__path__`` changes (a directory added, as a new game's test does)."""
    listed: list[Any] = []
    iter_modules = pkgutil.iter_modules
    monkeypatch.setattr(pkgutil, "iter_modules", lambda path: listed.append(path) or iter_modules(path))
    monkeypatch.setattr(registry, "_loaded", None)
    ids = [info.id for info in all_games()]
    for _ in range(5):
        assert get_game("verdugo").id == "verdugo"
        assert [info.id for info in all_games()] == ids
    assert get_engine("asesino", "tabletop").game == "asesino"
    assert {"asesino", "cereal_killer", "lets_kill", "verdugo"} <= set(ids)
    assert len(listed) == 1
    monkeypatch.setattr(games, "__path__", [*games.__path__])  # the same directories, a new path object...
    all_games()
    assert len(listed) == 1  # ...is the same path
    monkeypatch.setattr(games, "__path__", [*games.__path__, "/nonexistent/games"])
    all_games()
    assert len(listed) == 2
