"""Channel messages (create with JSON or multipart files, edit, delete, fetch), typing, attachments (threads:
:mod:`.rest_threads`).

``create_message`` and ``edit_message`` are shared with the interaction/webhook routes: they enforce the checks
Discord makes (empty message, 2000-character content, 10 embeds, closed DMs) and dispatch the gateway events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_double._ids import iso_now
from tests.discord_double.faults import BODY, FILES, ApiError, json_response
from tests.discord_double.gateway import INTENT_DM_MESSAGES, INTENT_GUILD_MESSAGES
from tests.discord_double.limits import check_message
from tests.discord_double.mentions import pinged
from tests.discord_double.messages import EPHEMERAL, LOADING, StoredAttachment, StoredMessage, numbered
from tests.discord_double.model import DM, Channel, User
from tests.discord_double.permissions import ATTACH_FILES, MANAGE_MESSAGES, READ_MESSAGE_HISTORY, SEND_MESSAGES, require
from tests.discord_double.rest_threads import check_post

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

EDITABLE_FLAGS = 1 << 2  # SUPPRESS_EMBEDS
SENDABLE_FLAGS = EDITABLE_FLAGS | EPHEMERAL | (1 << 12) | (1 << 15)  # + SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2


def register(router: web.UrlDispatcher, prefix: str, double: DiscordDouble) -> None:
    r = _MessageRoutes(double)
    for method, path, handler in [
        ("POST", "/channels/{channel_id}/messages", r.create),
        ("GET", "/channels/{channel_id}/messages", r.history),
        ("GET", "/channels/{channel_id}/messages/{message_id}", r.get),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", r.edit),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", r.delete),
        ("POST", "/channels/{channel_id}/typing", r.typing),
    ]:
        router.add_route(method, prefix + path, handler)
    router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", r.attachment)


def message_event(msg: StoredMessage, double: DiscordDouble) -> dict[str, Any]:
    """The MESSAGE_CREATE/UPDATE payload: the message plus ``member`` for guild messages."""
    data = msg.payload()
    guild = double.guilds.get(msg.guild_id) if msg.guild_id else None
    if guild is not None and msg.author.id in guild.members:
        data["member"] = guild.members[msg.author.id].payload(with_user=False)
    return data


def dispatch_message(double: DiscordDouble, msg: StoredMessage, event: str) -> None:
    """Dispatch MESSAGE_CREATE/MESSAGE_UPDATE for a non-ephemeral message with the intent it needs."""
    if msg.ephemeral:
        return
    intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DM_MESSAGES
    redact = msg.guild_id is not None and not msg.author.bot and double.bot_user.mention not in msg.content
    double.gateway.dispatch(event, message_event(msg, double), guild_id=msg.guild_id, intent=intent,
                            needs_content_intent=redact)


def _attachments(double: DiscordDouble, channel: Channel, body: dict[str, Any],
                 files: list[dict[str, Any]]) -> list[StoredAttachment]:
    meta = {str(a.get("id")): a for a in body.get("attachments") or []}
    out = []
    for f in files:
        info = meta.get(str(f["index"]), {})
        aid = double.ids.next()
        name = info.get("filename") or f["filename"] or f"file{f['index']}"
        out.append(StoredAttachment(id=aid, filename=name, data=f["data"], content_type=f["content_type"],
                                    url=f"{double.api_base}/attachments/{channel.id}/{aid}/{name}",
                                    description=info.get("description")))
    return out


def _check_body(body: dict[str, Any], has_files: bool, *, creating: bool) -> None:
    check_message(body)
    if creating and not (body.get("content") or body.get("embeds") or body.get("components") or has_files
                         or body.get("sticker_ids") or body.get("poll")):
        raise ApiError(400, 50006, "Cannot send an empty message")


def _empty_after_edit(msg: StoredMessage, body: dict[str, Any], files: list[dict[str, Any]]) -> bool:
    """Whether applying ``body`` to ``msg`` would leave no content, embeds, components or attachments."""
    def after(key: str, now: Any) -> Any:
        return body[key] if key in body else now

    keep = {str(a.get("id")) for a in body["attachments"] or []} if "attachments" in body else None
    attachments = [a for a in msg.attachments if keep is None or str(a.id) in keep]
    return not (after("content", msg.content) or after("embeds", msg.embeds) or after("components", msg.components)
                or attachments or files)


def create_message(double: DiscordDouble, channel: Channel, author: User, body: dict[str, Any] | None,
                   files: list[dict[str, Any]], *, visible_to: int | None = None, webhook_id: int | None = None,
                   interaction: dict[str, Any] | None = None, loading: bool = False) -> StoredMessage:
    """Store a new message from ``author`` in ``channel`` and dispatch MESSAGE_CREATE (unless ephemeral)."""
    body = body or {}
    if not loading:
        _check_body(body, bool(files), creating=True)
    recipient = channel.recipient
    if channel.type == DM and webhook_id is None and author.bot and recipient is not None and recipient.dms_closed:
        raise ApiError(403, 50007, "Cannot send messages to this user")
    flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
    if loading:
        flags |= LOADING
    msg = StoredMessage(
        id=double.ids.next(), channel_id=channel.id, guild_id=channel.guild.id if channel.guild else None,
        author=author, content=body.get("content") or "", embeds=list(body.get("embeds") or []),
        components=numbered(body.get("components") or []), attachments=_attachments(double, channel, body, files),
        flags=flags, allowed_mentions=body.get("allowed_mentions"), message_reference=body.get("message_reference"),
        tts=bool(body.get("tts")), webhook_id=webhook_id, interaction_meta=interaction,
        interaction_id=int(interaction["id"]) if interaction else None,
        visible_to=visible_to if flags & EPHEMERAL else None,
    )
    reply = (body.get("message_reference") or {}).get("message_id")
    replied = double.message(int(reply)) if reply else None
    pings = pinged(channel, author, msg.content, msg.allowed_mentions, replied.author.id if replied else None)
    msg.pings = pings & {visible_to} if msg.ephemeral else pings  # an ephemeral message reaches only its user
    channel.messages.append(msg)
    dispatch_message(double, msg, "MESSAGE_CREATE")
    return msg


def edit_message(double: DiscordDouble, msg: StoredMessage, body: dict[str, Any] | None,
                 files: list[dict[str, Any]]) -> StoredMessage:
    """Apply an edit in place (keeping the previous version in ``history``) and dispatch MESSAGE_UPDATE."""
    body = body or {}
    _check_body(body, bool(files), creating=False)
    if _empty_after_edit(msg, body, files):
        raise ApiError(400, 50006, "Cannot send an empty message")
    msg.history.append(msg.snapshot())
    for key in ("content", "embeds", "components", "allowed_mentions"):
        if key in body:
            setattr(msg, key, body[key] if body[key] is not None else ("" if key == "content" else []))
    msg.components = numbered(msg.components)
    if body.get("flags") is not None:
        msg.flags = (msg.flags & ~EDITABLE_FLAGS) | (int(body["flags"]) & EDITABLE_FLAGS)
    msg.flags &= ~LOADING
    channel = double.channels[msg.channel_id]
    if "attachments" in body:
        keep = {str(a.get("id")) for a in body["attachments"] or []}
        msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
    msg.attachments += _attachments(double, channel, body, files)
    msg.edited_timestamp = iso_now()
    dispatch_message(double, msg, "MESSAGE_UPDATE")
    return msg


class _MessageRoutes:
    def __init__(self, double: DiscordDouble) -> None:
        self.d = double

    def _channel(self, request: web.Request) -> Channel:
        channel = self.d.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, request: web.Request) -> StoredMessage:
        channel = self._channel(request)
        mid = int(request.match_info["message_id"])
        msg = next((m for m in channel.messages if m.id == mid and not m.deleted and not m.ephemeral), None)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _require(self, channel: Channel, needed: int) -> None:
        guild = channel.guild
        require(guild, guild.members.get(self.d.bot_user.id) if guild else None, channel, needed)

    async def create(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_thread:  # Send Messages in Threads, not Send Messages; not in a locked, archived thread
            check_post(self.d, channel)
        self._require(channel, (0 if channel.is_thread else SEND_MESSAGES) | (ATTACH_FILES if request[FILES] else 0))
        body = request[BODY] or {}
        nonce = body.get("nonce")
        now = self.d.clock()
        if nonce is not None and body.get("enforce_nonce"):  # Discord returns the message this nonce created...
            same = next((m for m in channel.messages if m.nonce == str(nonce) and m.author.id == self.d.bot_user.id
                         and not m.deleted and m.nonce_at is not None  # ...within the last few minutes only
                         and now - m.nonce_at < self.d.nonce_memory), None)
            if same is not None:
                return json_response(same.payload())
        msg = create_message(self.d, channel, self.d.bot_user, request[BODY], request[FILES])
        msg.nonce, msg.nonce_at = (None, None) if nonce is None else (str(nonce), now)
        return json_response(msg.payload())

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, 0)
        msgs = [m for m in self.d.messages(channel)] if self._can_read_history(channel) else []
        before, after = int(request.query.get("before", 0)), int(request.query.get("after", 0))
        msgs = [m for m in msgs if (not before or m.id < before) and m.id > after]
        limit = int(request.query.get("limit", 50))
        picked = msgs[:limit] if after else msgs[-limit:]
        return json_response([m.payload() for m in reversed(picked)])

    def _can_read_history(self, channel: Channel) -> bool:
        guild = channel.guild
        member = guild.members.get(self.d.bot_user.id) if guild else None
        return member is None or bool(member.permissions(channel) & READ_MESSAGE_HISTORY)

    async def get(self, request: web.Request) -> web.Response:
        self._require(self._channel(request), READ_MESSAGE_HISTORY)
        return json_response(self._message(request).payload())

    async def edit(self, request: web.Request) -> web.Response:
        self._require(self._channel(request), 0)
        msg = self._message(request)
        if msg.author.id != self.d.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        return json_response(edit_message(self.d, msg, request[BODY], request[FILES]).payload())

    async def delete(self, request: web.Request) -> web.Response:
        msg = self._message(request)
        self._require(self._channel(request), 0 if msg.author.id == self.d.bot_user.id else MANAGE_MESSAGES)
        msg.deleted = True
        data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DM_MESSAGES
        self.d.gateway.dispatch("MESSAGE_DELETE", data, guild_id=msg.guild_id, intent=intent)
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["attachment_id"])
        for msg in self._channel(request).messages:
            for a in msg.attachments:
                if a.id == aid:
                    return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
        raise ApiError(404, 0, "404: Not Found")
