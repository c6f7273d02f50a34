"""Members as the bot sees them, below every cog: the names a player is seated under, whether a member holds the
host's powers as a server manager, and who may read about a game (whoever can view the channel it was played in).

A game's history (every secret), its line in ``/history``'s list and autocomplete, a running game's line in
``/games`` and the per-role tallies of ``/stats`` are shown only to a member who can view its channel now, as
Discord computes it (``channel.permissions_for(member).view_channel``; a thread answers with its parent's
permissions). A game whose channel is gone (deleted, or a thread this process no longer has) is shown only to
members with Manage Server: nobody can be asked whether they could see it, and its players may have been a private
few.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord


def user_names(user: discord.abc.User) -> list[str]:
    """The names a player goes by here, the one the server shows first (nickname, else display name: the name the
    table calls the seat by), then the user name and global display name (no duplicates)."""
    names = [user.display_name, user.name, getattr(user, "global_name", None), getattr(user, "nick", None)]
    return list(dict.fromkeys(n for n in names if n))


def is_manager(user: discord.abc.User) -> bool:
    """Whether ``user`` may manage the server (Manage Server): the host's powers are theirs too."""
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


def can_view(user: discord.abc.User, guild: discord.Guild | None, channel_id: int) -> bool:
    """Whether ``user`` (the member asking in ``guild``) may read about a game of ``channel_id`` (see the module).
    ``guild`` is None when this process does not have the server: every channel counts as gone."""
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if channel is None or not isinstance(user, discord.Member):
        return is_manager(user)
    return channel.permissions_for(user).view_channel


def viewable(user: discord.abc.User, guild: discord.Guild | None, channel_ids: Iterable[int]) -> set[int]:
    """The ones of ``channel_ids`` whose games ``user`` may read about (:func:`can_view`)."""
    return {c for c in set(channel_ids) if can_view(user, guild, c)}
