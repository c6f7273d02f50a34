"""``/leaderboard``: all time it names the first 20 players, counts the rest and shows the one asking wherever they
rank (read from the database, not a mock); a series' standings are private to whoever can view the series' channel,
and refused to anyone else (they name who played there)."""

from __future__ import annotations

import pytest

from bot.db.models import Score, Series
from bot.i18n import catalog
from tests.e2e.conftest import World, answer, refusal
from tests.e2e.test_history import finished_games
from tests.e2e.test_private_channels import staff_room

pytestmark = pytest.mark.usefixtures("potato")

PLAYERS = 25


async def test_a_leaderboard_of_25_players_names_20_and_counts_the_rest(world: World) -> None:
    """The table service reads every player, not its default 10: 20 named, "…and 5 more", the asker's 25th place."""
    (game_id,) = await finished_games(world, 1)
    asker = world.players[2]  # carol, last of the 25
    users = [10_000 + n for n in range(PLAYERS - 1)] + [asker.id]
    async with world.sessions() as session, session.begin():
        await session.execute(Score.__table__.delete())
        session.add_all(Score(guild_id=world.guild.id, game="potato", mode="classic", game_id=game_id, user_id=u,
                              seat=n, points=float(100 - n), won=n == 0) for n, u in enumerate(users))
    async with world.running():
        shown = await (await asker.slash(world.games, "leaderboard", game="potato")).wait_original()
    lines = shown.embeds[0]["description"].split("\n")
    assert lines[0].startswith("**1.** <@10000>")
    assert len(lines) == 22, lines  # 20 named, "…and 5 more", and the asker's own 25th place
    assert lines[20] == "…and 5 more"
    assert lines[21].startswith(f"**25.** <@{asker.id}>")


async def test_a_private_channels_series_standings_are_shown_only_to_who_can_view_it(world: World) -> None:
    """A series played in a staff room only alice and bob see: carol is refused privately, alice is answered
    privately (never in the public channel she asked in), naming bob."""
    alice, bob, carol = world.players[:3]
    public = world.games
    staff = staff_room(world, alice, bob)
    world.games = public
    (game_id,) = await finished_games(world, 1)
    async with world.sessions() as session, session.begin():
        series = Series(guild_id=world.guild.id, channel_id=staff.id, game="potato", mode="classic", rounds_total=3,
                        rounds_played=1)
        session.add(series)
        await session.flush()
        await session.execute(Score.__table__.delete())
        session.add_all(Score(guild_id=world.guild.id, game="potato", mode="classic", game_id=game_id, user_id=u.id,
                              seat=n, points=float(2 - n), won=n == 0, series_id=series.id, round=1)
                        for n, u in enumerate((alice, bob)))
    async with world.running():
        refused = await refusal(await carol.slash(public, "leaderboard", game="potato", series=series.id))
        shown = await answer(await alice.slash(public, "leaderboard", game="potato", series=series.id))
    assert refused == "⛔ " + catalog("en").render("leaderboard.not_visible", series=series.id)
    assert f"<@{bob.id}>" in shown.embeds[0]["description"]
    assert not any(f"<@{bob.id}>" in str(m.embeds) for m in public.messages if not m.ephemeral)
