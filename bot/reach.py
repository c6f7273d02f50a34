"""Whether the bot can reach a server channel: Discord's word for one that is gone, and the permissions it needs
to post there (``/config medium`` and the social game's start refuse a medium it could not post in)."""

from __future__ import annotations

import discord

#: Discord's error code for a channel that does not exist (deleted)
UNKNOWN_CHANNEL = 10003
#: Discord's error codes for a server the bot is not in (``GET /guilds/{id}``: unknown, or no access to it)
UNKNOWN_GUILD = 10004
MISSING_ACCESS = 50001
#: what the bot needs in a channel to post a table or the medium's posts there (Discord's permission names)
POSTING = ("view_channel", "send_messages", "embed_links")


def cannot_post(channel: object) -> str | None:
    """The first permission of :data:`POSTING` the bot lacks in ``channel`` (a cached server channel; anything
    else, e.g. None for a channel the bot cannot see, lacks ``view_channel``), as Discord's settings name it ("Send
    Messages"); None when it can post there. Only the first: Discord withholds the later ones without it."""
    if not isinstance(channel, discord.abc.GuildChannel):
        return permission_name(POSTING[0])
    granted = channel.permissions_for(channel.guild.me)
    return next((permission_name(name) for name in POSTING if not getattr(granted, name)), None)


def permission_name(name: str) -> str:
    """A permission as Discord's settings name it: ``"embed_links"`` -> "Embed Links"."""
    return name.replace("_", " ").title()
