"""``coroner replay``: every finished game in the database replayed from its seed and logged actions, and checked
against its stored outcome and final snapshot (:func:`bot.history.record.check`). The database is upgraded first,
as ``coroner run`` does; the check itself only reads."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.history.record import check
from bot.history.store import finished_ids, load_record


@dataclass(frozen=True, slots=True)
class Replayed:
    """One finished game's replay check: None, or what went wrong in one line."""

    game_id: int
    game: str
    mode: str
    actions: int
    problem: str | None


async def replay_all(sessions: async_sessionmaker[AsyncSession]) -> list[Replayed]:
    """The replay check of every finished game, oldest first."""
    out = []
    for game_id in await finished_ids(sessions):
        try:
            record = await load_record(sessions, game_id)
        except KeyError as exc:  # the game was removed from the bot: nothing can replay it
            out.append(Replayed(game_id, "?", "?", 0, f"no engine for {exc}"))
            continue
        out.append(Replayed(game_id, record.table.game, record.table.mode, len(record.actions), check(record)))
    return out


async def report(url: str) -> int:
    """Run :func:`replay_all` on the database at ``url`` (upgraded first), print one line per game and a
    summary; 0 when every game replays, 1 otherwise. Raises :class:`~bot.settings.StartupError` when the database
    cannot be opened."""
    from bot.db.check import open_database
    from bot.db.session import make_sessionmaker

    engine = await open_database(url)
    try:
        results = await replay_all(make_sessionmaker(engine))
    finally:
        await engine.dispose()
    for r in results:
        print(f"game {r.game_id} {r.game}/{r.mode}, {r.actions} actions: {r.problem or 'ok'}")
    failed = sum(1 for r in results if r.problem)
    print(f"coroner: {len(results) - failed} of {len(results)} finished games replay to their stored outcome")
    return 1 if failed else 0
