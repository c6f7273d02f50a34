"""Asesino social mode: cancelling a running game announces it and takes the dead role back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.tables import TableService
from tests.e2e.conftest import World, refusal
from tests.e2e.test_asesino_social import SEED, cast, pick, seat, six_players, start_game


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The same known deal as the main social test."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))
    yield


async def test_cancelling_a_social_game_takes_the_dead_role_back(world: World) -> None:
    """A murdered player holds the dead role; the host's /cancel announces the end and removes the role."""
    players = await six_players(world)
    dead_role = world.guild.add_role("Dead")
    async with world.running():
        await (await world.admin.slash(world.games, "config deadrole", role=dead_role)).response()
        table = await start_game(world, players)
        who = cast(table, players)
        await pick(world, who["killer"], "recruit", seat(table, who["accomplice"]))
        await pick(world, who["killer"], "crime", seat(table, who["bystander"]))
        member = world.guild.member(who["bystander"])
        await world.double.wait_for(lambda: dead_role.id in member.role_ids, what="the dead role")
        assert "cancelled" in await refusal(await players[0].slash(world.games, "cancel"))
        await world.double.wait_for(lambda: dead_role.id not in member.role_ids, what="the role taken back")
        assert any("was cancelled by" in m.content for m in world.bot_messages())
        assert (await world.tables.load(table.id)).status == "cancelled"
