"""What this process's gateway saw posted in each server channel: the ids of the latest messages (MESSAGE_CREATE
events, no content needed), so :class:`bot.live_table.LiveTable` can tell how many messages came after a message
it saw posted without reading the channel's history (a REST call).

Exact or nothing: :meth:`SeenMessages.after` answers only while the message itself is still remembered, and then
every message after it is too (kept in arrival order, the oldest forgotten first). A gap in what the gateway
delivered (a disconnect: events in between may be lost) forgets everything; so does a new process (nothing is
stored). Bounded: :data:`CHANNELS` channels (the least recently written forgotten first), :data:`PER_CHANNEL` ids
each (more than ``/config table_repost_after`` allows plus the message itself).
"""

from __future__ import annotations

from collections import deque

from cachetools import LRUCache

CHANNELS = 2_000
PER_CHANNEL = 102


class SeenMessages:
    """The latest message ids per channel this process's gateway delivered (see the module docstring)."""

    def __init__(self) -> None:
        self._channels: LRUCache[int, deque[int]] = LRUCache(maxsize=CHANNELS)

    def saw(self, channel_id: int, message_id: int) -> None:
        """A MESSAGE_CREATE of ``message_id`` in ``channel_id``."""
        ids = self._channels.get(channel_id)
        if ids is None:
            ids = self._channels[channel_id] = deque(maxlen=PER_CHANNEL)
        ids.append(message_id)

    def after(self, channel_id: int, message_id: int) -> int | None:
        """How many messages were posted in ``channel_id`` after ``message_id``, or None when this process cannot
        know (it did not see ``message_id`` posted, or has forgotten it since)."""
        ids = self._channels.get(channel_id)
        if ids is None or message_id not in ids:
            return None
        return sum(1 for other in ids if other > message_id)

    def forget(self) -> None:
        """The gateway disconnected: what it delivers next may not follow on from what it delivered before."""
        self._channels.clear()
