"""``DiscordDouble``: the aiohttp app (REST under /api/v10, gateway at /gateway) and the scripted test API."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.discord_double import rest_core, rest_interactions, rest_messages, rest_threads, schema
from tests.discord_double._ids import SnowflakeGen
from tests.discord_double.clock import real_clock
from tests.discord_double.faults import BODY, FILES, ApiError, Fault, discord_error
from tests.discord_double.gateway import Gateway
from tests.discord_double.interactions import Actions, InteractionHandle
from tests.discord_double.messages import StoredMessage
from tests.discord_double.model import DM, Channel, Guild, Member, Role, User
from tests.discord_double.permissions import DEFAULT_EVERYONE, README_MINIMAL
from tests.discord_double.ratelimits import INTERACTION_ROUTES, RateLimits

API_PREFIX = "/api/v10"
#: shaped like a bot token (the bot checks the shape offline before it connects); valid only here
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.ZG91Ymw.ZG91YmxlLXRva2VuLW5vdC1hLXJlYWwtb25l"
#: seconds Discord remembers a message nonce (``enforce_nonce``: "checked for uniqueness in the past few minutes"),
#: on the double's clock: a message sent again with the same nonce after that is a second message
NONCE_MEMORY = 5 * 60.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # Discord's upload limit in a server without boosts (bytes)
BOT_ROLE_POSITION = 100


def env_latency() -> float:
    """Seconds of latency per REST request from ``COR_DOUBLE_LATENCY_MS`` (0 when unset)."""
    return float(os.environ.get("COR_DOUBLE_LATENCY_MS") or 0) / 1000


class DoubleTimeout(AssertionError):
    """A condition the test waited for did not come true in time."""


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    status: int
    body: Any


class DiscordDouble:
    """A loopback Discord (REST v10 + JSON gateway) for the real discord.py client. See the package docstring."""

    def __init__(self, *, bot_name: str = "Coroner", interaction_timeout: float = 3.0,
                 spec_path: Any = schema.SPEC_PATH, clock: Callable[[], float] | None = None,
                 token: str = TOKEN, latency: float | None = None, bot_permissions: int = README_MINIMAL,
                 shard_count: int = 1) -> None:
        self.ids = SnowflakeGen()
        #: the shard count ``GET /gateway/bot`` recommends (events are routed by each session's own count)
        self.shard_count = shard_count
        self.interaction_timeout = interaction_timeout
        #: what deadlines are measured on (see .clock); the first answer is due within Discord's exact 3 s on either
        #: clock, unless a test asks for a margin by name (:meth:`allow_margin`)
        self.clock: Callable[[], float] = clock or real_clock
        self.initial_response_deadline = interaction_timeout
        self.followup_lifetime = 15 * 60.0
        self.nonce_memory = NONCE_MEMORY
        self.token = token
        self.latency = env_latency() if latency is None else latency  # seconds added to every REST request
        #: seconds a condition is waited for when the test names no timeout (:meth:`wait_for`); tests that inject
        #: latency raise it, since a few steps then take seconds
        self.wait_timeout = 5.0
        #: called while :meth:`wait_for` waits and nothing changed for a moment (e.g. to let the bot write what it
        #: holds for a short delay on an injected clock that the test does not move)
        self.idle: Callable[[], Awaitable[None]] | None = None
        self.rate_limits = RateLimits()
        self.check_request_schema = True  # off only in tests of the double's own limit checks
        #: the largest file Discord takes in an upload here (bytes; a server without boosts: 10 MiB), also told to
        #: the bot in every interaction (``attachment_size_limit``); a larger file is refused with 413 / 40005
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.reply_violations: list[schema.SchemaViolation] = []
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.bot_permissions = bot_permissions  # the bot role's permissions in guilds added from now on
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionHandle] = {}
        #: the tests of one bot may map an older ``slash(channel, command, options)`` call onto the commands that bot
        #: registers now: ``(command, options) -> (command, options)``, applied before the interaction is built
        self.slash_call_shape: Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]] | None = None
        self.requests: list[RequestRecord] = []
        self.unknown_requests: list[RequestRecord] = []
        self.schema_violations: list[schema.SchemaViolation] = []
        self.faults: list[Fault] = []
        self.delays: list[Fault] = []  # :meth:`delay_once`
        self.strict = True
        self.gateway = Gateway(self)
        self._actions = Actions(self)
        self._validator = schema.load_validator(spec_path)
        self.schema_check_skipped_reason: str | None = (
            None if self._validator else f"Discord OpenAPI spec not found at {spec_path}"
        )
        if self._validator is None and os.environ.get("CI", "").lower() == "true":
            raise RuntimeError(f"{self.schema_check_skipped_reason}: under CI the schema check cannot be skipped")
        self._tick = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -----------------------------------------------------------------------------------------------
    async def start(self) -> DiscordDouble:
        """Serve on 127.0.0.1 at a free port."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        for module in (rest_core, rest_messages, rest_threads, rest_interactions):
            module.register(app.router, API_PREFIX, self)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        if self.clock is real_clock:
            self.gateway._spawn(self.gateway.watch_heartbeats())
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordDouble:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- world building ------------------------------------------------------------------------------------------
    def add_user(self, username: str, *, display_name: str | None = None, bot: bool = False,
                 locale: str = "en-US") -> User:
        user = User(self, id=self.ids.next(), username=username, global_name=display_name, bot=bot, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, locale: str = "en-US", shard: int | None = None) -> Guild:
        """A guild with @everyone and the bot as a member (its role holds ``bot_permissions``); with ``shard``, its
        id puts it on that shard of :attr:`shard_count` (``(id >> 22) % shard_count == shard``). Raises
        ``ValueError`` for a shard outside the count."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(shard, self.shard_count)
        guild = Guild(self, id=gid, name=name, locale=locale, owner_id=self.ids.next())
        guild.roles[gid] = Role(id=gid, name="@everyone", permissions=DEFAULT_EVERYONE)
        # the bot's role sits above the roles tests add (as the README asks of a server that uses the dead role)
        bot_role = Role(id=self.ids.next(), name=self.bot_user.username, permissions=self.bot_permissions,
                        position=BOT_ROLE_POSITION, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(user=self.bot_user, guild=guild, role_ids=[bot_role.id])
        self.guilds[gid] = guild
        self.gateway.guild_created(guild)
        return guild

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use, as Discord does)."""
        if user.dm_channel_id is None:
            channel = Channel(id=self.ids.next(), name="", type=DM, recipient=user)
            self.channels[channel.id] = channel
            user.dm_channel_id = channel.id
        return self.channels[user.dm_channel_id]

    def close_dms(self, user: User, closed: bool = True) -> None:
        """Make the bot's messages to ``user``'s DMs fail with 403 / code 50007."""
        user.dms_closed = closed

    def fail_once(self, method: str, path_regex: str, *, status: int = 500, retry_after: float = 0.01,
                  times: int = 1) -> Fault:
        """Answer the next ``times`` matching REST requests with ``status`` (429 carries ``retry_after``)."""
        fault = Fault(method.upper(), path_regex, status, retry_after=retry_after, remaining=times)
        self.faults.append(fault)
        return fault

    def delay_once(self, method: str, path_regex: str, seconds: float, *, times: int = 1) -> Fault:
        """Hold the next ``times`` matching REST requests ``seconds`` of real time in the network before Discord
        handles them (a slow route for one answer while the others are fast); returns the :class:`Fault`, whose
        ``hits`` counts the requests it held."""
        fault = Fault(method.upper(), path_regex, 0, remaining=times, delay=seconds)
        self.delays.append(fault)
        return fault

    def drop_connection(self) -> int:
        """Close every live gateway socket (code 4000); the client reconnects and RESUMEs."""
        return self.gateway.drop_connections()

    # --- reading what happened -----------------------------------------------------------------------------------
    def messages(self, channel: Channel, *, include_deleted: bool = False,
                 include_ephemeral: bool = False) -> list[StoredMessage]:
        """Messages in ``channel``, oldest first (no deleted or ephemeral ones unless asked)."""
        return [m for m in channel.messages
                if (include_deleted or not m.deleted) and (include_ephemeral or not m.ephemeral)]

    def last_message(self, channel: Channel) -> StoredMessage:
        msgs = self.messages(channel)
        if not msgs:
            raise LookupError(f"no messages in channel {channel.name or channel.id}")
        return msgs[-1]

    def all_messages(self) -> list[StoredMessage]:
        return [m for c in self.channels.values() for m in c.messages]

    def message(self, message_id: int) -> StoredMessage | None:
        return next((m for m in self.all_messages() if m.id == message_id), None)

    def commands_registered(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The application commands the bot registered (globally, or for ``guild``), as Discord stores them."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def gateway_events(self, name: str | None = None) -> list[Any]:
        """Every event dispatched to any session (optionally only ``name``)."""
        return [d for s in self.gateway.sessions.values() for d in s.events(name)]

    def assert_clean(self) -> None:
        """Fail if the bot hit an unknown route or sent a body the OpenAPI spec rejects."""
        problems = [f"unknown route {r.method} {r.path}" for r in self.unknown_requests]
        problems += [f"schema violation {v}" for v in self.schema_violations + self.reply_violations]
        if problems:
            raise AssertionError("Discord double saw bad traffic:\n" + "\n".join(problems))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float | None = None,
                       what: str | None = None) -> Any:
        """Wait (on the double's change notifications, never a fixed sleep) until ``predicate()`` is truthy, at most
        ``timeout`` seconds (default :attr:`wait_timeout`)."""
        timeout = self.wait_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise DoubleTimeout(f"timed out after {timeout}s waiting for {what or predicate}")
            tick = self._tick
            try:
                await asyncio.wait_for(tick.wait(), timeout=min(remaining, 0.05))
            except TimeoutError:  # re-check: predicates may depend on state outside the double (the bot's cache)
                if self.idle is not None:
                    await self.idle()

    # --- internals -----------------------------------------------------------------------------------------------
    def _changed(self) -> None:
        self._tick.set()
        self._tick = asyncio.Event()

    def _dispatch_guild(self, guild: Guild, event: str, data: Any, intent: int | None = None) -> None:
        if guild.id in self.guilds:
            self.gateway.dispatch(event, data, guild_id=guild.id, intent=intent)

    async def _unknown(self, request: web.Request) -> web.Response:
        return discord_error(404, 0, "404: Not Found")

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Measure deadlines on ``clock`` (e.g. a :class:`~tests.discord_double.clock.ManualClock`) from now on,
        with Discord's exact 3 seconds (no margin)."""
        self.clock = clock
        self.initial_response_deadline = self.interaction_timeout

    def allow_margin(self, seconds: float) -> None:
        """Accept an interaction's first answer up to ``seconds`` past Discord's 3 s (Discord would refuse it): only
        for a test that names why it needs it; the default is Discord's exact deadline."""
        self.initial_response_deadline = self.interaction_timeout + seconds

    def set_bot_permissions(self, guild: Guild, permissions: int) -> None:
        """Give the bot's managed role in ``guild`` exactly ``permissions`` (dispatching GUILD_ROLE_UPDATE)."""
        role = next(r for r in guild.roles.values() if r.managed and r.name == self.bot_user.username)
        role.permissions = permissions
        self._dispatch_guild(guild, "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()})

    def set_bot_channel_permissions(self, channel: Channel, *, allow: int = 0, deny: int = 0) -> None:
        """Give the bot a member overwrite in ``channel`` (``allow``/``deny`` bits, as a server admin would), so its
        permissions there differ from the server's: Discord computes them from the overwrite (and a thread from its
        parent channel's). Dispatches CHANNEL_UPDATE."""
        assert channel.guild is not None and not channel.is_thread
        bot_id = str(self.bot_user.id)
        channel.overwrites = [o for o in channel.overwrites if o["id"] != bot_id] + [
            {"id": bot_id, "type": 1, "allow": str(allow), "deny": str(deny)}]
        self._dispatch_guild(channel.guild, "CHANNEL_UPDATE", channel.payload())

    def delete_channel(self, channel: Channel, *, dispatch: bool = True) -> None:
        """A server manager deletes ``channel``: it is gone (REST answers Unknown Channel) and, with ``dispatch``,
        the gateway says CHANNEL_DELETE (without: deleted while the bot was not connected)."""
        assert channel.guild is not None
        del self.channels[channel.id]
        del channel.guild.channels[channel.id]
        if dispatch:
            self._dispatch_guild(channel.guild, "CHANNEL_DELETE", channel.payload())

    def remove_bot(self, guild: Guild) -> None:
        """A server manager removes the bot from ``guild``: GUILD_DELETE (not unavailable), then the guild is gone
        for the bot (its REST answers Unknown Guild)."""
        self._dispatch_guild(guild, "GUILD_DELETE", {"id": str(guild.id)})
        del self.guilds[guild.id]
        for channel_id in list(guild.channels):
            self.channels.pop(channel_id, None)

    def thread_members(self, thread: Channel) -> set[int]:
        """The user ids in ``thread`` (the bot included)."""
        return set(thread.thread_members)

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The threads made in ``channel``, oldest first."""
        assert channel.guild is not None
        return [c for c in channel.guild.channels.values() if c.is_thread and c.parent_id == channel.id]

    def validate_payload(self, schema_name: str, data: Any, where: str) -> None:
        """Record a gateway payload of the double's that the spec's ``schema_name`` rejects."""
        if self._validator is not None:
            violation = self._validator.validate_object(schema_name, data, where)
            if violation is not None:
                self.reply_violations.append(violation)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):  # the gateway's websocket and attachment downloads
            if handler == self._unknown:
                self.unknown_requests.append(RequestRecord(request.method, request.path, 404, None))
            return await handler(request)
        path = request.path[len(API_PREFIX):]
        method = request.method
        if self.latency:
            await asyncio.sleep(self.latency)  # a realistic network delay, only when asked for
        held = next((f for f in self.delays if f.matches(method, path)), None)
        if held is not None:
            held.remaining -= 1
            held.hits += 1
            await asyncio.sleep(held.delay)
        body, files = await _parse_body(request)
        request[BODY], request[FILES] = body, files
        too_large = [f for f in files if len(f["data"]) > self.attachment_size_limit]
        if too_large:  # Discord answers before looking at the rest of the request
            response, headers = discord_error(413, 40005, "Request entity too large"), {}
        else:
            response, headers = await self._answer(request, handler, method, path, body)
        if isinstance(response, web.Response) and response.status < 300:
            response.headers.update(headers)
            self._check_reply(method, path, response)
        record = RequestRecord(method, path, response.status, body)
        self.requests.append(record)
        if handler == self._unknown:
            self.unknown_requests.append(record)
        self._changed()
        return response

    async def _answer(self, request: web.Request, handler: Callable[[web.Request], Any], method: str, path: str,
                      body: Any) -> tuple[web.StreamResponse, dict[str, str]]:
        if not INTERACTION_ROUTES.match(path) and request.headers.get("Authorization") != f"Bot {self.token}":
            return discord_error(401, 0, "401: Unauthorized"), {}
        limited, headers = self.rate_limits.check(method, path)
        if limited is not None:
            return limited, {}
        fault = next((f for f in self.faults if f.matches(method, path)), None)
        if fault is not None:
            return fault.response(), {}
        if body is not None and self._validator is not None and self.check_request_schema:
            violation = self._validator.validate(method, path, body)
            if violation is not None:
                self.schema_violations.append(violation)
                return discord_error(400, 50035, "Invalid Form Body", self._validator.error_tree(violation)), {}
        try:
            return await handler(request), headers
        except ApiError as exc:
            return exc.response, headers

    def _check_reply(self, method: str, path: str, response: web.Response) -> None:
        if self._validator is None or response.content_type != "application/json" or not response.body:
            return
        data = json.loads(response.body)  # type: ignore[arg-type]
        violation = self._validator.validate_response(method, path, response.status, data)
        if violation is not None:
            self.reply_violations.append(violation)


async def _parse_body(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
    """JSON body (or multipart ``payload_json``) and uploaded files ``[{"field", "filename", "data", ...}]``."""
    ctype = request.content_type
    if ctype == "application/json":
        raw = await request.read()
        return (json.loads(raw) if raw else None), []
    if ctype == "multipart/form-data":
        body: Any = None
        files: list[dict[str, Any]] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read(decode=False)  # type: ignore[union-attr]
                match = re.search(r"\[(\d+)\]", part.name or "")
                files.append({"field": part.name, "index": int(match.group(1)) if match else len(files),
                              "filename": part.filename, "data": bytes(data),  # type: ignore[union-attr]
                              "content_type": part.headers.get("Content-Type")})
        return body, files
    return None, []
