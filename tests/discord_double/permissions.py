"""Permission bits and the computation Discord does from roles and channel overwrites.

Shapes: permissions are ints (bit flags); overwrites are Discord's dicts
``{"id": str, "type": 0 (role) | 1 (member), "allow": str, "deny": str}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.discord_double.model import Channel, Guild, Member

ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
MANAGE_ROLES = 1 << 28
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
#: what the bot needs for private threads of its own: create them, post and add members, archive and lock them
PRIVATE_THREADS = CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS | MANAGE_THREADS
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
ALL = (1 << 53) - 1

#: the README's minimal invite: View Channels, Send Messages, Embed Links, Attach Files, Read Message History
README_MINIMAL = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
assert README_MINIMAL == 117760

DEFAULT_EVERYONE = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 20)  # connect
    | (1 << 21)  # speak
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)


def base_permissions(guild: Guild, member: Member) -> int:
    """Guild-level permissions of ``member``: @everyone plus every role it has; owners and admins get all."""
    if member.user.id == guild.owner_id:
        return ALL
    perms = guild.everyone.permissions
    for role in guild.roles.values():
        if role.id in member.role_ids:
            perms |= role.permissions
    return ALL if perms & ADMINISTRATOR else perms


def channel_permissions(guild: Guild, member: Member, channel: Channel | None) -> int:
    """Permissions of ``member`` in ``channel`` after applying its overwrites (Discord's documented order); a
    thread has its parent channel's permissions (threads carry no overwrites of their own)."""
    if channel is not None and channel.is_thread and channel.parent_id in guild.channels:
        channel = guild.channels[channel.parent_id]
    perms = base_permissions(guild, member)
    if perms & ADMINISTRATOR or perms == ALL or channel is None:
        return perms
    overwrites = {int(o["id"]): o for o in channel.overwrites}
    everyone = overwrites.get(guild.id)
    if everyone:
        perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for role_id in member.role_ids:
        o = overwrites.get(role_id)
        if o and o.get("type", 0) == 0:
            allow |= int(o["allow"])
            deny |= int(o["deny"])
    perms = (perms & ~deny) | allow
    own = overwrites.get(member.user.id)
    if own and own.get("type", 1) == 1:
        perms = (perms & ~int(own["deny"])) | int(own["allow"])
    return perms


MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013


def require(guild: Guild | None, member: Member | None, channel: Channel | None, needed: int) -> None:
    """Raise Discord's 403 unless ``member`` holds every bit of ``needed`` in ``channel`` (or the guild).

    No View Channel (where a channel is involved) is ``50001 Missing Access``; any other missing bit is
    ``50013 Missing Permissions``. Nothing is checked outside guilds (DMs).
    """
    from tests.discord_double.faults import ApiError

    if guild is None or member is None:
        return
    have = channel_permissions(guild, member, channel)
    if channel is not None and not have & VIEW_CHANNEL:
        raise ApiError(403, MISSING_ACCESS, "Missing Access")
    if have & needed != needed:
        raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def require_role_below(guild: Guild, member: Member, role_position: int) -> None:
    """Raise 50013 unless ``member``'s highest role sits above ``role_position`` (Discord's role hierarchy)."""
    from tests.discord_double.faults import ApiError

    if base_permissions(guild, member) == ALL and member.user.id == guild.owner_id:
        return
    highest = max((r.position for r in guild.roles.values() if r.id in member.role_ids), default=0)
    if highest <= role_position:
        raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
