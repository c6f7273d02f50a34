"""Shared pieces of the strict-double tests: a double on a manual clock, an authorised HTTP session, a scripted
interaction and its callback URL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.discord_double import Channel, DiscordDouble, InteractionHandle, User
from tests.discord_double.clock import ManualClock
from tests.discord_double.server import TOKEN

AUTH = {"Authorization": f"Bot {TOKEN}"}


@dataclass
class Strict:
    """A started double on a :class:`ManualClock`, a guild channel, a member and an authorised session."""

    double: DiscordDouble
    clock: ManualClock
    http: aiohttp.ClientSession
    channel: Channel
    alice: User
    ws: aiohttp.ClientWebSocketResponse | None = None

    async def post(self, path: str, body: Any, *, headers: dict[str, str] | None = None
                   ) -> tuple[int, dict[str, str], Any]:
        async with self.http.post(f"/api/v10{path}", json=body, headers=headers) as resp:
            return resp.status, dict(resp.headers), await resp.json(content_type=None)

    async def patch(self, path: str, body: Any) -> tuple[int, Any]:
        async with self.http.patch(f"/api/v10{path}", json=body) as resp:
            return resp.status, await resp.json(content_type=None)

    async def connect(self) -> None:
        """IDENTIFY a raw gateway connection (interactions need a connected bot) and read READY and GUILD_CREATE."""
        ws = await self.http.ws_connect(self.double.gateway_url)
        await ws.receive_json(timeout=5)
        await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "shard": [0, 1], "properties": {}}})
        await ws.receive_json(timeout=5)
        await ws.receive_json(timeout=5)
        self.ws = ws

    async def interaction(self) -> InteractionHandle:
        """``/ping`` from alice (registering the command first)."""
        if not self.double.global_commands:
            self.double.global_commands.append({"id": "1", "name": "ping", "type": 1, "options": []})
        if self.ws is None:
            await self.connect()
        return await self.alice.slash(self.channel, "ping")


def callback(handle: InteractionHandle) -> str:
    return f"/interactions/{handle.id}/{handle.token}/callback"


def webhook(handle: InteractionHandle) -> str:
    return f"/webhooks/{handle._double.application_id}/{handle.token}"


def code_of(body: Any) -> int | None:
    return body.get("code") if isinstance(body, dict) else None


def error_codes(body: Any) -> set[str]:
    """Every ``_errors[].code`` in a 50035 answer's nested ``errors``."""
    found: set[str] = set()
    stack = [body.get("errors", {})]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found |= {e["code"] for e in node.get("_errors", [])}
            stack += [v for k, v in node.items() if k != "_errors"]
    return found


@pytest.fixture
async def strict() -> AsyncIterator[Strict]:
    clock = ManualClock()
    double = DiscordDouble(clock=clock)
    await double.start()
    guild = double.add_guild("g")
    channel = guild.add_text_channel("c")
    alice = double.add_user("alice")
    guild.add_member(alice)
    async with aiohttp.ClientSession(base_url=double.api_base, headers=AUTH) as http:
        world = Strict(double, clock, http, channel, alice)
        try:
            yield world
        finally:
            if world.ws is not None:
                await world.ws.close()
            await double.stop()
