"""Who plays a seat in every game and mode, end to end through the Discord double (issue 24): a player who lets
their time run out twice in a row is played by the computer (the table says so, a DM offers "I'm back"), "I'm back"
returns the seat, and the game goes on to a proper end with the other person playing; a table whose people all
stay silent ends as abandoned with no scores. The clock is injected: each wait is one jump past the longest time
limit, so a whole game takes a few seconds. Alice is the absent player, Bob the present one (his moves are his
seat's policy's, made through the one door as his clicks would be), computer players fill the other seats."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.bot import CoronerBot
from bot.db.models import Score
from bot.tables import Table, TableService
from bot.ui import ui_for
from games.core import all_games
from games.core.ai import choose_action, plays_at_table
from tests.discord_double import User
from tests.e2e.conftest import World, mark, settled, stored
from tests.e2e.test_cereal_killer import ROUTE, click, next_status, statuses
from tests.e2e.test_cereal_killer import start as cereal_start
from tests.e2e.test_seats import open_table

#: every game and mode with time limits at its smallest table (the social mode, whose clock is days, below)
MODES = [(g.id, m.id, m.min_players) for g in all_games() if g.id != "potato" for m in g.modes if m.id != "social"]
IDS = [f"{g}-{m}" for g, m, _ in MODES]
#: one jump of the clock: past the longest time limit a decision can have (the response window, 900 s)
JUMP = 901
#: the most steps a game takes here (a guard against a game that never ends)
MAX_STEPS = 600
SEEDS = (12, 13, 14)
pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # (the engines' own tests cover both)


async def start(world: World, game: str, mode: str, players: int, **options: Any) -> Table:
    """Alice opens ``game``'s ``mode`` lobby (the social mode's needs the official medium), Bob joins, Alice adds
    computer players up to ``players`` and starts; the running table once its start is shown."""
    if mode == "social":
        await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()
    alice, bob = world.players[:2]
    return await open_table(world, game, mode, alice, [bob], players - 2, **options)


async def moved(world: World, table: Table, what: str) -> None:
    """Wait until the game moved on from ``table``'s version (after a jump of the clock)."""

    async def later() -> bool:
        return (await world.tables.load(table.id)).version > table.version

    await stored(world, later, what)


async def drive(world: World, bot: CoronerBot, table: Table, present: set[int], rng: random.Random,
                until: Any = lambda table: False) -> Table:
    """Play on until the game is over or ``until(table)``: a present person whose move is awaited makes their
    policy's move through the one door; otherwise the clock jumps past the time limit (a computer player moves,
    or the absent player's time runs out and the bot moves for them)."""
    for _ in range(MAX_STEPS):
        table = await world.tables.load(table.id)
        if table.status != "active" or until(table):
            return table
        await _step(world, bot, table, present, rng)
    raise AssertionError(f"game {table.id} did not end in {MAX_STEPS} steps")


async def _step(world: World, bot: CoronerBot, table: Table, present: set[int], rng: random.Random) -> None:
    waiting = table.engine.waiting(table.state)
    computer = set(table.ai_seats())
    for seat in waiting.seats if waiting is not None else []:
        if seat in computer or table.user_of(seat) not in present:
            continue
        action = choose_action(table.engine, table.state, seat, rng)
        if action is not None and plays_at_table(table.game, table.mode, action):
            await ui_for(table.game, table.mode).play(bot, table, table.user_of(seat),
                                                      table.engine.dump_action(action), version=table.version)
            return
    world.clock.advance(seconds=JUMP)
    await moved(world, table, f"a move after {JUMP} s at version {table.version}")


async def scores(world: World, game_id: int) -> int:
    async with world.sessions() as session:
        return int(await session.scalar(select(func.count(Score.id)).where(Score.game_id == game_id)) or 0)


def away_seat(table: Table, user: User) -> int | None:
    return table.away_seat_of(user.id)


async def come_back(world: World, table: Table, user: User) -> None:
    """``user`` presses "I'm back" in the DM the computer's takeover sent them; their seat is theirs again."""
    await settled(world)
    dm = next(m for m in reversed(user.dms()) if m.buttons())
    back = next(b["custom_id"] for b in dm.buttons() if b["custom_id"].endswith(":back:"))
    assert (await (await user.click(dm, back)).response()).type in (6, 7)

    async def returned() -> bool:
        return away_seat(await world.tables.load(table.id), user) is None

    await stored(world, returned, f"{user.username}'s seat back")


@pytest.mark.parametrize(("game", "mode", "players"), MODES, ids=IDS)
async def test_an_absent_player_is_played_by_the_computer_comes_back_and_the_game_ends(
        world: World, monkeypatch: pytest.MonkeyPatch, game: str, mode: str, players: int) -> None:
    """Alice never moves: after her second timeout in a row the computer plays her seat and she gets a DM with
    "I'm back"; pressing it there returns the seat; silent again, the game still goes on to a proper end (Bob
    playing), scored for both people."""
    alice, bob = world.players[:2]
    bot = world.bot()
    async with world.running(bot):
        for seed in SEEDS:  # (a short deal may end before Alice's second timeout: the next deal is played)
            monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda seed=seed: seed))
            rng = random.Random(seed)
            table = await drive(world, bot, await start(world, game, mode, players), {bob.id}, rng,
                                until=lambda t: away_seat(t, alice) is not None)
            if table.status == "active":
                break
        assert table.status == "active", "the game ended before Alice's seat went to the computer"
        await come_back(world, table, alice)
        table = await drive(world, bot, await world.tables.load(table.id), {bob.id}, rng)
        assert table.status == "finished" and table.outcome is not None and not table.abandoned
        assert await scores(world, table.id) == 2
        assert await world.tables.replay_check(table.id)


@pytest.mark.parametrize(("game", "mode", "players"), MODES, ids=IDS)
async def test_a_table_whose_people_all_stay_silent_ends_abandoned(
        world: World, monkeypatch: pytest.MonkeyPatch, game: str, mode: str, players: int) -> None:
    """Nobody moves: once the computer plays both people's seats the game ends as abandoned (not played out),
    with no winner and no scores, and the table says so."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEEDS[0]))
    bot = world.bot()
    async with world.running(bot):
        table = await drive(world, bot, await start(world, game, mode, players), set(), random.Random(1))
        assert table.abandoned and table.outcome is not None and table.outcome.winners == []
        assert await scores(world, table.id) == 0
        await settled(world)
        assert any("abandoned" in m.text.lower() for m in world.bot_messages() if m.embeds)


# --- the social mode: a day without acting is a decision let go (ruling 31 of games/asesino/README.md) -----------
async def drive_days(world: World, bot: CoronerBot, table: Table, present: set[int], rng: random.Random,
                     until: Any = lambda table: False) -> Table:
    """Play the social game on until it is over or ``until(table)``: each day every present person makes one
    move of their policy through the one door, then the clock jumps to the day's end (the computer players move
    meanwhile)."""
    acted: set[tuple[int, int]] = set()
    for _ in range(MAX_STEPS):
        table = await world.tables.load(table.id)
        if table.status != "active" or until(table):
            return table
        mover = next((s for s in range(len(table.seats)) if table.user_of(s) in present
                      and s not in table.ai_seats() and (table.state.day, s) not in acted), None)
        if mover is not None:
            acted.add((table.state.day, mover))
            action = choose_action(table.engine, table.state, mover, rng)
            if action is not None:
                await ui_for(table.game, table.mode).play(bot, table, table.user_of(mover),
                                                          table.engine.dump_action(action))
            continue
        world.clock.set(max(world.clock.now(), table.state.day_ends_at) + timedelta(minutes=1))
        await moved(world, table, f"day {table.state.day}'s end")
    raise AssertionError(f"game {table.id} did not end in {MAX_STEPS} steps")


async def test_social_an_absent_player_is_played_by_the_computer_comes_back_and_the_game_ends(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice never acts: the end of her second idle day hands her seat to the computer and DMs her "I'm back",
    which returns it; silent again, the game still ends properly at its last day (Bob acting every day), scored
    for both people."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEEDS[0]))
    alice, bob = world.players[:2]
    bot = world.bot()
    rng = random.Random(3)
    async with world.running(bot):
        table = await drive_days(world, bot, await start(world, "asesino", "social", 6, max_days=4), {bob.id}, rng,
                                 until=lambda t: away_seat(t, alice) is not None)
        assert table.status == "active" and away_seat(table, bob) is None
        await come_back(world, table, alice)
        table = await drive_days(world, bot, await world.tables.load(table.id), {bob.id}, rng)
        assert table.status == "finished" and table.outcome is not None and not table.abandoned
        assert await scores(world, table.id) == 2


async def test_social_a_table_whose_people_all_stay_silent_ends_abandoned(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody acts: the end of the second idle day hands both seats to the computer: abandoned, no scores."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEEDS[0]))
    bot = world.bot()
    async with world.running(bot):
        table = await drive_days(world, bot, await start(world, "asesino", "social", 6), set(), random.Random(1))
        assert table.abandoned and table.outcome is not None and table.outcome.winners == []
        assert table.state.day <= 3 and await scores(world, table.id) == 0


async def test_a_newcomer_on_the_killers_seat_gets_the_answer_buttons_the_seat_owes(world: World) -> None:
    """Cereal Killer: the host hands the Killer's seat to Carol while the Detective's question waits on the Killer's
    answer. Carol's DM names the seat as it went (Alice's, not "Carol's": by now it goes by her name), lists the
    answers she may give and carries their buttons, as the old holder's prompt did (it had only the list; the
    buttons were on **My secrets**)."""
    async with world.running():
        alice, bob, carol = world.players[:3]
        await cereal_start(world, [alice, bob])
        before = (statuses(world)[-1].id, len(statuses(world)[-1].history))
        await alice.dm_bot(ROUTE)
        status = await next_status(world, before)
        status = await click(world, bob, status, "place", ["7"])
        status = await click(world, bob, status, "ask", ["direction"])
        prompt = await world.double.wait_for(lambda: alice.dms()[-1] if alice.dms()[-1].buttons() else None,
                                             what="the Killer's answer buttons")
        assert [b["label"] for b in prompt.buttons()] == ["South"]
        await (await alice.slash(world.games, "replace", seat=1, member=carol)).response()
        offer = next(m for m in reversed(world.bot_messages()) if carol.mention in m.content)
        await (await carol.click(offer, label="Take the seat")).response()
        (dm,) = await world.double.wait_for(lambda: carol.dms(), what="the seat's secrets")
        await settled(world)
        assert dm.text.startswith("You now play Alice's seat in the game in"), dm.text
        assert "Answers you may give now\nSouth" in dm.text
        assert [b.get("label") for b in dm.buttons()] == ["South"], dm.components
        count = mark(statuses(world))
        await (await carol.click(dm, label="South")).response()  # the button works for her: the game goes on
        status = await next_status(world, count)
        assert "(Which way are you from the Witness?): South" in status.text

