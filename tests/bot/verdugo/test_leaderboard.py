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
    asked = SimpleNamespace(guild_id=1, response=Response())
    await Core.leaderboard.callback(core, asked, "verdugo")  # type: ignore[arg-type]
    line = asked.response.sent["embed"].description
    assert expected in line and wrong not in line
