"""Discord's 3-second rule: an interaction's first answer must reach Discord within 3 seconds of its creation,
whatever the database does. :func:`in_time` runs the work and defers the interaction if the work is not done
after :data:`DEFER_AFTER` seconds (``bot.defer_after`` overrides it), so a fast database still costs a single
answer and a slow one never loses the interaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

log = logging.getLogger(__name__)
T = TypeVar("T")
#: seconds of work after which the interaction is deferred (Discord's limit is 3 s from creation, network included)
DEFER_AFTER = 1.5


def answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock every first answer of ``interaction`` is sent under (the deferral of :func:`in_time` and an answer
    the work itself sends, e.g. the table's edit), so the two never both send a callback: hold it from the
    ``interaction.response.is_done()`` check to the end of the answer's request."""
    lock = interaction.extras.get("coroner_answer_lock")
    if lock is None:
        lock = interaction.extras["coroner_answer_lock"] = asyncio.Lock()
    return lock  # type: ignore[no-any-return]


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False,
                  thinking: bool = False) -> T:
    """The result of ``work``; if it takes longer than the bot's ``defer_after``, the interaction is deferred
    meanwhile (``ephemeral``/``thinking`` as for ``InteractionResponse.defer``: a component or modal submit
    without ``thinking`` gets callback type 6, its message edited later), so the caller must check
    ``interaction.response.is_done()`` to answer with an edit or follow-up (:func:`edit_answer`). An answer
    ``work`` sends itself must hold :func:`answer_lock`. Raises what ``work`` raises."""
    task = asyncio.ensure_future(work)
    limit = getattr(interaction.client, "defer_after", DEFER_AFTER)
    done, _ = await asyncio.wait({task}, timeout=limit)
    if not done:
        async with answer_lock(interaction):
            if not interaction.response.is_done():
                try:
                    await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
                except discord.HTTPException:  # expired: the work completes, its answer goes elsewhere
                    log.warning("could not defer interaction %s in time", interaction.id)
    return await task


async def edit_answer(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer a component or modal submit by editing its message (``Message.edit`` keywords): the callback
    (type 7) when it is not answered yet, else the deferred answer's edit (after :func:`in_time` deferred it)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
