"""The living table's bookkeeping: the "last moves" log keeps the last steps and fits a field, a fresh message
starts its own log, and the channel counts as scrolled only past the limit."""

from __future__ import annotations

from types import SimpleNamespace

from bot.live_table import LOG_CHARS, LOG_STEPS, LiveTable


def live() -> LiveTable:
    return LiveTable(SimpleNamespace(add_listener=lambda *args: None))  # type: ignore[arg-type]


def test_the_log_keeps_the_last_steps_oldest_first() -> None:
    """Each step's lines stay together; only the last LOG_STEPS steps are shown."""
    table = live()
    for step in range(LOG_STEPS + 2):
        shown = table.remember(1, [f"step {step} a", f"step {step} b"])
    assert shown == [f"step {s} {x}" for s in range(2, LOG_STEPS + 2) for x in "ab"]
    assert table.remember(1, []) == shown  # a step with no public line keeps the log as it was


def test_a_long_log_is_cut_at_the_oldest_end_and_a_fresh_message_starts_anew() -> None:
    """The log fits a field value: older lines go first, the cut is shown; a new table message starts with its
    own step only."""
    table = live()
    table.remember(7, ["x" * 600])
    shown = table.remember(7, ["y" * 600])
    assert shown == ["…", "y" * 600] and sum(len(line) + 1 for line in shown) <= LOG_CHARS
    assert table.remember(7, ["z" * 2000])[0] == "z" * (LOG_CHARS - 1) + "…"
    assert table.remember(7, ["new day"], anew=True) == ["new day"]


async def test_only_messages_after_the_table_count_and_only_past_the_limit() -> None:
    """MESSAGE_CREATE events after the watched table count; the table scrolled once more than the limit passed."""
    table = live()
    table._watching(5, 100, fresh=True)
    for message_id in (90, 101, 102):
        await table.on_message(SimpleNamespace(id=message_id, channel=SimpleNamespace(id=5)))  # type: ignore[arg-type]
    await table.on_message(SimpleNamespace(id=103, channel=SimpleNamespace(id=6)))  # type: ignore[arg-type]
    assert not table.scrolled(5, 2) and table.scrolled(5, 1)
    table._watching(5, 104, fresh=True)  # the table was posted again: the count starts over
    assert not table.scrolled(5, 0)
