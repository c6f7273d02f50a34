"""The gateway half of the double: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatch.

Every dispatched frame is kept on its session, so a client that reconnects with RESUME gets what it missed
(followed by RESUMED), as Discord does. Frames are JSON text; the ``compress`` query parameter is ignored.

Strict like Discord: a bad token closes with 4004, and so do the other close codes (4001 unknown opcode, 4002
decode error, 4003 not authenticated, 4005 already authenticated, 4007 invalid seq, 4009 heartbeat timeout,
4010 invalid shard, 4012 invalid API version, 4013 invalid intents, 4014 disallowed intents). Tests can send
RECONNECT (:meth:`Gateway.request_reconnect`), INVALID_SESSION resumable or not (:meth:`Gateway.invalidate`) and
close with any code (:meth:`Gateway.close_with`). Heartbeats are timed on the double's clock: a connection silent
for 1.5 heartbeat intervals is closed with 4009 by :meth:`Gateway.check_heartbeats` (run every quarter interval
when the double runs on the real clock; call it after moving a :class:`~tests.discord_double.clock.ManualClock`).

Source: Discord developer docs, "Gateway" and "Opcodes and Status Codes".
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
ALL_INTENTS = (1 << 26) - 1
HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION = 1, 2, 3, 4, 6, 7, 8, 9
CLIENT_OPS = {HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, REQUEST_MEMBERS}
#: gateway events whose ``d`` must be the spec's object of that name
PAYLOAD_SCHEMAS = {"MESSAGE_CREATE": "MessageResponse", "MESSAGE_UPDATE": "MessageResponse",
                   "CHANNEL_CREATE": "GuildChannelResponse", "CHANNEL_UPDATE": "GuildChannelResponse"}
CLOSE_REASONS = {
    4000: "Unknown error.", 4001: "Unknown opcode.", 4002: "Decode error.", 4003: "Not authenticated.",
    4004: "Authentication failed.", 4005: "Already authenticated.", 4007: "Invalid seq.", 4008: "Rate limited.",
    4009: "Session timed out.", 4010: "Invalid shard.", 4011: "Sharding required.", 4012: "Invalid API version.",
    4013: "Invalid intent(s).", 4014: "Disallowed intent(s).",
}


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``; DMs (``None``) go to shard 0.

    Source: Discord developer docs, "Gateway", Sharding ("Sharding Formula")."""
    return (guild_id >> 22) % shard_count if guild_id else 0


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
        self.heartbeat_interval_ms = HELLO_INTERVAL_MS
        self.close_codes: list[int] = []  # every close code the double sent, in order
        self._last_beat: dict[web.WebSocketResponse, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def connected(self) -> list[GatewaySession]:
        return [s for s in self.live_sessions() if s.ws is not None and not s.ws.closed]

    def owners(self, guild_id: int | None) -> list[GatewaySession]:
        """The live sessions that receive events of ``guild_id`` (``None``: a DM), by Discord's routing: a guild
        belongs to shard ``(guild_id >> 22) % shard_count`` of each session's own shard count, DMs to shard 0."""
        return [s for s in self.live_sessions() if shard_of(guild_id, s.shard_count) == s.shard_id]

    def dispatch(self, event: str, data: Any, *, guild_id: int | None = None, intent: int | None = None,
                 needs_content_intent: bool = False) -> list[GatewaySession]:
        """Send ``event`` to the live session of the owning shard (:meth:`owners`) if it asked for ``intent``;
        returns the sessions it was sent to (none when the owning shard has no session: the event is lost, as
        on Discord when no bot holds that shard).

        With ``needs_content_intent`` a session without MESSAGE_CONTENT gets content, embeds, attachments and
        components emptied, as Discord does for other users' guild messages that do not mention the bot.
        """
        schema = PAYLOAD_SCHEMAS.get(event)
        if schema:
            self._double.validate_payload(schema, data, event)
        reached = [s for s in self.owners(guild_id) if intent is None or s.intents & intent]
        for s in reached:
            sent = data
            if needs_content_intent and not s.intents & INTENT_MESSAGE_CONTENT:
                sent = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
            s.push(event, sent)
        self._double._changed()
        return reached

    def guild_created(self, guild: Guild) -> None:
        """Send GUILD_CREATE for a guild the bot just joined to the shard that owns it."""
        for s in self.owners(guild.id):
            s.push("GUILD_CREATE", self._guild_create(s, guild))
        self._double._changed()

    def _guild_create(self, session: GatewaySession, guild: Guild) -> dict[str, Any]:
        data = guild.payload()
        if not session.intents & INTENT_MEMBERS:  # Discord then sends only the bot's own member
            data["members"] = [m for m in data["members"] if m["user"]["id"] == str(self._double.bot_user.id)]
        return data

    def drop_connections(self) -> int:
        """Close every live socket with code 4000 (the client will RESUME). Returns how many were closed."""
        return self.close_with(4000)

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

    # --- what tests make the gateway do ---------------------------------------------------------------------------
    def request_reconnect(self) -> int:
        """Send RECONNECT (op 7) on every live connection: the client closes and RESUMEs. Returns how many."""
        return self._send_all({"op": RECONNECT, "d": None, "s": None, "t": None})

    def invalidate(self, *, resumable: bool) -> int:
        """Send INVALID_SESSION (op 9, ``d = resumable``); a session that is not resumable is forgotten, so the
        client must IDENTIFY again. Returns how many connections got it."""
        sent = self._send_all({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})
        if not resumable:
            for s in self.live_sessions():
                s.live = False
        return sent

    def close_with(self, code: int) -> int:
        """Close every live connection with ``code`` (e.g. 4000 to make the client resume). Returns how many."""
        closing = self.connected()
        for s in closing:
            assert s.ws is not None
            self._spawn(self._close(s.ws, code))
        return len(closing)

    def check_heartbeats(self) -> int:
        """Close (4009) every connection that has not heartbeaten for 1.5 intervals on the double's clock."""
        limit = self.heartbeat_interval_ms / 1000 * 1.5
        now = self._double.clock()
        stale = [ws for ws, beat in self._last_beat.items() if not ws.closed and now - beat > limit]
        for ws in stale:
            for s in self.sessions.values():
                if s.ws is ws:
                    s.live = False  # Discord: "reconnect and start a new one"
            self._spawn(self._close(ws, 4009))
        return len(stale)

    async def watch_heartbeats(self) -> None:
        """Run :meth:`check_heartbeats` every quarter interval (real time), for the double on the real clock."""
        while True:
            await asyncio.sleep(self.heartbeat_interval_ms / 4000)
            self.check_heartbeats()

    def _send_all(self, frame: dict[str, Any]) -> int:
        sessions = self.connected()
        for s in sessions:
            assert s.ws is not None
            self._spawn(s.ws.send_str(json.dumps(frame)))
        return len(sessions)

    async def _close(self, ws: web.WebSocketResponse, code: int) -> None:
        self.close_codes.append(code)
        self._last_beat.pop(ws, None)
        with contextlib.suppress(Exception):
            await ws.close(code=code, message=CLOSE_REASONS.get(code, "closed").encode())

    # --- the socket ------------------------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(timeout=2.0, compress=False, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        if request.query.get("v", "10") != "10":
            await self._close(ws, 4012)
            return ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None,
                                      "t": None}))
        self._last_beat[ws] = self._double.clock()
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                try:
                    payload = json.loads(msg.data)
                    op, d = payload.get("op"), payload.get("d")
                except (ValueError, AttributeError):
                    await self._close(ws, 4002)
                    break
                code = self._refusal(op, session)
                if code:
                    await self._close(ws, code)
                    break
                if op == HEARTBEAT:
                    self._last_beat[ws] = self._double.clock()
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == IDENTIFY:
                    session = await self._identify(ws, d)
                elif op == RESUME:
                    session = await self._resume(ws, d)
                elif op == REQUEST_MEMBERS and session is not None:
                    self._request_members(session, d)
                self._double._changed()
        finally:
            self._last_beat.pop(ws, None)
            if session is not None and session.ws is ws:
                session.ws = None
            self._double._changed()
        return ws

    @staticmethod
    def _refusal(op: Any, session: GatewaySession | None) -> int | None:
        """The close code for a frame Discord refuses before looking at its data."""
        if op not in CLIENT_OPS:
            return 4001
        if op in (PRESENCE, VOICE, REQUEST_MEMBERS) and session is None:
            return 4003
        if op == IDENTIFY and session is not None:
            return 4005
        return None

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        intents = int(d.get("intents", 0))
        shard_id, shard_count = d.get("shard") or [0, 1]
        code = (4004 if d.get("token") != self._double.token else
                4013 if intents & ~ALL_INTENTS or intents < 0 else
                4014 if intents & PRIVILEGED and not self.allow_privileged else
                4010 if not 0 <= shard_id < shard_count else None)
        if code:
            await self._close(ws, code)
            return None
        for old in self.sessions.values():
            if old.shard_id == shard_id:
                old.live = False
        session = GatewaySession(session_id=uuid.uuid4().hex, shard_id=shard_id, shard_count=shard_count,
                                 intents=intents, token=d.get("token", ""), ws=ws)
        self.sessions[session.session_id] = session
        self.identifies += 1
        double = self._double
        guilds = [g for g in double.guilds.values() if shard_of(g.id, shard_count) == shard_id]
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
        if d.get("token") != self._double.token:
            await self._close(ws, 4004)
            return None
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or not session.live:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        seq = d.get("seq") or 0
        if seq > len(session.frames):
            await self._close(ws, 4007)
            return None
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
