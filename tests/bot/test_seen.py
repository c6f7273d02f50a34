"""What the gateway saw posted per channel (:class:`bot.seen.SeenMessages`): exact or nothing."""

from __future__ import annotations

from bot.seen import PER_CHANNEL, SeenMessages


def test_messages_after_a_seen_message_are_counted_per_channel() -> None:
    """Only later messages of the same channel count; a message never seen gives no answer, not zero."""
    seen = SeenMessages()
    for channel, message in ((5, 100), (5, 101), (6, 102), (5, 103)):
        seen.saw(channel, message)
    assert seen.after(5, 100) == 2 and seen.after(5, 103) == 0 and seen.after(6, 102) == 0
    assert seen.after(5, 99) is None and seen.after(7, 100) is None


def test_a_message_pushed_out_or_a_disconnect_gives_no_answer() -> None:
    """Once the message itself is forgotten (too many after it) or the gateway disconnected, nothing is known."""
    seen = SeenMessages()
    for message in range(1, PER_CHANNEL + 1):
        seen.saw(5, message)
    assert seen.after(5, 1) == PER_CHANNEL - 1
    seen.saw(5, PER_CHANNEL + 1)
    assert seen.after(5, 1) is None and seen.after(5, 2) == PER_CHANNEL - 1
    seen.forget()
    assert seen.after(5, 2) is None
