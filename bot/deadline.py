"""Discord's 3-second rule: an interaction's first answer must reach Discord within 3 seconds of its creation,
whatever the database does. :func:`in_time` runs the work and defers the interaction if the work is not done
after :data:`DEFER_AFTER` seconds (``bot.defer_after`` overrides it), so a fast database still costs a single
answer and a slow one never loses the interaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)
T = TypeVar("T")
#: seconds of work after which the interaction is deferred (Discord's limit is 3 s from creation, network included)
DEFER_AFTER = 1.5


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False,
                  thinking: bool = False) -> T:
    """The result of ``work``; if it takes longer than the bot's ``defer_after``, the interaction is deferred
    meanwhile (``ephemeral``/``thinking`` as for ``InteractionResponse.defer``), so the caller must check
    ``interaction.response.is_done()`` to answer with an edit or follow-up. Raises what ``work`` raises."""
    task = asyncio.ensure_future(work)
    limit = getattr(interaction.client, "defer_after", DEFER_AFTER)
    done, _ = await asyncio.wait({task}, timeout=limit)
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        except discord.HTTPException:  # expired already: the work still completes, the answer goes elsewhere
            log.warning("could not defer interaction %s in time", interaction.id)
    return await task
