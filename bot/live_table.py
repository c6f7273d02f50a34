"""One living table message per game: the lobby message becomes the table when the game starts and the result when
it ends, edited in place.

* A step edits the table: through the interaction that made the move when it came from the table message (a
  component on it, or a modal one opened: ``interaction.response.edit_message``, callback type 7, or, when the
  move was slow and :func:`bot.deadline.in_time` deferred it (type 6), the deferred response's edit; no cost to
  the bot's REST budget), else with one PATCH (moves made by DM, by a timer, or on a
  private panel). :meth:`bot.ui.GameUI.play` sets the interaction (:data:`bot.ui.ANSWERING`).
* The table is posted again (and the old one stripped of its buttons) only when it has scrolled out of sight:
  more than ``table_repost_after`` messages (a ``/config`` setting) arrived in the channel after it, counted from
  the gateway's MESSAGE_CREATE events (no message content needed), or when the game declares a step worth a new
  message (:meth:`bot.ui.GameUI.fresh_table`).
* The public lines of the last few steps live in the table embed ("Last moves"), not in new messages.
* The turn ping ("▶ your move, @player") is the only other message: sent by a persisted timer when the awaited
  player has not moved within ``turn_ping_seconds``, and deleted on the next step, so the channel holds at most one.

The message counters, the "last moves" log and the ping's message id live in this process (after a restart the
log starts empty, the count starts at zero and an old ping stays in the channel).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.deadline import answer_lock
from bot.ui import ANSWERING, Outgoing, RenderContext

if TYPE_CHECKING:
    from bot.bot import CoronerBot
    from bot.tables import Table

log = logging.getLogger(__name__)

LOG_STEPS = 4  # steps whose public lines stay in "Last moves"
LOG_CHARS = 1000  # the log is a field value (Discord: 1024)
PING_TIMER = "turn_ping"


def edit_kwargs(out: Outgoing) -> dict[str, Any]:
    """Keyword arguments for ``Message.edit`` / ``response.edit_message``: ``out`` replaces everything (content,
    embeds, components, attachments), budgeted like every message (:meth:`bot.ui.Outgoing.kwargs`)."""
    return out.kwargs(edit=True)


class LiveTable:
    """Where a game's table message is and how far it has scrolled; shows each step on it."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        self._log: dict[int, deque[list[str]]] = {}  # game id -> public lines of its last steps
        self._watch: dict[int, int] = {}  # channel id -> the table message watched there
        self._after: dict[int, int] = {}  # channel id -> messages posted after that table message
        self._pings: dict[int, int] = {}  # game id -> its ping message
        bot.add_listener(self.on_message, "on_message")

    # --- counting what scrolls the table away -----------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        """MESSAGE_CREATE: one more message after the watched table of this channel (content is not read)."""
        watched = self._watch.get(message.channel.id)
        if watched is not None and message.id > watched:
            self._after[message.channel.id] = self._after.get(message.channel.id, 0) + 1

    def _watching(self, channel_id: int, message_id: int, *, fresh: bool) -> None:
        if fresh or self._watch.get(channel_id) != message_id:
            self._watch[channel_id] = message_id
            self._after[channel_id] = 0

    def scrolled(self, channel_id: int, limit: int) -> bool:
        """Whether more than ``limit`` messages were posted in the channel after its table."""
        return self._after.get(channel_id, 0) > limit

    # --- the "last moves" log -------------------------------------------------------------------------------
    def remember(self, game_id: int, lines: list[str], *, anew: bool = False) -> list[str]:
        """Add a step's public ``lines`` (``anew``: to a new table message, whose log starts with this step);
        returns the log to show (oldest first, older lines dropped first, a cut shown as "…")."""
        if anew:
            self._log.pop(game_id, None)
        steps = self._log.setdefault(game_id, deque(maxlen=LOG_STEPS))
        if lines:
            steps.append(list(lines))
        shown: list[str] = []
        size = 0
        for line in reversed([line for step in steps for line in step]):
            if size + len(line) + 1 > LOG_CHARS:
                shown.append(line[: LOG_CHARS - 1] + "…" if not shown else "…")
                break
            shown.append(line)
            size += len(line) + 1
        return list(reversed(shown))

    def forget(self, game_id: int) -> None:
        self._log.pop(game_id, None)

    # --- showing --------------------------------------------------------------------------------------------
    async def show(self, table: Table, lines: list[str], render: Callable[[list[str]], Outgoing], *,
                   fresh: bool = False) -> None:
        """Show a step with public ``lines`` on the game's table message; ``render(log)`` draws the table around
        the "last moves" ``log``. The interaction's own edit or a PATCH; a new message (stripping the old one of
        its buttons, its log starting with this step) when the table scrolled out of sight, was never shown, or
        the step is ``fresh``."""
        message_id = table.table_message_id or table.lobby_message_id
        config = await self.bot.config(table.guild_id)
        if message_id and not fresh and not self.scrolled(table.channel_id, config.table_repost_after):
            out = render(self.remember(table.id, lines))
            try:
                await self._edit(table, message_id, out)
            except discord.NotFound:
                log.info("the table message of game %s is gone: posting a new one", table.id)
            else:
                self._watching(table.channel_id, message_id, fresh=False)
                if table.table_message_id != message_id:
                    await self.bot.tables.set_table_message(table.id, message_id)
                return
        out = render(self.remember(table.id, lines, anew=True))
        channel = await self.bot.delivery.channel(table.channel_id)
        message = await self.bot.delivery.send(channel, out, "t")  # a nonce while a step is shown
        self._watching(table.channel_id, message.id, fresh=True)
        if message.id == message_id:  # this step shown again after a crash: the nonce returned its table
            return
        await self.bot.tables.set_table_message(table.id, message.id)
        if message_id:
            await self.strip(table.channel_id, message_id)

    async def _edit(self, table: Table, message_id: int, out: Outgoing) -> None:
        interaction = ANSWERING.get()
        if interaction is not None and interaction.message is not None and interaction.message.id == message_id:
            ANSWERING.set(None)  # one answer per interaction
            try:
                async with answer_lock(interaction):  # bot.deadline.in_time may be deferring it right now
                    if not interaction.response.is_done():
                        await interaction.response.edit_message(**edit_kwargs(out))
                        return
                    if interaction.response.type == discord.InteractionResponseType.deferred_message_update:
                        await interaction.edit_original_response(**edit_kwargs(out))
                        return
            except discord.HTTPException:  # the interaction expired: the table is edited like any other message
                log.warning("could not answer interaction %s with the table; editing it", interaction.id)
        channel = await self.bot.delivery.channel(table.channel_id)
        await channel.get_partial_message(message_id).edit(**edit_kwargs(out))  # type: ignore[attr-defined]

    async def strip(self, channel_id: int, message_id: int | None) -> None:
        """Take the buttons off an earlier table message (best effort: it may be gone)."""
        if not message_id:
            return
        channel = await self.bot.delivery.channel(channel_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.debug("could not clear the components of %s", message_id)

    # --- the turn ping ----------------------------------------------------------------------------------------
    async def after_step(self, table: Table) -> None:
        """A step was shown: the ping (it asked for the move just made) goes, and a new one is armed (a persisted
        timer) for when the awaited players have not moved within the grace period."""
        await self.unping(table)
        if table.status == "active" and awaited(table):
            config = await self.bot.config(table.guild_id)
            due = self.bot.clock.now() + timedelta(seconds=config.turn_ping_seconds)
            await self.bot.timers.schedule(table.id, PING_TIMER, due, {"version": table.version})

    async def unping(self, table: Table) -> None:
        ping = self._pings.pop(table.id, None)
        if ping is None:
            return
        channel = await self.bot.delivery.channel(table.channel_id)
        try:
            await channel.get_partial_message(ping).delete()  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.debug("could not delete the turn ping %s", ping)

    async def ping(self, table: Table, key: str = "turn.ping") -> None:
        """Post the ping ``key`` (``{seats}``: mentions of the awaited players), replacing an earlier one."""
        seats = awaited(table)
        if not seats:
            return
        await self.unping(table)
        ctx = RenderContext(table, table.language)
        text = ctx.t(key, seats=", ".join(ctx.mention(s) for s in seats))
        channel = await self.bot.delivery.channel(table.channel_id)
        message = await channel.send(**Outgoing(content=text, mentions=True).kwargs())
        self._pings[table.id] = message.id

    async def on_ping_timer(self, timer: Any) -> None:
        """The grace period ran out: ping unless the game moved on."""
        table = await self.bot.tables.load(timer.game_id)
        if table.status == "active" and table.version == timer.payload.get("version"):
            await self.ping(table)


def awaited(table: Table) -> list[int]:
    """The seats a ping names: those the game waits on, when the game says they are pinged (not in a real-time
    game where everyone acts at once) and not hidden (e.g. the Prosecutor asked to accuse)."""
    waiting = table.engine.waiting(table.state) if table.state is not None else None
    return list(waiting.seats) if waiting is not None and waiting.pings and not waiting.hidden else []
