"""Discord's 3-second rule: an interaction's first answer must reach Discord within 3 seconds of its creation,
whatever the database does. :func:`in_time` runs the work and defers the interaction if the work is not done
after :data:`DEFER_AFTER` seconds (``bot.defer_after`` overrides it), so a fast database still costs a single
answer and a slow one never loses the interaction. While the database is slow (:func:`may_be_slow`: its statements
take :data:`SLOW_STATEMENT` or more lately, :mod:`bot.db.pace`) every interaction is deferred before its first
query instead (:func:`acknowledge_if_slow`, also at the start of :func:`in_time`): a few statements at that pace
would pass the 3 seconds before any deferral could go out. Commands answer through :func:`respond`, which sends the
callback or, once deferred, the follow-up that fills the deferred answer in."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.db.pace import pace_of

log = logging.getLogger(__name__)
T = TypeVar("T")
#: seconds of work after which the interaction is deferred (Discord's limit is 3 s from creation, network included)
DEFER_AFTER = 1.5
#: ``interaction.extras`` key: the interaction was deferred with a public "thinking" placeholder (:func:`_defer`)
PUBLIC_WAIT = "coroner_public_wait"
#: seconds per SQL statement from which the work of an interaction may pass Discord's 3 s (a handful of statements)
SLOW_STATEMENT = 0.25


def may_be_slow(client: Any) -> bool:
    """Whether the database of ``client`` (a :class:`bot.bot.CoronerBot`) is slow now: its statements took
    :data:`SLOW_STATEMENT` seconds or more lately, or one running has taken that long already."""
    pace = pace_of(getattr(client, "db_engine", None))
    if pace is None:
        return False
    return pace.mean >= SLOW_STATEMENT or pace.slowest_now(time.monotonic()) >= SLOW_STATEMENT


async def acknowledge_if_slow(interaction: discord.Interaction, *, ephemeral: bool = False,
                              thinking: bool = False) -> None:
    """Defer ``interaction`` now (before any query) when the database :func:`may_be_slow`; answer it afterwards
    through :func:`respond` (or :func:`edit_answer`)."""
    if may_be_slow(getattr(interaction, "client", None)):
        await _defer(interaction, ephemeral=ephemeral, thinking=thinking)


async def _defer(interaction: discord.Interaction, *, ephemeral: bool, thinking: bool) -> None:
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            try:
                await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
            except discord.HTTPException:  # expired: the work completes, its answer goes elsewhere
                log.warning("could not defer interaction %s in time", interaction.id)
                return
            interaction.extras[PUBLIC_WAIT] = thinking and not ephemeral


async def drop_public_wait(interaction: discord.Interaction) -> None:
    """Delete the public "thinking" placeholder a deferral of ``interaction`` posted (:func:`in_time` with
    ``thinking`` and not ``ephemeral``, e.g. /newgame while the database is slow), before a refusal that must stay
    private: Discord fills that placeholder with the first follow-up, whatever its flags, so the refusal would be
    shown to the channel. Call only before anything filled it in; nothing to do when it was not deferred so
    (best effort: a failed delete is logged)."""
    if not interaction.extras.pop(PUBLIC_WAIT, False):
        return
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.warning("could not delete the placeholder of interaction %s", interaction.id)


async def respond(interaction: discord.Interaction, *, ephemeral: bool, **kwargs: Any) -> int | None:
    """Answer with a message (``InteractionResponse.send_message`` keywords): the callback itself, or, when the
    interaction was deferred (:func:`acknowledge_if_slow`, :func:`in_time`), the follow-up that fills the deferred
    answer in (``ephemeral`` must be what the deferral said). Returns the answer's message id (None when Discord
    did not say)."""
    if interaction.response.is_done():
        if kwargs.get("view") is None:
            kwargs.pop("view", None)  # a follow-up takes no view at all rather than None
        message = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
        return message.id if message is not None else None
    callback = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    return callback.message_id if callback is not None else None


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
    ``work`` sends itself must hold :func:`answer_lock`. While the database :func:`may_be_slow`, the interaction is
    deferred before ``work`` starts. Raises what ``work`` raises."""
    await acknowledge_if_slow(interaction, ephemeral=ephemeral, thinking=thinking)
    task = asyncio.ensure_future(work)
    limit = getattr(interaction.client, "defer_after", DEFER_AFTER)
    done, _ = await asyncio.wait({task}, timeout=limit)
    if not done:
        await _defer(interaction, ephemeral=ephemeral, thinking=thinking)
    return await task


async def edit_answer(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer a component or modal submit by editing its message (``Message.edit`` keywords): the callback
    (type 7) when it is not answered yet, else the deferred answer's edit (after :func:`in_time` deferred it)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
