"""The gateway half of the double: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatch.

Every dispatched frame is kept on its session, so a client that reconnects with RESUME gets what it missed
(followed by RESUMED), as Discord does. Frames are JSON text; the ``compress`` query parameter is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.discord_double.model import Guild
    from tests.discord_double.server import DiscordDouble

HELLO_INTERVAL_MS = 41250
INTENT_GUILDS, INTENT_MEMBERS, INTENT_PRESENCES = 1 << 0, 1 << 1, 1 << 8
INTENT_GUILD_MESSAGES, INTENT_DM_MESSAGES, INTENT_MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
PRIVILEGED = INTENT_MEMBERS | INTENT_PRESENCES | INTENT_MESSAGE_CONTENT


@dataclass(eq=False)
class GatewaySession:
    """One identified session (one shard of one bot instance)."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    token: str
    frames: list[dict[str, Any]] = field(default_factory=list, repr=False)
    ws: web.WebSocketResponse | None = field(default=None, repr=False)
    live: bool = True
    resumes: int = 0
    _new_frame: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def push(self, event: str, data: Any) -> None:
        frame = {"op": 0, "t": event, "s": len(self.frames) + 1, "d": data}
        self.frames.append(frame)
        self._new_frame.set()

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        """The ``d`` of every dispatched event (of type ``name``), in order."""
        return [f["d"] for f in self.frames if name is None or f["t"] == name]

    async def pump(self, ws: web.WebSocketResponse, start: int) -> None:
        """Send frames[start:] and then every new frame over ``ws`` until it closes."""
        idx = start
        while not ws.closed:
            while idx < len(self.frames) and not ws.closed:
                try:
                    await ws.send_str(json.dumps(self.frames[idx]))
                except (ConnectionError, RuntimeError):
                    return  # the client resumes from the last sequence it saw
                idx += 1
            self._new_frame.clear()
            if idx >= len(self.frames):
                await self._new_frame.wait()


class Gateway:
    """Owns the sessions; ``dispatch`` routes an event to the shard that owns the guild (DMs go to shard 0)."""

    def __init__(self, double: DiscordDouble) -> None:
        self._double = double
        self.sessions: dict[str, GatewaySession] = {}
        self.connections = 0
        self.identifies = 0
        self.allow_privileged = True
        self._tasks: set[asyncio.Task[Any]] = set()

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def connected(self) -> list[GatewaySession]:
        return [s for s in self.live_sessions() if s.ws is not None and not s.ws.closed]

    def dispatch(self, event: str, data: Any, *, guild_id: int | None = None, intent: int | None = None,
                 needs_content_intent: bool = False) -> None:
        """Send ``event`` to the live session of the owning shard if it asked for ``intent``.

        With ``needs_content_intent`` a session without MESSAGE_CONTENT gets content, embeds, attachments and
        components emptied, as Discord does for other users' guild messages that do not mention the bot.
        """
        for s in self.live_sessions():
            shard = (guild_id >> 22) % s.shard_count if guild_id else 0
            if shard == s.shard_id and (intent is None or s.intents & intent):
                sent = data
                if needs_content_intent and not s.intents & INTENT_MESSAGE_CONTENT:
                    sent = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
                s.push(event, sent)
        self._double._changed()

    def guild_created(self, guild: Guild) -> None:
        """Send GUILD_CREATE for a guild the bot just joined to the shard that owns it."""
        for s in self.live_sessions():
            if (guild.id >> 22) % s.shard_count == s.shard_id:
                s.push("GUILD_CREATE", self._guild_create(s, guild))
        self._double._changed()

    def _guild_create(self, session: GatewaySession, guild: Guild) -> dict[str, Any]:
        data = guild.payload()
        if not session.intents & INTENT_MEMBERS:  # Discord then sends only the bot's own member
            data["members"] = [m for m in data["members"] if m["user"]["id"] == str(self._double.bot_user.id)]
        return data

    def drop_connections(self) -> int:
        """Close every live socket with code 4000 (the client will RESUME). Returns how many were closed."""
        dropped = 0
        for s in self.connected():
            assert s.ws is not None
            self._spawn(s.ws.close(code=4000, message=b"dropped by test"))
            dropped += 1
        return dropped

    async def close_all(self) -> None:
        for s in self.sessions.values():
            s.live = False
            if s.ws is not None and not s.ws.closed:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(s.ws.close(code=1001), timeout=1)
        for t in list(self._tasks):
            t.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=2.0, compress=False, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HELLO_INTERVAL_MS}, "s": None,
                                      "t": None}))
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, d = payload.get("op"), payload.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    session = await self._identify(ws, d)
                elif op == 6:
                    session = await self._resume(ws, d)
                elif op == 8 and session is not None:
                    self._request_members(session, d)
                self._double._changed()
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
            self._double._changed()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED and not self.allow_privileged:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard_id, shard_count = d.get("shard") or [0, 1]
        for old in self.sessions.values():
            if old.shard_id == shard_id:
                old.live = False
        session = GatewaySession(session_id=uuid.uuid4().hex, shard_id=shard_id, shard_count=shard_count,
                                 intents=intents, token=d.get("token", ""), ws=ws)
        self.sessions[session.session_id] = session
        self.identifies += 1
        double = self._double
        guilds = [g for g in double.guilds.values() if (g.id >> 22) % shard_count == shard_id]
        session.push("READY", {
            "v": 10, "user": double.bot_user.payload(), "guilds": [{"id": str(g.id), "unavailable": True}
                                                                  for g in guilds],
            "session_id": session.session_id, "session_type": "normal",
            "resume_gateway_url": double.gateway_url, "shard": [shard_id, shard_count],
            "application": {"id": str(double.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "user_settings": {}, "_trace": ["double"],
        })
        for g in guilds:
            session.push("GUILD_CREATE", self._guild_create(session, g))
        self._spawn(session.pump(ws, 0))
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or not session.live:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        seq = d.get("seq") or 0
        session.ws = ws
        session.resumes += 1
        session.push("RESUMED", {"_trace": ["double"]})
        self._spawn(session.pump(ws, seq))
        return session

    def _request_members(self, session: GatewaySession, d: dict[str, Any]) -> None:
        guild = self._double.guilds.get(int(d["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        query = (d.get("query") or "").lower()
        members = [m for m in guild.members.values()
                   if (not wanted or m.user.id in wanted) and m.user.username.lower().startswith(query)]
        chunk: dict[str, Any] = {"guild_id": str(guild.id), "members": [m.payload() for m in members],
                                 "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        session.push("GUILD_MEMBERS_CHUNK", chunk)
