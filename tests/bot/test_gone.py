"""Which servers the start-up catch-up takes as having removed the bot while it was down (:mod:`bot.gone`): only
those of this process's shards that Discord says the bot is not in; a server in an outage, one of another
process's shards and one Discord did not answer about are left alone."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.gone import ours, removed_while_down


def on_shard(shard: int, count: int = 2, n: int = 1) -> int:
    """A guild id on ``shard`` of ``count`` (Discord's ``(id >> 22) % count``)."""
    return ((n * count + shard) << 22) | 7


def refusal(status: int, code: int) -> discord.HTTPException:
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(SimpleNamespace(status=status, reason="no"), {"code": code, "message": "no"})


def fake_bot(cached: dict[int, Any], answers: dict[int, discord.HTTPException | None],
             shards: tuple[int, ...] = (0,), count: int = 2) -> Any:
    asked: list[int] = []

    async def fetch_guild(guild_id: int) -> object:
        asked.append(guild_id)
        if (answer := answers.get(guild_id)) is not None:
            raise answer
        return object()

    return SimpleNamespace(get_guild=cached.get, fetch_guild=fetch_guild, shards=dict.fromkeys(shards),
                           shard_count=count, asked=asked)


def test_a_guild_is_ours_by_discords_shard_formula() -> None:
    bot = fake_bot({}, {}, shards=(1,), count=3)
    assert [ours(bot, on_shard(s, 3)) for s in range(3)] == [False, True, False]
    assert ours(SimpleNamespace(shards=None, shard_count=None), on_shard(1, 3))  # unsharded: every guild


async def test_only_our_shards_servers_discord_denies_count_as_removed() -> None:
    gone, forbidden, error, present = on_shard(0, n=1), on_shard(0, n=2), on_shard(0, n=3), on_shard(0, n=4)
    outage, elsewhere = on_shard(0, n=5), on_shard(1, n=1)
    bot = fake_bot({present: object(), outage: SimpleNamespace(unavailable=True)},
                   {gone: refusal(404, 10004), forbidden: refusal(403, 50001), error: refusal(500, 0),
                    elsewhere: refusal(404, 10004)})
    removed = await removed_while_down(bot, {gone, forbidden, error, elsewhere, present, outage})
    assert removed == {gone, forbidden}
    assert sorted(bot.asked) == sorted([gone, forbidden, error])  # never about a cached one or another shard's
