"""``/metrics`` (``METRICS_PORT``) scraped after a few moves, a refused click, a 429 and DMs to a player whose DMs are
closed: every counter moved by exactly what the loopback Discord saw happen, and the bot listens on no other port."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.bot import CoronerBot
from bot.metrics import route_of
from bot.settings import Settings
from tests.discord_double.server import TOKEN
from tests.e2e.conftest import World, mark, refusal, until_delivered
from tests.e2e.test_foundation import pass_button, status_messages
from tests.support.newgame import newgame
from tests.support.processes import free_port

pytestmark = pytest.mark.usefixtures("potato")
PASSES = 2  # accepted moves: the game stays active (it ends after the lobby's 3 passes)


def listening_ports() -> set[int]:
    """The TCP ports this process listens on (its sockets' inodes in ``/proc/net/tcp`` and ``tcp6``, LISTEN)."""
    inodes = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``{(sample name, sorted labels): value}`` of ``/metrics``."""
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = await answer.text()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted({"shards": "all", **labels}.items()))), 0.0)


async def test_metrics_count_exactly_what_happened(world: World) -> None:
    alice, bob, carol, dave, erin = world.players
    world.double.close_dms(erin)
    port = free_port()
    settings = Settings(_env_file=None, discord_token=TOKEN, database_url=world.db_url,
                        discord_api_base=world.double.api_base, metrics_port=port)
    bot = CoronerBot(settings, clock=world.clock, guild_ready_timeout=0.05)
    before = listening_ports()
    async with world.running(bot):
        assert listening_ports() - before == {port}  # the metrics port, and no other
        handle = await newgame(alice, world.games, "potato", "classic", passes=3)
        await handle.response()
        lobby = await handle.wait_original()
        for user in (bob, erin):
            await (await user.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()
        await world.double.wait_for(lambda: status_messages(world), what="the first table status")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        fault = world.double.fail_once("POST", r"/channels/\d+/messages$", status=429)  # the next DM or post
        for _ in range(PASSES):
            current = await world.tables.load(table.id)
            latest = status_messages(world)[-1]
            holder = next(u for u in world.players if u.id == current.user_of(current.state.holder))
            if _ == 0:  # one refused move: someone who does not hold the potato passes it
                bystander = next(u for u in (alice, bob, erin) if u is not holder)
                assert "not your turn" in await refusal(await bystander.click(latest, custom_id=pass_button(latest)))
            seen = mark(status_messages(world))
            await (await holder.click(latest, custom_id=pass_button(latest))).response()
            await world.double.wait_for(lambda s=seen: mark(status_messages(world)) != s, what="the pass shown")
        await until_delivered(world)
        await world.double.wait_for(lambda: fault.hits == 1, what="the 429 answered")
        samples = await scrape(port)
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as other:
            assert other.status == 404

    requests = [r for r in world.double.requests]
    # every REST call the double answered is counted once under its route and status, and nothing else is
    seen_by_double = Counter((r.method, route_of(r.path), str(r.status)) for r in requests)
    counted = {(dict(labels)["method"], dict(labels)["route"], dict(labels)["status"]): n
               for (name, labels), n in samples.items() if name == "coroner_rest_requests_total"}
    assert counted == dict(seen_by_double)
    assert value(samples, "coroner_rest_requests_total", method="POST", route="/channels/{id}/messages",
                 status="429") == 1
    assert value(samples, "coroner_rest_retries_total", route="/channels/{id}/messages", status="429") == 1
    closed = sum(1 for r in requests if r.method == "POST" and re.fullmatch(r"/channels/\d+/messages", r.path)
                 and r.status == 403)
    assert closed >= 1  # erin's deal DM at least
    assert value(samples, "coroner_dms_failed_total", reason="closed") == closed
    assert value(samples, "coroner_dms_failed_total", reason="error") == 0
    assert value(samples, "coroner_moves_total", game="potato", result="accepted") == PASSES
    assert value(samples, "coroner_moves_total", game="potato", result="refused") == 1
    assert value(samples, "coroner_click_to_table_seconds_count", game="potato") == PASSES
    assert value(samples, "coroner_interaction_callbacks_late_total") == 0
    assert value(samples, "coroner_games", status="active") == 1
    assert value(samples, "coroner_games", status="lobby") == 0
    assert value(samples, "coroner_outbox_backlog") == 0
    assert value(samples, "coroner_outbox_oldest_seconds") == 0
    assert value(samples, "coroner_timers_overdue") == 0  # the turn timers are minutes away on the test's clock
    assert value(samples, "coroner_lease_takeovers_total", kind="turn_timeout") == 0
