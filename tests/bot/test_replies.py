"""An actor's own confirmation goes in the interaction's answer, not by DM (issue 20): :mod:`bot.replies`."""

from __future__ import annotations

from bot.replies import REPLYING, in_reply, own_events, replying
from games.core import Audience, Event

KEYS = frozenset({"g.you.peek"})
PEEK = Event(key="g.you.peek", params={"card": "doll"}, audience=Audience.to(2))
PAIR = Event(key="g.you.peek", params={"card": "doll"}, audience=Audience.to(2, 3))
OTHER = Event(key="g.you.dealt", params={"card": "doll"}, audience=Audience.to(2))
PUBLIC = Event(key="g.you.peek", params={})


def test_only_the_answered_seats_own_confirmation_is_in_the_reply() -> None:
    assert not in_reply(PEEK, KEYS)  # no interaction being answered: it goes by DM
    with replying(2):
        assert in_reply(PEEK, KEYS)
        assert not in_reply(PAIR, KEYS)  # addressed to a group: the others read it by DM, so all do
        assert not in_reply(OTHER, KEYS)  # not a confirmation of the move
        assert not in_reply(PUBLIC, KEYS)
        with replying(3):
            assert not in_reply(PEEK, KEYS)
        assert REPLYING.get() == 2
    assert REPLYING.get() is None


def test_own_events_are_the_seats_confirmations_in_order() -> None:
    second = Event(key="g.you.peek", params={"card": "cheese"}, audience=Audience.to(2))
    events = [PUBLIC, PEEK, PAIR, OTHER, second, Event(key="g.you.peek", params={}, audience=Audience.to(1))]
    assert own_events(events, 2, KEYS) == [PEEK, second]
    assert own_events(events, 4, KEYS) == []
