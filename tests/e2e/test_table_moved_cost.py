"""What a step costs after the table was posted anew (issue 20): Verdugo's round end posts the reveal as a message of
its own, and the moves after it (the successor, the new round's first draw) act on the table this process remembers,
told where the table went, instead of reading the game again. A count, not a timing."""

from __future__ import annotations

import pytest

from bot.tables import TableService
from tests.e2e.conftest import World, stored
from tests.e2e.test_move_cost import COMMITS, STATEMENTS, delivered
from tests.e2e.test_verdugo import ALICE, BOB, CAROL, DAVE, ERIN, SEED, action_phase, chop, current, start_table, use
from tests.support.sql_count import SqlCount


@pytest.fixture
def verdugo_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """test_verdugo's seed: round 1 ends with the Saboteurs' win (dave's Shield passes the axe to erin)."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))


async def _counted(world: World, count: SqlCount, user: int, name: str, values: list[str] | None = None) -> tuple[
        int, int, dict[str, int]]:
    """``world.players[user]`` uses the control ``name``; the statements and commits of the bot's engine from the
    click to the step being marked delivered, and the statements by kind."""
    statements, commits, kinds = count.statements, count.commits, dict(count.kinds)
    await use(world, world.players[user], name, values)
    table = await current(world)
    await stored(world, lambda: delivered(world, table), "the step shown")
    return (count.statements - statements, count.commits - commits,
            {k: n - kinds.get(k, 0) for k, n in count.kinds.items() if n > kinds.get(k, 0)})


async def test_the_steps_after_a_table_posted_anew_read_nothing_again(world: World, verdugo_seed: None) -> None:
    """The reveal ending round 1 is a new table message; alice's successor choice and bob's first draw then cost
    at most a move's statements and commits, none reading the game (each read it again before)."""
    alice, dave = world.players[ALICE], world.players[DAVE]
    bot = world.bot()
    async with world.running(bot):
        await start_table(world, world.players, match="open")
        await action_phase(world, alice, [BOB, CAROL, DAVE, ERIN])
        await chop(world, alice, DAVE)
        await use(world, dave, "chop", arg=str(ERIN))
        await stored(world, lambda: _delivered_now(world), "the reveal shown")
        count = SqlCount(bot.db_engine)
        successor = await _counted(world, count, ALICE, "successor", [str(BOB)])
        draw = await _counted(world, count, BOB, "draw")
    for cost in (successor, draw):  # (9 and 8 statements when each read the game again)
        assert "SELECT games" not in cost[2] and cost[0] <= STATEMENTS and cost[1] <= COMMITS, cost


async def _delivered_now(world: World) -> bool:
    return await delivered(world, await current(world))
