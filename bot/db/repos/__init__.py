"""Repositories: small async functions per table, each taking an open session (the caller commits).

``games`` (games, seats, action log), ``outbox`` (steps to deliver), ``timers``, ``scores`` (series, scores,
leaderboards, achievements), ``live`` (the living table of each running game).
Guild settings live in :mod:`bot.guild_config`.
"""

from bot.db.repos import games, live, outbox, scores, timers

__all__ = ["games", "live", "outbox", "scores", "timers"]
