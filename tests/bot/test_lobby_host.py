"""The lobby's Host field: a lobby nobody sits at (its host left) has no host until someone joins (issue 21)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.cogs.lobby.render import lobby_embed
from bot.tables import Table
from bot.tables.model import TableSeat
from games.core import get_engine

NOW = datetime(2026, 12, 1, tzinfo=UTC)
EMPTY = Table(id=1, game="verdugo", mode="classic", guild_id=1, channel_id=2, host_id=100, status="lobby", seed=None,
              options={}, version=3, language="en", series_id=None, lobby_message_id=None, table_message_id=None,
              created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=(), state=None,
              engine=get_engine("verdugo", "classic"))


def host_field(table: Table, language: str) -> str:
    return next(f.value for f in lobby_embed(table, language, None).fields if f.name in ("Host", "Anfitrión"))


@pytest.mark.parametrize(("language", "nobody"), [
    ("en", "Nobody: whoever joins next hosts the game."), ("es", "Nadie: quien se una primero será el anfitrión.")])
def test_an_empty_lobby_names_no_host_and_a_seated_host_is_named(language: str, nobody: str) -> None:
    """The host who left is not named; once a person sits (the host, or whoever joined), the host is."""
    assert host_field(EMPTY, language) == nobody
    seated = replace(EMPTY, seats=(TableSeat(seat=0, user_id=100, names=("Alice",)),))
    assert host_field(seated, language) == "<@100>"
    computers_only = replace(EMPTY, seats=(TableSeat(seat=0, user_id=None, names=("AI 1",)),))
    assert host_field(computers_only, language) == nobody
