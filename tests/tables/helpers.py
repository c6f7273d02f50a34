"""Helpers for table service tests."""

from __future__ import annotations

from bot.tables import Table, TableService

GUILD, CHANNEL, HOST = 10, 20, 100


async def lobby(service: TableService, players: int = 0, *, passes: int = 3, channel: int = CHANNEL,
                series_id: int | None = None) -> Table:
    """A Hot Potato lobby hosted by HOST, with ``players`` seated (HOST first, then HOST+1, ...)."""
    table = await service.open_lobby(GUILD, channel, HOST, "potato", "classic", {"passes": passes},
                                     series_id=series_id)
    for n in range(players):
        table = await service.join(table.id, HOST + n, [f"p{n}"])
    return table


async def started(service: TableService, players: int = 3, *, passes: int = 3, seed: int = 7,
                  channel: int = CHANNEL, series_id: int | None = None) -> Table:
    table = await lobby(service, players, passes=passes, channel=channel, series_id=series_id)
    return await service.start(table.id, HOST, seed=seed)


def pass_on(table: Table) -> tuple[int, dict[str, object]]:
    """(the holder's user id, a legal pass to the next seat)."""
    holder = table.state.holder
    user = table.user_of(holder)
    assert user is not None
    return user, {"type": "pass", "to": (holder + 1) % len(table.seats)}
