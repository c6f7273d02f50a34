"""End to end, ``coroner replay`` (the database and ``/history``'s exported JSON) on what the table adds to the
engine's outcome: a game whose people earned achievements and a game abandoned to the computer replay to their
stored outcome (the achievements and the abandonment are replayed, not skipped); a stored outcome edited after the
fact is still caught."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.achievements import achievement_name
from bot.history.command import replay_all, replay_file
from bot.history.record import check
from bot.history.store import load_record
from bot.history.timeline import timeline
from bot.i18n import catalog
from bot.tables import TableService
from tests.e2e.conftest import World, settled, until_delivered
from tests.e2e.test_achievements import SEED as ACHIEVEMENTS_SEED
from tests.e2e.test_seats import SEED as SEATS_SEED
from tests.e2e.test_seats import start, time_out


async def test_a_game_with_achievements_replays_to_its_stored_outcome(world: World,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice, Bob and a computer player, random legal moves on the deal where a person earns an achievement (as in
    ``test_achievements``): the stored outcome carries them, the database check and the export both say ok; an
    achievement the replay does not earn, or one given to the computer's seat, is reported."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: ACHIEVEMENTS_SEED))
    alice, bob = world.players[:2]
    bot = world.bot()
    async with world.running(bot):
        table = await start(world, "en", [alice, bob], ai=1)
        rng = random.Random(7)
        while table.status == "active":
            legal = [(s.seat, s.user_id, a) for s in table.seats
                     for a in table.engine.legal_actions(table.state, s.seat)]
            seat, user, action = rng.choice(legal)
            table = (await bot.tables.act(table.id, user, action.model_dump(mode="json"),
                                          seat=None if user is not None else seat)).table
        await until_delivered(world)
    assert table.outcome is not None and table.outcome.achievements
    results = await replay_all(world.sessions)
    assert [(r.game_id, r.problem) for r in results] == [(table.id, None)]
    record = await load_record(world.sessions, table.id)
    exported = record.to_json()
    assert exported["outcome"]["achievements"] and replay_file(exported) is None
    result = timeline(record, "en")[-1].lines  # /history's result: the achievements the people saw under it
    shown = next(line for line in result if line.startswith(catalog("en").render("outcome.achievements")))
    assert all(achievement_name("asesino", a, "en") in shown
               for names in table.outcome.achievements.values() for a in names)

    person = next(iter(table.outcome.achievements))
    computer = next(s.seat for s in table.seats if s.is_ai)
    for extra, problem in ((person, "not_an_achievement"), (computer, "the computer's")):
        forged = table.outcome.model_copy(update={"achievements": {
            **table.outcome.achievements, extra: [*table.outcome.achievements.get(extra, []), "not_an_achievement"]}})
        said = check(replace(record, table=replace(record.table, outcome=forged)))
        assert said is not None and said.startswith("the stored outcome has achievements the replay does not earn")
        assert problem in said
        said = replay_file({**exported, "outcome": forged.model_dump(mode="json")})
        assert said is not None and said.startswith("the recorded outcome has achievements") and problem in said


async def test_an_abandoned_game_replays_to_its_abandonment(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice and a computer player; Alice lets her time run out until the computer has her seat too and the game
    ends abandoned (reason ``table.abandoned``, which no engine gives): the database check and the export say ok,
    the log's last action being the change of hands that left every seat to the computer. The same record without
    that last action, or with the stored outcome turned into a win, is reported."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEATS_SEED))
    alice = world.players[0]
    async with world.running():
        table = await start(world, "en", [alice], ai=1)
        while table.status == "active":
            table = await time_out(world, table, 301 if table.engine.waiting(table.state).seats[0] == 0 else 7)
        await settled(world)
    assert table.abandoned
    results = await replay_all(world.sessions)
    assert [(r.game_id, r.problem) for r in results] == [(table.id, None)]
    record = await load_record(world.sessions, table.id)
    assert record.actions[-1].action == {"type": "seat_away", "seat": 0}
    exported = record.to_json()
    assert exported["outcome"]["reason"] == "table.abandoned" and replay_file(exported) is None
    result = timeline(record, "en")[-1].lines  # /history's result says it was abandoned, as the table did
    assert any(catalog("en").render("table.abandoned") in line for line in result)

    cut = {**exported, "actions": exported["actions"][:-1]}
    assert replay_file(cut) == "the replay ends with another outcome than the recorded one"
    won = {**exported, "outcome": {**exported["outcome"], "winners": [1]}}
    assert replay_file(won) == "the replay ends with another outcome than the recorded one"
    assert check(replace(record, actions=record.actions[:-1])) == \
        "the replay ends with another outcome than the stored one"
