"""A step committed while its player's interaction is answered (:func:`bot.replies.replying`) records that seat, and
its delivery judges that seat's confirmations by it, whichever task delivers the step (issue 20: the actor's own
confirmation is the answer, never a DM as well; an earlier step another player's task delivers keeps its DMs)."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.replies import in_reply, replying
from bot.tables import Table, TableService, current_step
from games.core import Event
from tests.tables.conftest import NOW
from tests.tables.helpers import started

Sessions = async_sessionmaker[AsyncSession]
#: the potato's whisper stands for a move's own confirmation (a whisper to oneself: the actor's own)
KEYS = frozenset({"potato.whisper"})


class Dms:
    """A deliver callback recording, per step (by its version: a step read back is shown with the latest table),
    the seats it DMs (seat events that are no echo, as :meth:`bot.ui.GameUI.echoes` asks
    :func:`bot.replies.in_reply`) and the task that delivered it; the step of version ``hold`` waits for
    :attr:`release` (set :attr:`entered` first)."""

    def __init__(self, hold: int | None = None) -> None:
        self.dms: dict[int, list[int]] = {}
        self.tasks: dict[int, asyncio.Task[object] | None] = {}
        self.hold = hold
        self.entered, self.release = asyncio.Event(), asyncio.Event()

    async def __call__(self, table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        if step.version == self.hold:
            self.entered.set()
            await self.release.wait()
        self.dms[step.version] = sorted(seat for e in events if e.audience.kind == "seats" and not in_reply(e, KEYS)
                                         for seat in e.audience.seats)
        self.tasks[step.version] = asyncio.current_task()


def whisper(table: Table, seat: int, to: int) -> tuple[int, dict[str, object]]:
    user = table.user_of(seat)
    assert user is not None
    return user, {"type": "whisper", "to": to, "text": "psst"}


async def test_a_step_answered_in_its_players_task_is_no_dm_when_an_earlier_steps_task_delivers_it(
        sessions: Sessions) -> None:
    """Seat 1 whispers to seat 2 (no interaction answered: its DM goes); while that step is being delivered, seat 0
    confirms its own move in its answer (a whisper to itself under ``replying(0)``): its step waits for the drain
    showing the first, which shows it too, and sends no DM for the echo."""
    dms = Dms()
    service = TableService(sessions, deliver=dms, clock=lambda: NOW)
    table = await started(service, 3)
    dms.hold = table.version + 1
    first = asyncio.create_task(service.act(table.id, *whisper(table, 1, 2)))
    await dms.entered.wait()

    async def answered() -> None:
        with replying(0):
            await service.act(table.id, *whisper(table, 0, 0))

    second = asyncio.create_task(answered())
    while not service.deliverer._queued:  # (its drain waits for the first one's; yields only, never sleeps)
        await asyncio.sleep(0)
    dms.release.set()
    await asyncio.gather(first, second)
    assert dms.dms[table.version + 1] == [2] and dms.dms[table.version + 2] == []
    assert dms.tasks[table.version + 2] is first  # shown by the first step's drain, where nobody is answered


async def test_an_earlier_step_the_answered_task_delivers_keeps_its_dm(sessions: Sessions) -> None:
    """A step read back from the outbox (committed by a process that died before showing it) is shown by the next
    move's drain, in the task answering seat 0: seat 1's whisper to seat 0 in it is still seat 0's DM (it answers
    nobody's interaction), and seat 0's own confirmation in the answered step is no DM."""
    crashed = TableService(sessions, clock=lambda: NOW)  # commits, never delivers
    table = await started(crashed, 3)
    await crashed.act(table.id, *whisper(table, 1, 0))
    dms = Dms()
    restarted = TableService(sessions, deliver=dms, clock=lambda: NOW)
    with replying(0):
        await restarted.act(table.id, *whisper(table, 0, 0))
    assert dms.dms == {table.version: [0, 1, 2], table.version + 1: [0], table.version + 2: []}
