"""The double's gateway and REST behaviour seen from a raw aiohttp client (no discord.py in between)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.server import TOKEN

AUTH = {"Authorization": f"Bot {TOKEN}"}


@pytest.fixture
async def http(double: DiscordDouble) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=f"{double.api_base}", headers=AUTH) as session:
        yield session


async def _identify(http: aiohttp.ClientSession, double: DiscordDouble, shard: list[int],
                    intents: int = 1) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    """Connect, IDENTIFY and read READY plus the GUILD_CREATEs that follow it."""
    ws = await http.ws_connect(double.gateway_url + "?v=10&encoding=json&compress=zlib-stream")
    hello = await ws.receive_json(timeout=5)
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": intents, "shard": shard, "properties": {}}})
    frames = [await ws.receive_json(timeout=5)]
    guilds = len(frames[0]["d"]["guilds"])
    frames += [await ws.receive_json(timeout=5) for _ in range(guilds)]
    return ws, frames


async def test_identify_honours_shards_and_heartbeats_are_acked(double: DiscordDouble,
                                                                  http: aiohttp.ClientSession) -> None:
    """Each guild is sent to exactly the shard (guild_id >> 22) % shard_count; heartbeats get op 11."""
    guilds = [double.add_guild(f"g{i}") for i in range(6)]
    seen: dict[int, set[int]] = {}
    for shard_id in (0, 1):
        ws, frames = await _identify(http, double, [shard_id, 2])
        ready = frames[0]
        assert (ready["t"], ready["s"], ready["d"]["shard"]) == ("READY", 1, [shard_id, 2])
        assert ready["d"]["resume_gateway_url"] == double.gateway_url
        assert [f["t"] for f in frames[1:]] == ["GUILD_CREATE"] * (len(frames) - 1)
        seen[shard_id] = {int(f["d"]["id"]) for f in frames[1:]}
        await ws.send_json({"op": 1, "d": ready["s"]})
        assert (await ws.receive_json(timeout=5))["op"] == 11
        await ws.close()
    assert seen[0] | seen[1] == {g.id for g in guilds} and not seen[0] & seen[1]
    for shard_id, ids in seen.items():
        assert all((gid >> 22) % 2 == shard_id for gid in ids)


async def test_resume_replays_missed_events_then_resumed(double: DiscordDouble,
                                                         http: aiohttp.ClientSession) -> None:
    """A RESUME with the last seen sequence gets the events dispatched meanwhile, then RESUMED."""
    guild = double.add_guild("g")
    ws, frames = await _identify(http, double, [0, 1])
    session_id, last = frames[0]["d"]["session_id"], frames[-1]["s"]
    await ws.close()
    guild.add_text_channel("late")
    ws = await http.ws_connect(double.gateway_url)
    await ws.receive_json(timeout=5)
    await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": session_id, "seq": last}})
    replayed = [await ws.receive_json(timeout=5) for _ in range(2)]
    assert [(f["t"], f["s"]) for f in replayed] == [("CHANNEL_CREATE", last + 1), ("RESUMED", last + 2)]
    assert replayed[0]["d"]["name"] == "late"
    await ws.close()


async def test_unknown_session_is_invalidated(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    """RESUME with a session the double never issued is answered with op 9 (not resumable)."""
    ws = await http.ws_connect(double.gateway_url)
    await ws.receive_json(timeout=5)
    await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": "nope", "seq": 3}})
    assert await ws.receive_json(timeout=5) == {"op": 9, "d": False, "s": None, "t": None}
    await ws.close()


async def test_unknown_route_is_a_discord_404_and_recorded(double: DiscordDouble,
                                                            http: aiohttp.ClientSession) -> None:
    """An unimplemented route answers 404 with Discord's error shape and is listed in unknown_requests."""
    async with http.get("/api/v10/guilds/1/emojis") as resp:
        assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
        assert await resp.json() == {"message": "404: Not Found", "code": 0}
    assert [(r.method, r.path) for r in double.unknown_requests] == [("GET", "/guilds/1/emojis")]
    double.strict = False


async def test_one_off_500_then_success(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    """fail_once answers the next matching request with 500 and then lets requests through."""
    channel = double.add_guild("g").add_text_channel("c")
    fault = double.fail_once("GET", r"^/channels/\d+$", status=500)
    url = f"/api/v10/channels/{channel.id}"
    async with http.get(url) as first, http.get(url) as second:
        assert (first.status, second.status) == (500, 200)
    assert fault.hits == 1 and fault.remaining == 0


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"content": ""}, 400, 50006),
        ({"content": "x" * 2001}, 400, 50035),
        ({"embeds": [{"title": "t"}] * 11}, 400, 50035),
        ({"content": "ok"}, 200, None),
    ],
)
async def test_message_checks_match_discord(double: DiscordDouble, http: aiohttp.ClientSession,
                                            body: dict[str, Any], status: int, code: int | None) -> None:
    """Empty, over-long and over-embedded messages are refused with Discord's codes."""
    channel = double.add_guild("g").add_text_channel("c")
    async with http.post(f"/api/v10/channels/{channel.id}/messages", json=body) as resp:
        assert resp.status == status
        if code is not None:
            assert (await resp.json())["code"] == code
    double.strict = False  # the over-long bodies also break the spec's limits


async def test_interaction_can_be_acknowledged_only_once(double: DiscordDouble,
                                                        http: aiohttp.ClientSession) -> None:
    """A second callback for the same interaction gets 400 / 40060; the first one is the response."""
    guild = double.add_guild("g")
    channel = guild.add_text_channel("c")
    alice = double.add_user("alice")
    guild.add_member(alice)
    double.global_commands.append({"id": "1", "name": "ping", "type": 1, "options": []})
    ws, _ = await _identify(http, double, [0, 1])
    handle = await alice.slash(channel, "ping")
    event = await ws.receive_json(timeout=5)
    assert event["t"] == "INTERACTION_CREATE" and event["d"]["member"]["user"]["id"] == str(alice.id)
    url = f"/api/v10/interactions/{handle.id}/{handle.token}/callback"
    body = {"type": 4, "data": {"content": "pong", "flags": 64}}
    async with http.post(url, json=body) as first, http.post(url, json=body) as second:
        assert first.status == 200 and (await first.json())["interaction"]["response_message_ephemeral"]
        assert second.status == 400 and (await second.json())["code"] == 40060
    resp = await handle.response()
    assert (resp.content, resp.ephemeral) == ("pong", True)
    await ws.close()


async def test_unanswered_interaction_fails_clearly(double: DiscordDouble, http: aiohttp.ClientSession) -> None:
    """Waiting for a response nobody sends fails with a message naming the interaction."""
    guild = double.add_guild("g")
    channel = guild.add_text_channel("c")
    alice = double.add_user("alice")
    guild.add_member(alice)
    double.global_commands.append({"id": "1", "name": "ping", "type": 1, "options": []})
    ws, _ = await _identify(http, double, [0, 1])
    handle = await alice.slash(channel, "ping")
    with pytest.raises(AssertionError, match="did not answer interaction"):
        await handle.response(timeout=0.05)
    await ws.close()
