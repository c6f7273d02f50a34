"""What the operator sees when the bot starts against the loopback Discord: one line saying what started (no
password) and the invite URL."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.conftest import World


async def test_start_says_what_it_did_in_one_line(world: World, caplog: pytest.LogCaptureFixture) -> None:
    """One "ready" line (version, database without password, shards, servers, commands synced), then the invite."""
    with caplog.at_level(logging.INFO, logger="coroner"):
        async with world.running():
            await world.double.wait_for(lambda: len([r for r in caplog.records if r.name == "coroner"]) >= 2,
                                        what="the ready line and the invite")
            lines = [r.getMessage() for r in caplog.records if r.name == "coroner"]
    ready, invite = lines[:2]
    assert ready.startswith("coroner 0.")
    assert " ready as " in ready
    database = world.db_url.split("@")[-1]
    assert f"/{database.split('/')[-1]}, shards 0 of 1, servers 1, " in ready
    assert ready.endswith(" commands synced globally")
    assert int(ready.split(", ")[-1].split()[0]) >= 10
    assert invite.startswith("invite: https://discord.com/oauth2/authorize?client_id=")
    assert invite.endswith("&scope=bot+applications.commands&permissions=117760")
    assert sum("ready as" in line for line in lines) == 1
