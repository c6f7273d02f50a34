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
ALL = (1 << 53) - 1

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
    """Permissions of ``member`` in ``channel`` after applying its overwrites (Discord's documented order)."""
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
