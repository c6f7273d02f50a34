"""An actor's own confirmation goes in the interaction's answer, not by DM (issue 20): :mod:`bot.replies`."""

from __future__ import annotations

from typing import cast

from bot.delivery import split_events
from bot.replies import REPLYING, in_reply, own_events, replying
from bot.ui import GameUI, Outgoing, RenderContext
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
        assert not in_reply(PAIR, KEYS)  # addressed to a group: not an echo as a whole (split_events asks per seat)
        assert not in_reply(OTHER, KEYS)  # not a confirmation of the move
        assert not in_reply(PUBLIC, KEYS)
        with replying(3):
            assert not in_reply(PEEK, KEYS)
        assert REPLYING.get() == 2
    assert REPLYING.get() is None


def test_own_events_are_the_seats_confirmations_in_order() -> None:
    """Its own confirmations, a group's among them (its partners read theirs by DM)."""
    second = Event(key="g.you.peek", params={"card": "cheese"}, audience=Audience.to(2))
    events = [PUBLIC, PEEK, PAIR, OTHER, second, Event(key="g.you.peek", params={}, audience=Audience.to(1))]
    assert own_events(events, 2, KEYS) == [PEEK, PAIR, second]
    assert own_events(events, 4, KEYS) == []


class _Echoing(GameUI):
    game = "g"

    def echoes(self, event: Event, events: list[Event]) -> bool:
        return in_reply(event, KEYS)

    def private_event(self, ctx: RenderContext, seat: int, event: Event) -> Outgoing:
        return Outgoing(content=f"{event.key} to {seat}")


def test_a_group_confirmation_is_no_dm_for_the_seat_answered_only() -> None:
    """A confirmation to a group (a Killer's crime, to the pair): the seat whose interaction is answered reads it
    there, every other seat of the group by DM; outside an answer all get their DM."""
    ui, ctx = _Echoing(), cast(RenderContext, None)  # (a seat event's text needs no context here)
    with replying(2):
        dms = split_events(ctx, ui, [PAIR])[1]
        assert {seat: [out.content for out in outs] for seat, outs in dms.items()} == {3: ["g.you.peek to 3"]}
        assert split_events(ctx, ui, [PEEK])[1] == {}
    assert sorted(split_events(ctx, ui, [PAIR])[1]) == [2, 3]
