"""Who a message pings: Discord notifies the users, roles and @everyone/@here its ``content`` mentions, as far as
its ``allowed_mentions`` lets them (embeds and components never ping, nor does an edit).

Discord's rules (API reference, "Allowed Mentions Object"): without ``allowed_mentions`` every mention in the
content pings; with it, only the kinds named in ``parse`` ("users", "roles", "everyone") and the ids listed in
``users``/``roles``; ``replied_user`` (default false) says whether the author of the message replied to is pinged.
An author never pings themselves. A role pings only if it is mentionable ("Allow anyone to @mention this role") or
the author has Mention Everyone in the channel (which also lets it ping every role).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tests.discord_double.permissions import MENTION_EVERYONE, channel_permissions

if TYPE_CHECKING:
    from tests.discord_double.model import Channel, User

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(everyone|here)\b")


def pinged(channel: Channel, author: User, content: str, allowed: dict[str, Any] | None,
           replied_to: int | None = None) -> frozenset[int]:
    """The ids of the users a new message with ``content`` in ``channel`` notifies (``replied_to``: the author of
    the message it replies to, if any)."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
    users = {int(u) for u in (allowed or {}).get("users") or []}
    roles = {int(r) for r in (allowed or {}).get("roles") or []}
    out = {int(u) for u in USER.findall(content) if "users" in parse or int(u) in users}
    guild = channel.guild
    if guild is not None:
        author_member = guild.members.get(author.id)
        every_role = author_member is not None and bool(
            channel_permissions(guild, author_member, channel) & MENTION_EVERYONE)
        wanted = {int(r) for r in ROLE.findall(content) if ("roles" in parse or int(r) in roles)
                  and int(r) in guild.roles and (guild.roles[int(r)].mentionable or every_role)}
        out |= {m.user.id for m in guild.members.values() if wanted & set(m.role_ids)}
        if "everyone" in parse and EVERYONE.search(content):
            out |= set(guild.members)
    elif channel.recipient is not None and "everyone" in parse and EVERYONE.search(content):
        out.add(channel.recipient.id)
    if replied_to is not None and (allowed is None or allowed.get("replied_user", False)):
        out.add(replied_to)
    out.discard(author.id)
    return frozenset(out)
