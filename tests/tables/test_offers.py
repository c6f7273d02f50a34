"""A seat offer's message is recorded after it is posted (:meth:`bot.tables.offers.OffersMixin.offer_posted`), so
an offer can end before the service knows its message: a host who supersedes an offer, or hands the seat over,
before the offer's own answer was recorded. Then its lapse handler, claimed already, cannot strip the message, and
the poster must: ``offer_posted`` says so by handing back the payload to end it with."""

from __future__ import annotations

from datetime import timedelta

from bot.tables import TableService
from bot.tables.seats import OFFER_TIMER
from tests.tables.conftest import NOW
from tests.tables.helpers import HOST, started

UNTIL = NOW + timedelta(minutes=15)


async def test_an_offer_recorded_in_time_is_ended_by_its_handler(service: TableService) -> None:
    """Recorded before any process claimed it: nothing for the poster to do; the handler's payload (due at once
    once superseded) carries the message."""
    table = await started(service, 2)
    first = await service.arm_offer(table.id, 1, 901, HOST, UNTIL, NOW)
    assert await service.offer_posted(first, 5001) is None
    await service.arm_offer(table.id, 1, 902, HOST, UNTIL, NOW)  # supersedes the first: due now
    (claimed,) = [t for t in await service.claim_timers(NOW, timedelta(minutes=1)) if t.kind == OFFER_TIMER]
    assert claimed.id == first and claimed.payload == {"seat": 1, "user_id": 901, "by": HOST,
                                                       "why": "superseded", "message": 5001}


async def test_an_offer_that_ended_before_its_message_was_recorded_is_handed_back(service: TableService) -> None:
    """Superseded and claimed (its handler ran without a message) before its message was recorded: the poster gets
    the payload, message and why included, to end it itself; an offer still standing gets None."""
    table = await started(service, 2)
    first = await service.arm_offer(table.id, 1, 901, HOST, UNTIL, NOW)
    second = await service.arm_offer(table.id, 1, 902, HOST, UNTIL, NOW)
    (claimed,) = [t for t in await service.claim_timers(NOW, timedelta(minutes=1)) if t.kind == OFFER_TIMER]
    assert claimed.id == first and "message" not in claimed.payload
    assert await service.offer_posted(first, 5001) == {"seat": 1, "user_id": 901, "by": HOST,
                                                        "why": "superseded", "message": 5001}
    assert await service.offer_posted(second, 5002) is None
    pending = {t.id: t.payload for t in await service.pending_timers(table.id) if t.kind == OFFER_TIMER}
    assert pending[second] == {"seat": 1, "user_id": 902, "by": HOST, "message": 5002}
