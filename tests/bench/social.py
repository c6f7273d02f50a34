"""The social mode in ``bench_bot``: real-time days on the injected clock (``max_days`` of the lobby options),
nobody else talking in the channel, in two shapes.

:func:`day_move` (**the game**, :data:`PLAYERS` = 8 players over :data:`OPTIONS`' 3 days) plays each day as its
players would: every power is used once a day (the Killer's recruitment and crime, the Doctor's protection, the
Detective's inspection, the Maniac's kill: never the Journalist's interview, a conversation), one judgement is opened
a day (two from day 2) with ``/accuse`` and about half the living players back each one with the table's button,
and whoever may write a Farewell Letter that day (the murdered, the judged, the saved) writes one, mostly, from the
panel's form; then the clock passes the day's end (the bot ends the day). A seat the computer plays (its player
stayed silent for days) is left to it. 14-18 moves a game, about 6 a day (the Killer's side, with the Maniac's
kills, often wins on day 3).

:func:`social_move` (the **old shape**, :data:`OLD_PLAYERS` = 6 players): each call, at random, a night action, a
judgement opened (day 2 on, one time in five) or backed, or the day's end, which came early: about 5 moves over the
3 days, so the deal's DMs weighed 1.4 REST calls a move. Kept to compare.

Each call makes one accepted move the way players make it: a night action picked on the "My actions" panel (an
ephemeral panel, then its target select), a judgement opened with ``/accuse`` and backed with the table's button, a
letter from the panel's form, or the clock moved past the day's end (the living table is edited with it). The picks
come from the engine's legal actions, seeded per game.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from bot.tables import Table
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World
from tests.e2e.social import panel_of

TITLE = "Asesino en Serie — social game"
OPTIONS = {"max_days": 3}
PLAYERS = 8
OLD_PLAYERS = 6
#: judgements opened on day 1, and on each later day
JUDGEMENTS = (1, 2)
#: how often a living player backs an open judgement, and one who may writes their Farewell Letter
BACKS, LETTERS = 0.5, 0.8
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
        await _back(world, table, seat, action.judgement)
        return
    accusations = [(seat, a) for seat, actions in legal.items() for a in actions if a.type == "open_judgement"]
    if state.day >= 2 and accusations and rng.random() < 0.2:
        await _accuse(world, table, *rng.choice(accusations))
        return
    picks = [(seat, a) for seat, actions in legal.items() for a in actions if a.type in TARGETS]
    if picks and rng.random() < 0.9 and await _pick(world, table, *rng.choice(picks)):
        return
    world.clock.set(max(world.clock.now(), state.day_ends_at) + timedelta(seconds=1))  # the day ends


async def _pick(world: World, table: Table, seat: int, action: Any) -> bool:
    """My actions -> the action's target select (False when its select is not on the panel's first page)."""
    user = _user(world, table, seat)
    panel = await panel_of(await user.click(_latest(world), label="My actions"))
    target = str(getattr(action, TARGETS[action.type]))
    select = next((s for s in panel.selects() if s["custom_id"].endswith(f":social_target:{action.type}")
                   and target in [o["value"] for o in s["options"]]), None)
    if select is None:
        return False
    await (await user.select(panel, select["custom_id"], [target])).wait_followups(1)
    return True


#: per game and day, what was decided already: (seat, kind) of a power used or given up, (seat, judgement) of a
#: back made or not, ``("letter", seat)``, ``("judgements", n)``
_DONE: dict[tuple[int, int], set[Any]] = {}


async def day_move(world: World, table: Table, rng: random.Random, title: str) -> None:
    """One accepted move of the game (see the module docstring): a back, a power, a letter, an accusation, or the
    day's end, in that order of preference, each decided once per seat and day."""
    state = table.state
    done = _DONE.setdefault((table.id, state.day), set())
    legal = {seat: table.engine.legal_actions(state, seat) for seat in range(len(state.seats))
             if not table.seats[seat].played_by_computer}  # (a seat handed to the computer for silence plays itself)
    for seat, actions in legal.items():
        for action in actions:
            if action.type == "back_judgement" and (seat, action.judgement) not in done:
                done.add((seat, action.judgement))
                if rng.random() < BACKS:
                    await _back(world, table, seat, action.judgement)
                    return
    powers = sorted({(seat, a.type) for seat, actions in legal.items() for a in actions
                     if a.type in TARGETS and state.seats[seat].alive} - done)
    for seat, kind in powers:
        done.add((seat, kind))
        action = rng.choice([a for a in legal[seat] if a.type == kind])
        if await _pick(world, table, seat, action):
            return
    for seat, actions in legal.items():
        if ("letter", seat) not in done and any(a.type == "write_letter" for a in actions):
            done.add(("letter", seat))
            if rng.random() < LETTERS:
                await _letter(world, table, seat)
                return
    opened = sum(1 for d in done if d[0] == "judgements")
    accusations = [(seat, a) for seat, actions in legal.items() for a in actions if a.type == "open_judgement"]
    if accusations and opened < JUDGEMENTS[state.day > 1]:
        done.add(("judgements", opened))
        await _accuse(world, table, *rng.choice(accusations))
        return
    world.clock.set(max(world.clock.now(), state.day_ends_at) + timedelta(seconds=1))  # the day ends


async def _accuse(world: World, table: Table, seat: int, action: Any) -> None:
    handle = await _user(world, table, seat).slash(world.games, "accuse", player=_user(world, table, action.accused))
    await handle.wait_followups(1)


async def _back(world: World, table: Table, seat: int, judgement: int) -> None:
    latest = _latest(world)
    button = next(b for b in latest.buttons() if b["custom_id"].endswith(f":social_back:{judgement}"))
    await (await _user(world, table, seat).click(latest, custom_id=button["custom_id"])).response()


async def _letter(world: World, table: Table, seat: int) -> None:
    """My actions -> Write the Farewell Letter -> its form, submitted."""
    user = _user(world, table, seat)
    panel = await panel_of(await user.click(_latest(world), label="My actions"))
    button = next(b for b in panel.buttons() if b["custom_id"].endswith(":social_write:write_letter"))
    form = await user.click(panel, custom_id=button["custom_id"])
    assert (await form.response()).modal is not None
    await user.submit_modal(form, {"text": "I never trusted the baker. / Nunca me fié del panadero."})
