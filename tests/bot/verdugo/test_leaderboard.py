"""The Verdugo leaderboard counts Crowns, the unit its results use, not points (issue 21)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.cogs.core.cog import Core
from bot.cogs.verdugo.ui import VerdugoUI
from bot.ui import register_ui


class Response:
    def __init__(self) -> None:
        self.sent: dict[str, Any] = {}

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent = {"content": content, **kwargs}

    def is_done(self) -> bool:
        return bool(self.sent)


@pytest.mark.parametrize(("language", "expected", "wrong"), [
    ("en", "9 Crowns", "point"), ("es", "9 coronas", "punto")])
async def test_the_verdugo_leaderboard_says_crowns(language: str, expected: str, wrong: str) -> None:
    """A player with 9 Crowns in all is listed with "9 Crowns" ("9 coronas"), never "9 points"."""
    register_ui(VerdugoUI())
    async def language_of(guild_id: int | None) -> str:
        return language

    async def leaderboard(*args: Any, **kwargs: Any) -> list[Any]:
        return [SimpleNamespace(user_id=7, points=9.0, wins=1, games=2)]

    core = Core(SimpleNamespace(language=language_of, tables=SimpleNamespace(leaderboard=leaderboard)))  # type: ignore[arg-type]
    asked = SimpleNamespace(guild_id=1, user=SimpleNamespace(id=7), response=Response())
    await Core.leaderboard.callback(core, asked, "verdugo")  # type: ignore[arg-type]
    line = asked.response.sent["embed"].description
    assert expected in line and wrong not in line


@pytest.mark.parametrize(("language", "rest"), [("en", "…and 10 more"), ("es", "…y 10 más")])
async def test_a_long_leaderboard_counts_the_rest_and_shows_the_askers_own_place(language: str, rest: str) -> None:
    """30 players: the first 20 are listed, the other 10 counted, and the one asking (27th) still sees their own
    line; nobody's place is lost without a word."""
    async def language_of(guild_id: int | None) -> str:
        return language

    async def leaderboard(*args: Any, **kwargs: Any) -> list[Any]:
        return [SimpleNamespace(user_id=100 + n, points=float(60 - n), wins=1, games=2) for n in range(30)]

    register_ui(VerdugoUI())
    core = Core(SimpleNamespace(language=language_of, tables=SimpleNamespace(leaderboard=leaderboard)))  # type: ignore[arg-type]
    asked = SimpleNamespace(guild_id=1, user=SimpleNamespace(id=126), response=Response())
    await Core.leaderboard.callback(core, asked, "verdugo")  # type: ignore[arg-type]
    lines = asked.response.sent["embed"].description.split("\n")
    assert len(lines) == 22 and lines[20] == rest and lines[21].startswith("**27.** <@126>")
