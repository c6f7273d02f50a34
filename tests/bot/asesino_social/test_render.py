"""The social mode's rendering: event params become names, role names and Discord timestamps; the public
status never shows a role before the end; DMs are routed to letter writers and interviews only."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cogs.asesino_social import render
from bot.cogs.asesino_social.ui import SocialUI
from bot.errors import error_text
from bot.tables import Table, TableSeat
from bot.ui import RenderContext
from games.asesino.social import (
    ENGINE,
    SYSTEM_SEAT,
    Crime,
    EndDay,
    Interview,
    ManiacKill,
    Recruit,
    SocialOptions,
    SocialRole,
    WriteLetter,
)
from games.core import Event, IllegalAction, SeatInfo
from tests.games.asesino.social.helpers import DOC, MAN, Game, K, V

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def make_table(state: object) -> Table:
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(n,)) for i, n in enumerate(NAMES))
    return Table(id=1, game="asesino", mode="social", guild_id=1, channel_id=2, host_id=100, status="active",
                 seed=9, options={}, version=1, language="en", series_id=None, lobby_message_id=None,
                 table_message_id=None, created_at=START, updated_at=START, finished_at=None, outcome=None,
                 seats=seats, state=state, engine=ENGINE)


def new_state():  # type: ignore[no-untyped-def]
    return ENGINE.setup(SocialOptions(started_at=START), [SeatInfo(names=[n]) for n in NAMES], 9)


def seat_of(state, role: SocialRole) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, s in enumerate(state.seats) if s.card == role)


@pytest.mark.parametrize(("key", "params", "expected"), [
    ("asesino_social.attack.saved", {"target": 1, "doctor": 2, "attackers": [0, 3]},
     "The Doctor, Carol, arrived in time: Bob survived an attack by the killers (Alice, Dave)."),
    ("asesino_social.inspect.result", {"target": 4, "card": "killer"}, "Erin holds the card: Killer."),
    ("asesino_social.day.ended", {"day": 1, "next_day": 2, "ends_at": "2026-12-01T09:00:00+00:00"},
     "Day 1 is over. Day 2 ends at <t:1796115600:f> (<t:1796115600:R>)."),
    ("asesino_social.judgement.stood", {"judgement": 1, "accused": 0, "card": "victim", "backers": [1, 2, 3]},
     "Judgement #1 stands: Alice shows their card: Victim."),
])
def test_event_params_render_as_names_roles_and_timestamps(key: str, params: dict, expected: str) -> None:
    """Seats become names, role values role names, ISO moments Discord timestamps."""
    ctx = RenderContext(make_table(new_state()), "en")
    assert render.event_text(ctx, Event(key=key, params=params)) == expected


def test_public_status_shows_no_role_before_the_end_and_everything_after() -> None:
    """The status embed (public view) names no role mid-game; at the end it lists every card and the timeline."""
    state = new_state()
    killer, victim = seat_of(state, SocialRole.KILLER), seat_of(state, SocialRole.VICTIM)
    state = ENGINE.apply(state, killer, Recruit(at=START, target=victim)).state
    ctx = RenderContext(make_table(state), "en")
    embed = render.table_embed(ctx, ENGINE.view(state, None)).to_dict()
    text = str(embed)
    assert not any(role in text for role in ("Killer", "Accomplice", "Doctor", "Detective", "Journalist"))
    assert "<t:" in embed["description"]


def test_system_timeline_entries_and_end_lists_render() -> None:
    """The timeline groups by day and names the system seat's day ends without a player name."""
    state = new_state()
    ends = state.day_ends_at
    state = ENGINE.apply(state, SYSTEM_SEAT, EndDay(at=ends, day=1)).state
    ctx = RenderContext(make_table(state), "en")
    text = render.timeline_text(ctx, [e.model_dump(mode="json") for e in state.timeline])
    assert text == "**Day 1**\n• End of day 1"
    roles = [{"seat": 0, "card": "victim", "role": "accomplice"}, {"seat": 1, "card": "killer", "role": "killer"}]
    assert render.roles_text(ctx, roles) == "• Alice: Victim → Accomplice\n• Bob: Killer"


def test_dms_are_accepted_from_letter_writers_and_the_interview_only() -> None:
    """Nobody's DM is for the game at first; the victim of a crime and both sides of an interview may DM."""
    ui = SocialUI()
    state = new_state()
    killer, victim = seat_of(state, SocialRole.KILLER), seat_of(state, SocialRole.VICTIM)
    journalist = seat_of(state, SocialRole.JOURNALIST)
    assert not any(ui.accepts_dm(make_table(state), s) for s in range(6))
    state = ENGINE.apply(state, killer, Recruit(at=START, target=victim)).state
    target = next(s for s in range(6) if s not in (killer, victim, journalist))
    state = ENGINE.apply(state, journalist, Interview(at=START, target=target)).state
    other = next(s for s in range(6) if s not in (killer, victim, journalist, target))
    state = ENGINE.apply(state, killer, Crime(at=START, victim=other)).state
    table = make_table(state)
    assert {s for s in range(6) if ui.accepts_dm(table, s)} == {journalist, target, other}


@pytest.mark.parametrize("key", ["asesino_social.letter", "asesino_social.note", "asesino_social.anonymous_post",
                                 "asesino_social.clue"])
def test_player_text_in_the_medium_can_neither_ping_nor_show_a_name(key: str) -> None:
    """Issue 12: every text a player writes that the bot shows others is shown with mentions neutralised: a
    user, role or channel mention, @everyone and @here appear as typed, never as a name or a ping."""
    ctx = RenderContext(make_table(new_state()), "en")
    text = "<@100> <@!101> <@&102> <#103> @everyone @here"
    params = {"seat": 1, "interviewee": 2, "day": 1, "post": 1, "character": "asesino_social.character.cook",
              "text": text}
    shown = render.medium_post(ctx, Event(key=key, params=params)).description or ""
    for token in ("<@100>", "<@!101>", "<@&102>", "<#103>", "@everyone", "@here"):
        assert token not in shown
    assert "<\u200b@100>" in shown and "@\u200beveryone" in shown


def test_the_killers_victory_is_posted_to_the_official_medium() -> None:
    """Rulebook: "The killer's victory must be announced through the official medium of the game": the medium
    event renders as a post naming the Killer and the accomplice."""
    ctx = RenderContext(make_table(new_state()), "en")
    event = Event(key="asesino_social.end.criminals_win", params={"killer": 0, "accomplice": 3, "murders": 3},
                  audience={"kind": "medium"})
    out = SocialUI().medium_event(ctx, event)
    text = str(out.embeds[0].to_dict())
    assert "Alice" in text and "Dave" in text and "criminals win" in text


@pytest.mark.parametrize(("language", "start"), [
    ("en", "⛔ Your text mentions a server role: <@&1>. Role mentions are not allowed"),
    ("es", "⛔ Tu texto menciona un rol del servidor: <@&1>. No se permiten menciones de roles"),
])
def test_a_letter_refused_for_a_role_mention_says_it_names_a_role(language: str, start: str) -> None:
    """The refusal of ``letter: <@&1> did it`` speaks of a role, not of "a player" as it used to."""
    text = error_text(language, IllegalAction("asesino_social.letter_names_role", words="<@&1>"))
    assert text.startswith(start)


@pytest.mark.parametrize(("language", "death", "why"), [
    ("en", "Murders: 3 of 3", "whatever the murder count"),
    ("es", "Asesinatos: 3 de 3", "sea cual sea la cuenta de asesinatos")])
def test_the_maniac_killing_the_killer_as_the_last_murder_says_why_the_good_side_still_wins(
        language: str, death: str, why: str) -> None:
    """Issue 21: 2 crimes, then the Maniac kills the Killer: the death line says "Murders: 3 of 3" (the
    criminals' tally), so the result must say what ended it: the Killer's death, whatever the count."""
    game = Game([K, V, V, V, MAN, DOC])
    game.act(0, Recruit, target=1)
    game.act(0, Crime, victim=2)
    game.end_day()
    game.act(0, Crime, victim=3)
    events = game.act(4, ManiacKill, target=0)
    ctx = RenderContext(make_table(game.state), language)
    ui = SocialUI()
    lines = [ui.public_event(ctx, e) or "" for e in events if e.audience.kind == "public"]
    assert any(death in line for line in lines)
    outcome = ENGINE.outcome(game.state)
    assert outcome is not None and outcome.reason == "asesino_social.end.maniac_killed_killer"
    assert why in ui.outcome_text(ctx, outcome)


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("en", "letter: the rain was loud", "on the day you die, are judged or are saved by the Doctor"),
    ("es", "carta: llovía mucho", "el día en que mueres, eres juzgado o te salva el Doctor")])
def test_a_letter_command_on_a_day_without_a_letter_is_claimed_and_refused_saying_when(
        language: str, text: str, expected: str) -> None:
    """Issue 21: the game takes no DM from a living player on day 1, yet ``letter:`` / ``carta:`` is plainly
    meant for it: the DM goes to the game, whose refusal says when a letter is taken; other text is not claimed."""
    state = new_state()
    table = make_table(state)
    ui = SocialUI()
    assert not ui.accepts_dm(table, 2) and ui.claims_dm(table, 2, text)
    assert not ui.claims_dm(table, 2, "hello there") and not ui.claims_dm(table, None, text)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 2, WriteLetter(text="x", at=START))
    assert expected in error_text(language, refused.value, table)
