"""Private panels opened from a game's table message (the social mode's **My actions**): a move made on one edits the
table through the click that opened it, not with a PATCH of the channel's message (issue 20: an interaction's
webhook costs nothing of the bot's 50 REST calls a second).

The table's click is acknowledged as an update of the table (callback type 6: nothing changes on screen) and the
panel is its ephemeral follow-up; the click's "original response" is then the table message itself, which its
token may edit (``PATCH /webhooks/{app}/{token}/messages/@original``) for 15 minutes (Discord's interaction token
lifetime). :class:`Panels` remembers, per panel message, the click that opened it (a next page of the panel keeps
it); :meth:`bot.live_table.LiveTable.show` edits the table through it while the move made on that panel is shown
(:data:`bot.ui.ANSWERING`), when it is still the game's table message and the token has at least :data:`MARGIN`
left; otherwise (or when Discord refuses the edit) the table is edited as before. Only the table's public render is
sent through it, as with any edit of the table.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from cachetools import LRUCache

#: panels remembered per process (the least recently opened are forgotten first: their moves PATCH the table)
PANELS = 10_000
#: a click's token is used while it has at least this long left (Discord: 15 minutes from the click)
MARGIN = timedelta(minutes=1)


class Panels:
    """The table clicks private panels were opened from, by panel message id (bounded)."""

    def __init__(self) -> None:
        self._openers: LRUCache[int, discord.Interaction] = LRUCache(maxsize=PANELS)

    async def show(self, interaction: discord.Interaction, table_message_ids: tuple[int | None, ...],
                   content: str, view: discord.ui.View | None, **kwargs: Any) -> None:
        """Show ``interaction``'s clicker a private panel (``content`` and ``view``; ``kwargs``: more
        ``send_message`` keywords, e.g. ``allowed_mentions``). A click on the table (its message one of
        ``table_message_ids``) is acknowledged as a table update and the panel sent as its ephemeral follow-up; a
        click elsewhere (a panel's next page) is answered with the panel, which keeps the click its panel came
        from."""
        message = interaction.message
        if message is not None and message.id in table_message_ids:
            await interaction.response.defer()
            extra = {"view": view} if view is not None else {}
            panel = await interaction.followup.send(content, ephemeral=True, wait=True, **extra, **kwargs)
            self._openers[panel.id] = interaction
            return
        opener = self.opener(interaction)
        callback = await interaction.response.send_message(content, view=view, ephemeral=True, **kwargs)
        panel_id = getattr(callback, "message_id", None)
        if opener is not None and panel_id is not None:
            self._openers[panel_id] = opener

    def opener(self, interaction: discord.Interaction) -> discord.Interaction | None:
        """The table click whose panel ``interaction`` came from (a component on that panel, or a modal it
        opened), while that click's token has :data:`MARGIN` left; None otherwise."""
        message = interaction.message
        opener = self._openers.get(message.id) if message is not None else None
        if opener is None or discord.utils.utcnow() >= opener.expires_at - MARGIN:
            return None
        return opener
