"""/stats through Discord: a member's statistics with their results chart attached, the server's statistics of a
game with its bar chart, and nothing counted yet."""

from __future__ import annotations

from bot.tables import TableService
from tests.bot.stats.test_recount import Clock, _play
from tests.e2e.conftest import World


async def _stats(user, world: World, **options):
    """/stats (deferred, then answered with one follow-up): that follow-up message."""
    handle = await user.slash(world.games, "stats", **options)
    assert (await handle.response()).deferred
    return (await handle.wait_followups(1))[0]


async def test_stats_show_a_member_and_a_game_with_charts(world: World) -> None:
    """Two finished games: the member's embed and the game's, each with a PNG attached and its alt text."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        empty = await _stats(alice, world)
        assert empty.embeds[0]["description"].startswith("No finished games counted yet")
        service = TableService(world.sessions, clock=Clock())
        for n, seed in enumerate((3, 5)):
            played = await _play(service, Clock(), 900 + n, "asesino", "small", (alice.id, bob.id, carol.id), seed,
                                 guild=world.guild.id)
            assert (await service.load(played)).status == "finished"
        mine = await _stats(alice, world)
        assert mine.embeds[0]["title"] == f"Statistics: {alice.global_name or alice.username}"
        assert mine.embeds[0]["description"].startswith("All games: 2 played")
        assert [a.filename for a in mine.attachments] == ["results.png"]
        name = alice.global_name or alice.username
        assert mine.attachments[0].description.startswith(f"Line chart of {name}'s win rate")
        assert mine.attachments[0].data.startswith(b"\x89PNG") and len(mine.attachments[0].data) < 300_000
        server = await _stats(bob, world, game="asesino")
        assert server.embeds[0]["title"] == "Asesino en Serie: this server's statistics"
        assert server.embeds[0]["description"].startswith("2 finished games; on average")
        assert [a.filename for a in server.attachments] == ["win-rates.png"]
