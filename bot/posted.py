"""Finding a message the bot posted in a channel by the controls it carries, when its id was never recorded (a
lobby posted just before a crash): one read of the channel's history."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

log = logging.getLogger(__name__)


def custom_ids(message: discord.Message) -> list[str]:
    """The custom ids of ``message``'s components (buttons and selects, in rows or not)."""
    return [getattr(item, "custom_id", None) or "" for row in message.components
            for item in getattr(row, "children", [row])]


async def posted_with(channel: discord.abc.Messageable, bot_id: int, prefix: str, *, limit: int,
                      also: Callable[[discord.Message], bool] = lambda _message: True) -> discord.Message | None:
    """The newest message of the bot (``bot_id``) among the last ``limit`` of ``channel`` with a component whose
    custom id starts with ``prefix`` (and for which ``also`` holds), or ``None``; also ``None`` when the history
    cannot be read (no Read Message History), logged."""
    try:
        async for message in channel.history(limit=limit):
            if message.author.id == bot_id and also(message) and any(
                    custom_id.startswith(prefix) for custom_id in custom_ids(message)):
                return message
    except discord.HTTPException:
        log.warning("could not read the history of channel %s", getattr(channel, "id", "?"), exc_info=True)
    return None
