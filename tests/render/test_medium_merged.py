"""A step's official medium posts go out as few messages as Discord's limits allow (issue 20: one REST call per
message, not per post), never cutting a text: :func:`bot.step_events.merged` over the social mode's posts with the
longest inputs (12 players with 32-character names of wide and astral characters, letters of the longest text)."""

from __future__ import annotations

from dataclasses import replace

from bot.step_events import merged
from bot.ui import RenderContext, ui_for
from games.asesino.social.actions import TEXT_LIMIT
from games.core import Audience, Event, SeatInfo
from tests.discord_double.limits import message_problems
from tests.render.test_every_message_fits import make_table, options_for, payload

NAMES = [("漢😀Ｗ" * 11)[:31] + str(i % 10) for i in range(12)]  # 32 characters, 43 UTF-16 units each
TEXT = ("😀 " * TEXT_LIMIT)[:TEXT_LIMIT]  # the longest letter, 2700 UTF-16 units


def social_context() -> RenderContext:
    table = make_table("asesino", "social", NAMES, "es", None, "active")
    state = table.engine.setup(options_for(table.engine, "asesino", "social"), [SeatInfo(names=(n,)) for n in NAMES],
                               7)
    return RenderContext(replace(table, state=state), "es")


def medium(key: str, **params: object) -> Event:
    return Event(key=key, params=params, audience=Audience.medium())


def test_a_steps_medium_posts_are_joined_while_they_fit_whole() -> None:
    ctx = social_context()
    ui = ui_for("asesino", "social")
    short = [medium("asesino_social.letter", seat=seat, day=3, text="Nunca me fié del panadero.") for seat in range(9)]
    outs = merged([ui.medium_event(ctx, e) for e in short])
    assert len(outs) == 1 and len(outs[0].embeds) == 9  # nine short letters of one day's end: one message
    long = [*[medium("asesino_social.letter", seat=seat, day=3, text=TEXT) for seat in range(11)],
            medium("asesino_social.clue", day=3, text=TEXT), medium("asesino_social.note", interviewee=11, day=3,
                                                                     text=TEXT)]
    posts = [ui.medium_event(ctx, e) for e in long]
    outs = merged(posts)
    assert 1 < len(outs) < len(posts)  # the longest texts: two a message (three exceed 6000), never one each
    assert [e.description for out in outs for e in out.embeds] == [p.embeds[0].description for p in posts]
    for out in outs:
        assert not message_problems(payload(out))
        assert [e.to_dict() for e in out.embeds] == payload(out)["embeds"]  # the budget cut nothing
