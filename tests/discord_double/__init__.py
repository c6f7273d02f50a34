"""A loopback Discord (REST v10 + JSON gateway on 127.0.0.1) for end-to-end tests with the real discord.py client.

Point discord.py at it (the ``double`` fixture does this and undoes it afterwards)::

    discord.http.Route.BASE = f"{double.api_base}/api/v10"                  # REST and webhook follow-ups
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(double.gateway_url)  # plain Client / Bot

``GET /api/v10/gateway/bot`` returns ``double.gateway_url`` (``ws://127.0.0.1:PORT/gateway``), so an
``AutoShardedBot`` without an explicit ``shard_count`` finds it by itself; READY's ``resume_gateway_url`` is the
same URL. Build bots with ``guild_ready_timeout`` small (e.g. 0.05) so ``on_ready`` comes quickly.

Shards: ``DiscordDouble(shard_count=N)`` (``GET /gateway/bot`` recommends N) serves any number of sessions at
once, from one client or several processes, each IDENTIFYing its ``shard: [id, count]``. A guild's events and
interactions go to shard ``(guild_id >> 22) % count``, DMs and DM interactions to shard 0, as Discord routes them;
``double.add_guild(name, shard=k)`` places a guild on shard k, ``handle.shard_id`` says where an interaction went,
``double.gateway.owners(guild_id)`` which sessions receive a guild's events.

Scripted API (all waiting is on conditions with a timeout, never a fixed sleep)::

    double = DiscordDouble(); await double.start()        # or the `double` fixture from .fixtures
    guild = double.add_guild("Test Server", locale="en-US")
    games = guild.add_text_channel("games")
    alice = double.add_user("alice", display_name="Alice", locale="en-US")
    guild.add_member(alice, nick=None, manage_guild=False)   # manage_guild/permissions -> a role of their own
    async with running_bot(bot):                           # from .fixtures: start, wait for on_ready, close
        r = await alice.slash(games, "newgame", game="potato")   # "config medium" for subcommands;
        resp = await r.response()                          # Response: type, content, embeds, components,
                                                           #   ephemeral, deferred, modal, choices, message
        msg = double.last_message(games)                   # StoredMessage: content, embeds, components,
        await (await bob.click(msg, "custom-id")).response()   #   attachments, flags, history, text, ...
        await bob.click(msg, label="Join"); await bob.select(msg, "pick", ["v"])
        m = await alice.submit_modal(r_that_opened_a_modal, {"field_custom_id": "text"})
        await alice.autocomplete(games, "newgame", "game", game="po")  # -> response().choices
        double.slash_call_shape = fn                       # (command, options) -> (command, options) before each
                                                           #   slash/autocomplete: maps an older call shape
        await alice.dm_bot("8 3 2 1"); await alice.say(games, "hello")
        alice.dms(); alice.ephemerals(); double.messages(games); double.commands_registered(guild=None)
        await double.wait_for(lambda: len(alice.dms()) == 2, timeout=5)
        double.close_dms(alice)                            # bot's DMs to alice -> 403 code 50007
        double.fail_once("POST", r"/channels/\\d+/messages$", status=429)  # or 500; returns a Fault (.hits)
        double.drop_connection()                           # client RESUMEs and gets missed events
        double.set_bot_channel_permissions(games, allow=..., deny=...)  # the bot's overwrite in one channel
        double.threads_of(games); double.thread_members(thread)   # private threads (see .rest_threads)
    double.schema_violations; double.schema_check_skipped_reason; double.unknown_requests; double.assert_clean()
    await double.stop()

Strict like Discord: a request is refused when Discord would refuse it, with Discord's status and code: a body the
OpenAPI spec rejects or over a limit (400/50035, see ``limits``), an edit that empties a message (50006), a callback
after Discord's exact 3-second deadline (10062; ``double.allow_margin(s)`` is the only way past it) or a follow-up after
15 minutes (50027), a missing permission (50001/50013; the
bot's role holds exactly the README's permissions unless ``bot_permissions=`` or ``double.set_bot_permissions(guild,
bits)`` says otherwise), a wrong token (401), a modal submit Discord's client would not send (a required text input
empty, a
text outside its ``min_length``/``max_length``: ``ModalRefused``), a rate limit (429 with Discord's headers;
``double.rate_limits.route("POST", r"/channels/\\d+/messages$", limit=5, per=5.0)``), a bad command name (50035, see
``commands``), a file over ``double.attachment_size_limit`` (10 MiB by default: 413/40005). Deadlines run on
``double.clock`` (``double.use_clock(ManualClock())`` to move time by hand, see ``clock``); ``latency=`` or
``COR_DOUBLE_LATENCY_MS`` delays every REST request. The gateway can be told ``double.gateway.request_reconnect()``,
``.invalidate(resumable=...)``, ``.close_with(code)``, ``.check_heartbeats()``; its replies and payloads are checked
against the spec too (``double.reply_violations``).

Interaction handles: ``handle.original`` (the response message, edits applied), ``handle.followups``,
``await handle.wait_followups(n)``, ``await handle.wait_original()`` (after a deferred "thinking" response).
"""

from __future__ import annotations

from tests.discord_double.faults import Fault
from tests.discord_double.interactions import InteractionHandle, Modal, ModalField, Response
from tests.discord_double.limits import ModalRefused
from tests.discord_double.messages import StoredAttachment, StoredMessage
from tests.discord_double.model import Channel, Guild, Member, Role, User
from tests.discord_double.schema import SchemaViolation
from tests.discord_double.server import DiscordDouble, DoubleTimeout

__all__ = [
    "Channel", "DiscordDouble", "DoubleTimeout", "Fault", "Guild", "InteractionHandle", "Member", "Modal",
    "ModalField", "ModalRefused", "Response", "Role", "SchemaViolation", "StoredAttachment", "StoredMessage", "User",
]
