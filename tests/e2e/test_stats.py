"""/stats through Discord: a member's statistics with their results chart attached, the server's statistics of a
game with its bar chart, and nothing counted yet; a game in a channel the member asking cannot view counts without
its roles."""

from __future__ import annotations

from sqlalchemy import select

from bot.achievements import achievement_hint, achievement_name
from bot.cogs.stats._render import role_name
from bot.cogs.stats.records import records
from bot.db.models.stats import Achievement
from bot.tables import TableService
from tests.bot.stats.test_recount import Clock, _play
from tests.e2e.conftest import World
from tests.e2e.test_private_channels import staff_room


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
        for seed in (3, 5):  # (in the game channel: a channel that is not there shows no roles, but to managers)
            played = await _play(service, Clock(), world.games.id, "asesino", "small", (alice.id, bob.id, carol.id),
                                 seed, guild=world.guild.id)
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


async def test_stats_name_no_role_of_a_game_in_a_channel_the_asker_cannot_view(world: World) -> None:
    """Alice's only game was in a staff room Carol cannot view: Carol's /stats of Alice (and of the game) count it
    but show no role, favourite role or side; Alice, who can view the room, is shown her role."""
    alice, bob, carol = world.players[:3]
    staff = staff_room(world, alice, bob)
    async with world.running():
        service = TableService(world.sessions, clock=Clock())
        played = await _play(service, Clock(), staff.id, "asesino", "small", (alice.id, bob.id), 3,
                             guild=world.guild.id)
        assert (await service.load(played)).status == "finished"
        async with world.sessions() as session:
            role = (await records(session, world.guild.id, user_id=alice.id))[0].role
        assert role is not None
        shown = role_name("asesino", role, "en")
        fields = {f["name"]: f["value"] for f in (await _stats(alice, world)).embeds[0]["fields"]}
        assert shown in fields["Per role"] and shown in fields["Favourite role"]
        theirs = (await _stats(carol, world, member=alice)).embeds[0]
        assert theirs["description"].startswith("All games: 1 played")
        assert [f["name"] for f in theirs["fields"]] == ["Per game", "Per mode"]
        server = (await _stats(carol, world, game="asesino")).embeds[0]
        assert server["description"].startswith("1 finished game")
        assert not any(f["name"] in ("Per role", "Per side") for f in server.get("fields", []))
        assert "Per role" in [f["name"] for f in (await _stats(bob, world, game="asesino")).embeds[0]["fields"]]


def _texts(embed: dict) -> str:
    fields = "\n".join(f"{f['name']}\n{f['value']}" for f in embed.get("fields", []))
    return "\n".join([embed.get("title", ""), embed.get("description", ""), fields])


async def test_no_achievement_of_a_game_the_asker_cannot_view_names_its_role(world: World) -> None:
    """Alice's games were all in a staff room Carol cannot view, and one won Alice a first-win achievement, whose
    hint names the role ("a first win as the Killer"): Alice's own /stats lists it, Carol's /stats of Alice hides
    it with the per-role fields (a tester found it listed)."""
    alice, bob, carol = world.players[:3]
    staff = staff_room(world, alice, bob)
    async with world.running():
        service = TableService(world.sessions, clock=Clock())
        earned: list[str] = []
        for seed in range(1, 30):
            await _play(service, Clock(), staff.id, "asesino", "small", (alice.id, bob.id), seed,
                        guild=world.guild.id)
            async with world.sessions() as session:
                earned = list((await session.scalars(select(Achievement.achievement)
                                                     .where(Achievement.user_id == alice.id))).all())
            if any(a.startswith("first_win_") for a in earned):
                break
        first = next(a for a in earned if a.startswith("first_win_"))
        name = achievement_name("asesino", first, "en")
        assert achievement_hint("asesino", first, "en").startswith("a first win as ")
        assert name in _texts((await _stats(alice, world)).embeds[0])
        theirs = _texts((await _stats(carol, world, member=alice)).embeds[0])
        assert "Per role" not in theirs and "Favourite role" not in theirs
        assert name not in theirs, theirs
