"""The social mode in ``bench_bot``: six players over a few real-time days on the injected clock (``max_days`` of the
lobby options), nobody else talking in the channel.

Each call makes one accepted move the way players make it: a night action picked on the "My actions" panel (an
ephemeral panel, then its target select), a judgement opened with ``/accuse`` and backed with the table's button,
or, when nobody has anything left to do or at random, the clock moved past the day's end (the bot ends the day:
the living table is edited with it). The picks come from the engine's legal actions, seeded per game.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from bot.tables import Table
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World

TITLE = "Asesino en Serie — social game"
OPTIONS = {"max_days": 3}
PLAYERS = 6
TARGETS = {"recruit": "target", "crime": "victim", "protect": "target", "inspect": "target",
           "maniac_kill": "target"}


async def prepare(world: World) -> None:
    """The server's official medium (the mode refuses to start without one)."""
    await (await world.admin.slash(world.games, "config medium", channel=world.medium)).response()


def _latest(world: World) -> StoredMessage:
    return [m for m in world.bot_messages() if m.embeds and m.embeds[0].get("title") == TITLE][-1]


def _user(world: World, table: Table, seat: int) -> Any:
    return next(u for u in world.players if u.id == table.user_of(seat))


async def social_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    """One accepted move of the social game (see the module docstring)."""
    state = table.state
    legal = {seat: table.engine.legal_actions(state, seat) for seat, s in enumerate(state.seats) if s.alive}
    backs = [(seat, a) for seat, actions in legal.items() for a in actions if a.type == "back_judgement"]
    if backs:
        seat, action = rng.choice(backs)
        latest = _latest(world)
        button = next(b for b in latest.buttons() if b["custom_id"].endswith(f":social_back:{action.judgement}"))
        await (await _user(world, table, seat).click(latest, custom_id=button["custom_id"])).response()
        return
    accusations = [(seat, a) for seat, actions in legal.items() for a in actions if a.type == "open_judgement"]
    if state.day >= 2 and accusations and rng.random() < 0.2:
        seat, action = rng.choice(accusations)
        handle = await _user(world, table, seat).slash(world.games, "accuse",
                                                       player=_user(world, table, action.accused))
        await handle.wait_followups(1)
        return
    picks = [(seat, a) for seat, actions in legal.items() for a in actions if a.type in TARGETS]
    if picks and rng.random() < 0.9 and await _pick(world, table, *rng.choice(picks)):
        return
    world.clock.set(max(world.clock.now(), state.day_ends_at) + timedelta(seconds=1))  # the day ends


async def _pick(world: World, table: Table, seat: int, action: Any) -> bool:
    """My actions -> the action's target select (False when its select is not on the panel's first page)."""
    user = _user(world, table, seat)
    handle = await user.click(_latest(world), label="My actions")
    await handle.response()
    panel = handle.original
    assert panel is not None
    target = str(getattr(action, TARGETS[action.type]))
    select = next((s for s in panel.selects() if s["custom_id"].endswith(f":social_target:{action.type}")
                   and target in [o["value"] for o in s["options"]]), None)
    if select is None:
        return False
    await (await user.select(panel, select["custom_id"], [target])).wait_followups(1)
    return True
