"""What the process says once it is up: one line about what started, and the invite URL.

The invite asks for exactly the permissions the README lists (View Channels, Read Message History, Send Messages,
Embed Links, Attach Files); Manage Roles is optional (``/config deadrole``) and added by :data:`WITH_MANAGE_ROLES`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

import discord

from bot.db.check import safe_url

if TYPE_CHECKING:
    from bot.app import Coroner

PERMISSIONS = discord.Permissions(view_channel=True, read_message_history=True, send_messages=True,
                                  embed_links=True, attach_files=True)
WITH_MANAGE_ROLES = PERMISSIONS | discord.Permissions(manage_roles=True)
SCOPES = ("bot", "applications.commands")


def coroner_version() -> str:
    """The installed package's version (``unknown`` when running from a bare checkout)."""
    try:
        return version("coroner")
    except PackageNotFoundError:
        return "unknown"


def invite_url(application_id: int, permissions: discord.Permissions = PERMISSIONS) -> str:
    """The OAuth2 URL that adds the bot to a server with ``permissions`` and both scopes."""
    return discord.utils.oauth_url(application_id, permissions=permissions, scopes=SCOPES)


def ready_line(bot: Coroner) -> str:
    """``coroner 0.1.0 ready as Name: database …, shards …, servers N, M commands synced …`` (no password)."""
    settings = bot.settings
    shards = ",".join(map(str, sorted(bot.shards))) or "0"
    total = bot.shard_count or 1
    if bot.synced_commands is None:
        synced = "commands not synced (SYNC_COMMANDS=false)"
    else:
        where = f"to server {settings.dev_guild_id}" if settings.dev_guild_id else "globally"
        synced = f"{bot.synced_commands} commands synced {where}"
    return (f"coroner {coroner_version()} ready as {bot.user}: database {safe_url(settings.database_url)}, "
            f"shards {shards} of {total}, servers {len(bot.guilds)}, {synced}")
