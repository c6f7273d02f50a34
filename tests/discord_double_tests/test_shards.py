"""The double serves several shards at once with Discord's routing: a guild's events and interactions reach the
session of shard ``(guild_id >> 22) % shard_count``, DMs and DM interactions shard 0, and ``GET /gateway/bot``
recommends the double's shard count. Two real discord.py clients hold one shard each."""

from __future__ import annotations

import aiohttp
import pytest

from tests.discord_double import DiscordDouble
from tests.discord_double.fixtures import running_bot
from tests.discord_double.server import TOKEN
from tests.discord_double_tests._bot import DoubleBot


async def test_gateway_bot_reports_the_shard_count_and_guilds_are_placed_on_a_shard(double: DiscordDouble) -> None:
    """``GET /gateway/bot`` answers ``shards`` = ``double.shard_count``; ``add_guild(shard=k)`` gives an id on
    shard k (increasing ids); a shard outside the count is refused."""
    double.shard_count = 3
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        async with http.get(f"{double.api_base}/api/v10/gateway/bot") as reply:
            answer = await reply.json()
    assert answer["shards"] == 3 and answer["url"] == double.gateway_url
    guilds = [double.add_guild(f"g{k}", shard=k % 3) for k in (2, 0, 1, 1, 2)]
    assert [(g.id >> 22) % 3 for g in guilds] == [2, 0, 1, 1, 2]
    assert [g.id for g in guilds] == sorted({g.id for g in guilds})
    with pytest.raises(ValueError, match="shard 3 is not one of the 3 shards"):
        double.add_guild("nowhere", shard=3)


async def test_two_clients_get_only_their_shards_guilds_and_dms_go_to_shard_zero(double: DiscordDouble) -> None:
    """Shard 0 and shard 1 run in two clients at once: each gets only its guild (READY and GUILD_CREATE), a slash
    command and a message in shard 1's guild reach only shard 1, a DM and a DM interaction (a slash command, then a
    button on the bot's DM answer) only shard 0; with shard 1's client gone its guild's interaction is refused."""
    double.shard_count = 2
    first, second = double.add_guild("zero", shard=0), double.add_guild("one", shard=1)
    games = second.add_text_channel("games")
    alice = double.add_user("alice", display_name="Alice")
    for guild in (first, second):
        guild.add_member(alice)
    zero, one = DoubleBot(shard_count=2, shard_ids=[0]), DoubleBot(shard_count=2, shard_ids=[1])
    async with running_bot(zero), running_bot(one):
        assert [g.id for g in zero.guilds] == [first.id] and [g.id for g in one.guilds] == [second.id]
        handle = await alice.slash(games, "counter")
        assert handle.shard_id == 1 and (await handle.response()).content == "count 0"
        said = await alice.say(games, "hello one")
        await double.wait_for(lambda: one.game_cog.guild_seen == [""])  # no message content intent

        dm = await alice.dm_bot("hello zero")
        await double.wait_for(lambda: zero.game_cog.dms_seen == ["hello zero"])
        in_dm = await alice.slash(double.dm_channel(alice), "counter")
        assert in_dm.shard_id == 0 and (await in_dm.response()).content == "count 0"
        click = await alice.click(in_dm.original, "dbl:count:0")
        assert click.shard_id == 0 and (await click.response()).content == "count 1"

        sessions = {s.shard_id: s for s in double.gateway.connected()}
        assert sorted(sessions) == [0, 1]
        assert {p["id"] for p in sessions[1].events("INTERACTION_CREATE")} == {str(handle.id)}
        assert {p["id"] for p in sessions[0].events("INTERACTION_CREATE")} == {str(in_dm.id), str(click.id)}
        created = {k: {m["id"] for m in s.events("MESSAGE_CREATE")} for k, s in sessions.items()}
        assert str(said.id) in created[1] and str(said.id) not in created[0]
        assert str(dm.id) in created[0] and str(dm.id) not in created[1]
        assert one.game_cog.dms_seen == [] and zero.game_cog.guild_seen == []
        sessions[1].live = False  # shard 1's client is gone for good (a new IDENTIFY would replace it)
        with pytest.raises(RuntimeError, match="no bot session holds the shard of one"):
            await alice.slash(games, "counter")


class EagerBot(DoubleBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-second pause between the shards' IDENTIFYs (Discord's identify rate limit; the double has none)."""


async def test_one_client_holding_two_shards_gets_both(double: DiscordDouble) -> None:
    """One client with shards 0 and 1 of 2 (as each compose.yaml process holds two): two sessions, each guild on its
    own, an interaction in shard 1's guild dispatched on shard 1's session and answered."""
    double.shard_count = 2
    first, second = double.add_guild("zero", shard=0), double.add_guild("one", shard=1)
    alice = double.add_user("alice")
    second.add_member(alice)
    async with running_bot(bot := EagerBot(shard_count=2, shard_ids=[0, 1])):
        assert sorted(bot.shards) == [0, 1] and {g.id for g in bot.guilds} == {first.id, second.id}
        assert bot.get_guild(second.id).shard_id == 1
        handle = await alice.slash(second.add_text_channel("games"), "counter")
        assert handle.shard_id == 1 and (await handle.response()).content == "count 0"
        assert sorted(s.shard_id for s in double.gateway.connected()) == [0, 1]
