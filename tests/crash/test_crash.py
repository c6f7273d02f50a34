"""The crash test at a small size in the default suite (``python -m tests.crash`` runs it at full size)."""

from __future__ import annotations

from tests.crash.run import crash_test


async def test_sigkill_at_random_points_loses_and_duplicates_nothing() -> None:
    """The bot, a separate process, is killed twice during a stream of moves over two channels, the second time in
    the middle of a delivery and restarted after Discord forgot the nonces: after each restart every table shows
    its latest version with buttons and a turn timer, every accepted move is stored exactly once and no message is
    sent twice."""
    report = await crash_test(moves=15, games=2, kills=2, seed=9)
    assert report.ok, "\n".join(report.lines())
    assert report.kills == 2 and report.accepted >= 15 and report.sent >= report.accepted
    assert report.kills_in_delivery == 1 and report.restarts_after_nonce_expiry == 1
