"""Members as the bot sees them, below every cog: the names a player is seated under, whether a member holds the
host's powers as a server manager, and who may read about a game (whoever can view the channel it was played in).

A game's history (every secret), its line in ``/history``'s list and autocomplete, a running game's line in
``/games`` and the per-role tallies of ``/stats`` are shown only to a member who can view its channel now, as
Discord computes it (``channel.permissions_for(member).view_channel``). A thread answers with its parent's
permissions, which is all of it for a public thread; a private thread is seen only by its members and by those who
may manage threads there (Manage Threads, or Administrator): Discord is asked whether the member is in it (one
request per private thread whose membership the cache does not show; an error counts as not). A game whose channel
is gone (deleted, or one Discord no longer shows the bot) is shown only to members with Manage Server: nobody can
be asked whether they could see it, and its players may have been a private few. A channel the cache does not hold
is asked for once (an archived thread: Discord sends only active ones, and discord.py forgets a thread when it is
archived, so a quiet thread's games would otherwise be hidden from its own players within a week); what Discord
answered is remembered for :data:`ASKED_FOR` (at most :data:`ASKED` channels), so the autocomplete does not ask at
every keystroke.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import discord
from cachetools import TTLCache

#: how long (s) what Discord answered about a channel the cache does not hold is remembered, and for how many
ASKED_FOR, ASKED = 300, 1_000
_asked: TTLCache[int, discord.abc.GuildChannel | discord.Thread | None] = TTLCache(ASKED, ASKED_FOR)


def user_names(user: discord.abc.User) -> list[str]:
    """The names a player goes by here, the one the server shows first (nickname, else display name: the name the
    table calls the seat by), then the user name and global display name (no duplicates)."""
    names = [user.display_name, user.name, getattr(user, "global_name", None), getattr(user, "nick", None)]
    return list(dict.fromkeys(n for n in names if n))


def is_manager(user: discord.abc.User) -> bool:
    """Whether ``user`` may manage the server (Manage Server): the host's powers are theirs too."""
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


async def can_view(user: discord.abc.User, guild: discord.Guild | None, channel_id: int) -> bool:
    """Whether ``user`` (the member asking in ``guild``) may read about a game of ``channel_id`` (see the module).
    ``guild`` is None when this process does not have the server: every channel counts as gone."""
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if channel is None and guild is not None:
        channel = await _asked_for(guild, channel_id)
    if channel is None or not isinstance(user, discord.Member):
        return is_manager(user)
    permissions = channel.permissions_for(user)
    if not permissions.view_channel:
        return False
    if not isinstance(channel, discord.Thread) or not channel.is_private() or permissions.manage_threads:
        return True
    return await _in_thread(channel, user.id)


async def viewable(user: discord.abc.User, guild: discord.Guild | None, channel_ids: Iterable[int]) -> set[int]:
    """The ones of ``channel_ids`` whose games ``user`` may read about (:func:`can_view`; private threads are asked
    about at once)."""
    channels = list(set(channel_ids))
    seen = await asyncio.gather(*(can_view(user, guild, c) for c in channels))
    return {c for c, yes in zip(channels, seen, strict=True) if yes}


async def _asked_for(guild: discord.Guild, channel_id: int) -> discord.abc.GuildChannel | discord.Thread | None:
    """``channel_id`` as Discord shows it to the bot (an archived thread, say), None when it is gone or hidden from
    the bot; remembered for a while (see the module)."""
    if channel_id in _asked:
        return _asked[channel_id]
    try:
        channel: discord.abc.GuildChannel | discord.Thread | None = await guild.fetch_channel(channel_id)
    except discord.HTTPException:
        channel = None
    if channel is not None and getattr(channel, "guild", guild).id != guild.id:
        channel = None  # (a channel of another server is not this one's game)
    _asked[channel_id] = channel
    return channel


async def _in_thread(thread: discord.Thread, user_id: int) -> bool:
    """Whether ``user_id`` is a member of the private ``thread``: a cached member at once, else as Discord answers
    (not found, or any failure to ask, is no; its owner may have left it)."""
    if any(m.id == user_id for m in thread.members):
        return True
    try:
        await thread.fetch_member(user_id)
    except discord.HTTPException:
        return False
    return True
