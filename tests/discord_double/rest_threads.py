"""Threads: create one (in a channel, or from a message), its members (add, remove, list), and the checks Discord
makes to post in one, edit it, archive and lock it.

Permissions are Discord's, from the thread's parent channel (see :mod:`.permissions`): a private thread (type 12)
needs Create Private Threads in the channel, a public one Create Public Threads; adding a member needs Send
Messages in Threads (and, in a private thread, being in it or Manage Threads); removing one needs Manage Threads,
or having created the private thread; locking, or archiving a thread one did not create, needs Manage Threads;
posting needs Send Messages in Threads. Missing one is ``403 / 50013 Missing Permissions``; a private thread the bot
is not in, without Manage Threads, is ``403 / 50001 Missing Access``; an archived thread refuses a new member or a
locked one a message with ``400 / 50083``. Gateway: THREAD_CREATE and THREAD_UPDATE to the bot;
THREAD_MEMBERS_UPDATE under the Guild Members intent (the bot's own membership arrives as THREAD_MEMBER_UPDATE).

Sources: Discord developer docs, "Threads" topic and the Channel resource (Start Thread without Message, Add/Remove
Thread Member, List Thread Members, Modify Channel: thread); shapes from ``discord-api-spec``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_double._ids import iso_now
from tests.discord_double.faults import BODY, ApiError, json_response
from tests.discord_double.gateway import INTENT_MEMBERS
from tests.discord_double.model import PRIVATE_THREAD, PUBLIC_THREAD, Channel
from tests.discord_double.permissions import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    MISSING_ACCESS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    require,
)

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

ARCHIVED = 50083  # "Operation cannot be performed on an archived thread"
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
NO_CONTENT = 204


def register(router: web.UrlDispatcher, prefix: str, double: DiscordDouble) -> None:
    r = _ThreadRoutes(double)
    for method, path, handler in [
        ("POST", "/channels/{channel_id}/threads", r.create),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", r.create),
        ("GET", "/channels/{channel_id}/thread-members", r.members),
        ("GET", "/channels/{channel_id}/thread-members/{user_id}", r.member),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", r.add_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", r.remove_member),
    ]:
        router.add_route(method, prefix + path, handler)


def bot_sees(double: DiscordDouble, thread: Channel) -> None:
    """Raise 50001 unless the bot can see ``thread``: View Channel in the parent and, for a private thread,
    membership or Manage Threads."""
    guild = thread.guild
    assert guild is not None
    have = guild.members[double.bot_user.id].permissions(thread)
    if not have & VIEW_CHANNEL or (thread.type == PRIVATE_THREAD and double.bot_user.id not in thread.thread_members
                                   and not have & MANAGE_THREADS):
        raise ApiError(403, MISSING_ACCESS, "Missing Access")


def user_sees(channel: Channel, user_id: int) -> bool:
    """Whether the person ``user_id`` sees ``channel``: anyone may see a channel here, but a private thread only its
    members and those with Manage Threads (a scripted user cannot post in, or press a button in, a thread they
    cannot see)."""
    if channel.type != PRIVATE_THREAD or user_id in channel.thread_members:
        return True
    member = channel.guild.members.get(user_id) if channel.guild else None
    return member is not None and bool(member.permissions(channel) & MANAGE_THREADS)


def require_in_thread(double: DiscordDouble, thread: Channel, needed: int) -> None:
    """Raise Discord's refusal unless the bot sees ``thread`` and holds ``needed`` there."""
    bot_sees(double, thread)
    guild = thread.guild
    assert guild is not None
    require(guild, guild.members[double.bot_user.id], thread, needed)


def check_post(double: DiscordDouble, thread: Channel) -> None:
    """What Discord checks before the bot posts in ``thread``: it sees it, holds Send Messages in Threads, and the
    thread is not locked and archived (posting in an archived unlocked thread unarchives it)."""
    require_in_thread(double, thread, SEND_MESSAGES_IN_THREADS)
    if thread.archived and thread.locked:
        raise ApiError(400, ARCHIVED, "Thread is locked")
    if thread.archived:
        thread.archived = False
        thread_updated(double, thread)


def edit_thread(double: DiscordDouble, thread: Channel, body: dict[str, Any]) -> dict[str, Any]:
    """PATCH /channels/{thread}: ``name``, ``archived``, ``locked``, ``invitable``, ``auto_archive_duration``.
    Locking or unlocking, and any change to a thread the bot did not create, need Manage Threads; a locked thread
    is unarchived only with Manage Threads."""
    bot_id = double.bot_user.id
    bot_sees(double, thread)
    manager = thread.owner_id != bot_id or "locked" in body or (thread.locked and body.get("archived") is False)
    require_in_thread(double, thread, MANAGE_THREADS if manager else 0)
    if thread.archived and body.get("archived") is not False and set(body) - {"archived", "locked"}:
        raise ApiError(400, ARCHIVED, "Thread is archived")
    thread.name = body.get("name", thread.name)
    if "invitable" in body and thread.type == PRIVATE_THREAD:
        thread.invitable = bool(body["invitable"])
    if body.get("auto_archive_duration") in ARCHIVE_DURATIONS:
        thread.auto_archive_duration = int(body["auto_archive_duration"])
    if "locked" in body:
        thread.locked = bool(body["locked"])
    if "archived" in body and bool(body["archived"]) != thread.archived:
        thread.archived = bool(body["archived"])
        thread.archive_timestamp = iso_now()
    thread_updated(double, thread)
    return thread.payload()


def thread_updated(double: DiscordDouble, thread: Channel) -> None:
    assert thread.guild is not None
    double._dispatch_guild(thread.guild, "THREAD_UPDATE", thread.payload())


class _ThreadRoutes:
    def __init__(self, double: DiscordDouble) -> None:
        self.d = double

    def _thread(self, request: web.Request) -> Channel:
        channel = self.d.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if not channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _user_id(self, request: web.Request) -> int:
        raw = request.match_info["user_id"]
        return self.d.bot_user.id if raw == "@me" else int(raw)

    async def create(self, request: web.Request) -> web.Response:
        parent = self.d.channels.get(int(request.match_info["channel_id"]))
        if parent is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if parent.guild is None or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = request[BODY] or {}
        from_message = "message_id" in request.match_info
        kind = PUBLIC_THREAD if from_message else int(body.get("type") or PRIVATE_THREAD)
        guild = parent.guild
        require(guild, guild.members[self.d.bot_user.id], parent,
                CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS)
        thread = Channel(id=int(request.match_info["message_id"]) if from_message else self.d.ids.next(),
                         name=body.get("name", "thread"), type=kind, guild=guild, parent_id=parent.id,
                         owner_id=self.d.bot_user.id, invitable=body.get("invitable") is not False,
                         auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        thread.thread_members[self.d.bot_user.id] = iso_now()
        guild.channels[thread.id] = thread
        self.d.channels[thread.id] = thread
        self.d._dispatch_guild(guild, "THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return json_response(thread.payload(), status=201)

    async def members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        bot_sees(self.d, thread)
        return json_response([thread.thread_member_payload(u) for u in thread.thread_members])

    async def member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        bot_sees(self.d, thread)
        user_id = self._user_id(request)
        if user_id not in thread.thread_members:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(thread.thread_member_payload(user_id))

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._user_id(request)
        require_in_thread(self.d, thread, SEND_MESSAGES_IN_THREADS)
        assert thread.guild is not None
        if user_id not in thread.guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        if thread.archived:
            raise ApiError(400, ARCHIVED, "Thread is archived")
        if user_id not in thread.thread_members:
            thread.thread_members[user_id] = iso_now()
            self._members_changed(thread, added=[user_id])
        return web.Response(status=NO_CONTENT)

    async def remove_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user_id = self._user_id(request)
        creator = thread.type == PRIVATE_THREAD and thread.owner_id == self.d.bot_user.id
        require_in_thread(self.d, thread, 0 if creator or user_id == self.d.bot_user.id else MANAGE_THREADS)
        if thread.archived:
            raise ApiError(400, ARCHIVED, "Thread is archived")
        if thread.thread_members.pop(user_id, None) is not None:
            self._members_changed(thread, removed=[user_id])
        return web.Response(status=NO_CONTENT)

    def _members_changed(self, thread: Channel, *, added: Sequence[int] = (), removed: Sequence[int] = ()) -> None:
        assert thread.guild is not None
        data = {"id": str(thread.id), "guild_id": str(thread.guild.id),
                "member_count": min(len(thread.thread_members), 50),
                "added_members": [{**thread.thread_member_payload(u), "member":
                                   thread.guild.members[u].payload()} for u in added],
                "removed_member_ids": [str(u) for u in removed]}
        self.d._dispatch_guild(thread.guild, "THREAD_MEMBERS_UPDATE", data, intent=INTENT_MEMBERS)
