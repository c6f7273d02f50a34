"""The names a player is seated under, and whether a member holds the host's powers as a server manager."""

from __future__ import annotations

import discord


def user_names(user: discord.abc.User) -> list[str]:
    """The names a player goes by here, the one the server shows first (nickname, else display name: the name the
    table calls the seat by), then the user name and global display name (no duplicates)."""
    names = [user.display_name, user.name, getattr(user, "global_name", None), getattr(user, "nick", None)]
    return list(dict.fromkeys(n for n in names if n))


def is_manager(user: discord.abc.User) -> bool:
    """Whether ``user`` may manage the server (Manage Server): the host's powers are theirs too."""
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild
