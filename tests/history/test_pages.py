"""A timeline is cut into pages that each fit an embed: blocks kept whole where they can be, never cut mid-line
unless one line alone is over a page."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.history.timeline import Entry, discord_stamp, export_text, pages, stamped


def test_a_block_that_does_not_fit_the_rest_of_a_page_starts_the_next() -> None:
    """A 40-unit and an 80-unit block (newlines counted) on 100-unit pages: the second opens page 2 whole."""
    a, b = ["a" * 19, "a" * 19], ["b" * 39, "b" * 39]
    assert pages([a, b], limit=100) == ["\n".join(a), "\n".join(b)]
    assert pages([a, a], limit=100) == ["\n".join(a + a)]


def test_a_block_longer_than_a_page_is_split_between_lines_and_a_huge_line_clipped() -> None:
    lines = [f"line {n:02}" for n in range(30)]  # 8 units + newline each
    cut = pages([lines], limit=50)
    assert "\n".join(cut).split("\n") == lines and all(len(page) <= 50 for page in cut)
    assert pages([["x" * 500]], limit=50) == ["x" * 49 + "…"]
    assert pages([]) == [""]


def test_times_show_the_date_when_the_day_changes() -> None:
    """Discord's time tags in the channel, UTC in the file; the date only with the first time of a day."""
    day1, later, day2 = (datetime(2026, 11, 30, 23, 0, tzinfo=UTC), datetime(2026, 11, 30, 23, 30, tzinfo=UTC),
                         datetime(2026, 12, 1, 0, 5, tzinfo=UTC))
    entries = [Entry(None, ["head"]), Entry(day1, ["one", "two"]), Entry(later, ["three"]), Entry(day2, ["four"])]
    blocks = stamped(entries, discord_stamp)
    assert blocks[0] == ["head"] and blocks[1][1] == "two"
    assert blocks[1][0] == f"**<t:{int(day1.timestamp())}:d> <t:{int(day1.timestamp())}:t>** one"
    assert blocks[2] == [f"**<t:{int(later.timestamp())}:t>** three"]
    assert blocks[3][0].startswith(f"**<t:{int(day2.timestamp())}:d>")
    assert export_text(entries).splitlines() == [
        "head", "", "[2026-11-30 23:00:00 UTC] one", "two", "", "[23:30:00] three", "",
        "[2026-12-01 00:05:00 UTC] four"]
