"""Which of the social mode's seat events the delivery leaves out (issue 20): an idle reminder to a seat the same
day's end hands to the computer (ruling 34 of ``games/asesino/README.md``)."""

from __future__ import annotations

import pytest

from bot.cogs.asesino_social.days import HANDING_OVER, IDLE_REMINDER
from bot.cogs.asesino_social.ui import SOCIAL
from games.core import Audience, Event


def reminder(days: int) -> Event:
    return Event(key=IDLE_REMINDER, params={"days": days, "days_left": 3, "count": 3}, audience=Audience.to(1))


@pytest.mark.parametrize(("needed", "days", "sent"), [
    (None, 2, True),  # not shown by the day clock's own play: sent
    (2, 1, True),  # the seat is not handed over yet
    (2, 2, False),  # handed over right after: the away notice says it
    (3, 4, False),
])
def test_an_idle_reminder_is_left_out_only_for_a_seat_the_day_end_hands_to_the_computer(
        needed: int | None, days: int, sent: bool) -> None:
    """Left out while the day's end is shown with the server's ``timeouts_to_computer`` reached, sent otherwise."""
    token = HANDING_OVER.set(needed)
    try:
        assert SOCIAL.echoes(reminder(days), [reminder(days)]) is not sent
    finally:
        HANDING_OVER.reset(token)
