"""The Let's Kill! UI without Discord: every event and refusal has its words in both languages, card ids become
names, the public table fits Discord's limits on a crowded game, and it never shows a hand or a face-down Surprise."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from discord import Embed

from bot.budget import fit_message
from bot.cogs.lets_kill import render
from bot.cogs.lets_kill.ui import LetsKillUI
from bot.i18n.catalog import load_language
from bot.tables import Table, TableSeat
from bot.ui import RenderContext
from games.core import Event, SeatInfo
from games.lets_kill import rules
from games.lets_kill.cards import CARDS, LETS_KILL_DECK, VICTIMS_DECK
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import Incident, LetsKillOptions, LetsKillState, PlayCard, Respond
from tests.games.lets_kill.support import answer_window, build, ready

START = datetime(2026, 1, 1, tzinfo=UTC)
UI = LetsKillUI()
SOURCES = Path(__file__).resolve().parents[3] / "games" / "lets_kill"


def ctx_of(state: LetsKillState, language: str = "en", name_length: int = 5) -> RenderContext:
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(f"p{i}".ljust(name_length, "x"),))
                  for i in range(len(state.seats)))
    table = Table(id=1, game="lets_kill", mode="classic", guild_id=1, channel_id=2, host_id=100, status="active",
                  seed=7, options={}, version=3, language=language, series_id=None, lobby_message_id=None,
                  table_message_id=None, created_at=START, updated_at=START, finished_at=None, outcome=None,
                  seats=seats, state=state, engine=ENGINE)
    return RenderContext(table, language)


def played_events(seed: int, players: int) -> list[tuple[LetsKillState, list[Event]]]:
    state = ENGINE.setup(LetsKillOptions(), [SeatInfo() for _ in range(players)], seed)
    rng, out = random.Random(seed), [(state, ENGINE.intro(state))]
    while ENGINE.outcome(state) is None:
        seat = rng.choice(ENGINE.to_act(state))
        step = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        state = step.state
        out.append((state, step.events))
    return out


def test_every_key_the_engine_can_send_is_in_both_catalogues() -> None:
    """Event keys, refusal codes and outcome reasons written in the engine exist in English and Spanish."""
    text = "\n".join(p.read_text() for p in SOURCES.glob("*.py"))
    keys = {f"lets_kill.{k}" for k in re.findall(r'(?:say|tell)\((?:seat, )?"([a-z_]+)"', text)}
    keys |= set(re.findall(r'IllegalAction\("(lets_kill\.[a-z_]+)"', text))
    keys |= {f"lets_kill.end.{r}" for r in ("deck", "victims", "declared")} | {"lets_kill.dealt",
                                                                                "lets_kill.started", "lets_kill.hand"}
    for language in ("en", "es"):
        assert sorted(keys - set(load_language(language))) == []


@pytest.mark.parametrize("language", ["en", "es"])
def test_random_game_events_render_with_names_and_no_placeholders(language: str) -> None:
    """Every event of a random game renders fully (no ``{param}`` left, no raw card id)."""
    for state, events in played_events(3, 4):
        ctx = ctx_of(state, language)
        for event in events:
            text = render.event_text(ctx, event)
            assert "{" not in text and not re.search(r"\b[WSELV]\d\d\b", text), (event, text)


def test_public_table_fits_and_hides_secrets_in_a_crowded_game() -> None:
    """Five players with 32-character names, many Victims and Incidents: the embed fits Discord's limits with the
    table's log and the result added, and names no card in a hand nor a face-down Surprise."""
    victims = [v for v in VICTIMS_DECK if v.startswith("V") and v not in ("V01", "V02", "V03")]
    weapons = [w for w in LETS_KILL_DECK if w.startswith("W")]
    incidents = [Incident(id=i + 1, owner=i % 5, weapon=weapons[i], victims=[victims[i]]) for i in range(20)]
    state = build(hands=[["E01"], ["E02"], ["E03"], ["E04"], ["E05"]], start=False, incidents=incidents,
                  locations={"L08": victims[20:36]}, town=victims[36:], surprises={victims[20]: "S01"})
    ctx = ctx_of(state, name_length=32)
    embed = UI.table_embed(ctx, ENGINE.view(state, None))
    # room left for the living table's "last moves" field (1024 + its name) and a result embed
    assert len(embed) <= 6000 - 1100 - 900 and len(embed.fields) < 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    shown = str(embed.to_dict())
    for secret in ("Anonymous Tip", "Block Party", "Killing Spree", "Stakeout", "Free Samples", "Secret Millionaire"):
        assert secret not in shown


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_victim_and_location_in_play_is_on_the_table(language: str) -> None:
    """Issue 21: all 12 Locations and 35 Victims in play, five players with 32-character names and 8 Incidents:
    every Location and every Victim (with its 🂠) is shown, after the message budget has added the living table's
    full log and a result embed; the legend names the marks; nothing reads "…and N more" in the play area."""
    locations = sorted(c for c in VICTIMS_DECK if c.startswith("L"))
    victims = sorted(v for v in VICTIMS_DECK if v.startswith("V"))
    in_play, elsewhere = victims[:35], victims[35:]
    weapons = sorted(w for w in LETS_KILL_DECK if w.startswith("W"))
    incidents = [Incident(id=i + 1, owner=i % 5, weapon=weapons[i], victims=[elsewhere[i]]) for i in range(8)]
    placed = {loc: in_play[2 * i:2 * i + 2] for i, loc in enumerate(locations)}  # 24 on Locations
    state = build(hands=[["E01"], ["E02"], ["E03"], ["E04"], ["E05"]], start=False, incidents=incidents,
                  locations=placed, town=in_play[24:], surprises={in_play[0]: "S01", in_play[30]: "S02"})
    ctx = ctx_of(state, language, name_length=32)
    embed = UI.table_embed(ctx, ENGINE.view(state, None))
    embed.add_field(name=ctx.t("table.last_moves"), value="\n".join(["x" * 60] * 16), inline=False)
    result = Embed(description="r" * 900)
    fitted = fit_message("x" * 100, [embed, result], None, language=language)
    assert sum(len(e) for e in fitted.embeds) <= 6000
    table = fitted.embeds[0]
    area = [f for f in table.fields if not f.name.startswith(("p0", "p1", "p2", "p3", "p4"))][:-1]
    shown = "\n".join(f"{f.name}\n{f.value}" for f in area)
    for card_id in [*locations, *in_play]:
        assert CARDS[card_id].name in shown, card_id
    assert f"{CARDS[in_play[0]].name} · {CARDS[in_play[0]].points} 🂠" in shown
    assert f"{CARDS[in_play[30]].name} · {CARDS[in_play[30]].points} 🂠" in shown
    assert shown.count("🂠") == 2 and ctx.t("lets_kill.ui.more", count=1)[:4] not in shown
    legend = table.footer.text or ""
    assert "🂠" in legend and "(2/3)" in legend
    assert all(ctx.t("lets_kill.ui.player_field", seat=ctx.shown_name(s), score=rules.score(state, s),
                     hand=1) in [f.name for f in table.fields] for s in range(5))


@pytest.mark.parametrize(("language", "hand"), [
    ("en", "• Pocket Derringer — Weapon · Gun · body count 1\n• Secret Millionaire — Surprise ☺\n"
           "• Sirens — Response Event ⏰ (in other players' turns)"),
    ("es", "• Pocket Derringer — Arma · Pistola · víctimas máximas 1\n• Secret Millionaire — Sorpresa ☺\n"
           "• Sirens — Evento de Respuesta ⏰ (en turnos ajenos)"),
])
def test_secrets_show_the_hand_with_what_each_card_is_and_known_surprises(language: str, hand: str) -> None:
    """My secrets: each card with its type and attributes, in the game's language; the Surprises the seat knows."""
    state = build(hands=[["W01", "S01", "E13-1"], [], []], start=False, town=["V05"], surprises={"V05": "S02"})
    state.known[0].append("S02")
    embed = UI.secrets_embed(ctx_of(state, language), 0, ENGINE.view(state, 0))
    assert [f.value for f in embed.fields] == [hand, "Wanda Wholesome: Had It Coming"]


def test_every_legal_action_has_a_short_label() -> None:
    """Select labels stay within 100 characters and never show a raw id."""
    for state, _ in played_events(5, 3)[:200]:
        ctx = ctx_of(state)
        owners = {inc.id: inc.owner for inc in state.incidents}
        for seat in ENGINE.to_act(state):
            for action in ENGINE.legal_actions(state, seat):
                label: Any = render.action_label(ctx, action, owners)
                assert 0 < len(label) <= 100 and "{" not in label


def test_answers_do_not_extend_a_response_window() -> None:
    """An answer leaves the window opened earlier as the decision the game waits on, so the timers armed at its
    opening stand (no fresh window per answer); the window lasts the table's ``window_seconds`` option (LK-19),
    not a server setting."""
    state = build(hands=[[], [], []], victims_top=["V04"])
    config = SimpleNamespace(response_window_seconds=900, prompt_timeout_seconds=30, turn_timeout_seconds=300)
    ui = LetsKillUI()
    opened = replace(ctx_of(state).table, version=3, updated_at=START, options={"window_seconds": 60})
    assert (opened.decision_opened, ui.move_timeout(opened, config)) == (3, 60)
    answered = ENGINE.apply(state, 1, Respond()).state
    later = replace(opened, version=4, state=answered, updated_at=START + timedelta(seconds=25))
    assert later.decision_opened == 3
    played = replace(later, version=9, state=build(hands=[["E02"], [], []], victims_top=["V04"]))
    assert (played.decision_opened, ui.move_timeout(played, config)) == (9, 60)  # a new window


def test_a_hand_dm_lists_each_card_with_its_type() -> None:
    """The hand DM (dealt or changed) is one line per card; an empty hand still says so."""
    state = build(hands=[["W01"], [], []], start=False)
    ctx = ctx_of(state)
    dm = UI.private_event(ctx, 0, Event(key="lets_kill.hand", params={"cards": ["W01", "E02"]}))
    assert dm.embeds[0].title == "Your hand"
    assert dm.embeds[0].description == "• Pocket Derringer — Weapon · Gun · body count 1\n• Block Party — Event"
    empty = UI.private_event(ctx, 0, Event(key="lets_kill.hand", params={"cards": []}))
    assert empty.embeds[0].description == "—"


def test_a_response_window_lasts_15_seconds_by_default() -> None:
    """LK-19: "It waits for submissions for T seconds (table setting, default 15 s)"."""
    state = build(hands=[[], [], []], victims_top=["V04"])
    config = SimpleNamespace(response_window_seconds=900, prompt_timeout_seconds=30, turn_timeout_seconds=300)
    table = replace(ctx_of(state).table, version=3, updated_at=START, options={})
    assert LetsKillUI().move_timeout(table, config) == 15


def test_a_shootout_pledge_waits_the_tables_pledge_seconds() -> None:
    """§7.7: a pledge waits a table setting (default 20 s), not the server's prompt time (README ruling 12)."""
    state = ready([["W11", "W01"], [], []], locations={"L08": ["V05", "V01"]})
    state = answer_window(ENGINE.apply(state, 0, PlayCard(card="W11", victims=["V05"])).state)
    assert state.pending is not None and state.pending.kind == "pledge"
    config = SimpleNamespace(response_window_seconds=900, prompt_timeout_seconds=180, turn_timeout_seconds=300)
    table = replace(ctx_of(state).table, options={})
    assert LetsKillUI().move_timeout(table, config) == 20
    assert LetsKillUI().move_timeout(replace(table, options={"pledge_seconds": 45}), config) == 45
    assert LetsKillOptions.model_json_schema()["properties"]["pledge_seconds"]["maximum"] == 300
    step2 = replace(table, state=ready([["W01"], [], []]), options={"pledge_seconds": 45})  # Step 2: turn time
    assert LetsKillUI().move_timeout(step2, config) == 300


def embed_text(embed: Any) -> str:
    """What an embed shows: title, description, field names and values, footer."""
    fields = [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(str(part) for part in (embed.title, embed.description, *fields, embed.footer.text) if part)


def spanish_text_of_a_game(seed: int, players: int) -> str:
    """Everything a Spanish game shows: each event, and every 10th state's table, each hand and move labels."""
    parts: list[str] = []
    for index, (state, events) in enumerate(played_events(seed, players)):
        ctx = ctx_of(state, "es")
        parts += [render.event_text(ctx, event) for event in events]
        if index % 10:
            continue
        parts.append(embed_text(UI.table_embed(ctx, ENGINE.view(state, None))))
        owners = {inc.id: inc.owner for inc in state.incidents}
        for seat in range(players):
            parts.append(embed_text(UI.secrets_embed(ctx, seat, ENGINE.view(state, seat))))
            parts += [str(render.action_label(ctx, a, owners)) for a in ENGINE.legal_actions(state, seat)]
    return "\n".join(parts)


def test_a_spanish_game_is_spanish_but_for_the_printed_card_names() -> None:
    """Ruling (games/lets_kill/README.md, "Card names"): card names stay as printed in the card edition, in every
    language; the text around them is the game's language. So a Spanish game, once its card names are taken out,
    has none of the words only the English catalogue uses (a message missing in Spanish would show them)."""
    english, spanish = load_language("en"), load_language("es")

    def words_of(messages: dict[str, str]) -> set[str]:
        return {w.lower() for key, text in messages.items() if key.startswith("lets_kill.")
                for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{[^}]*\}", " ", text))}

    printed = {w.lower() for card in CARDS.values() for w in re.findall(r"[^\W\d_]{3,}", card.name)}
    english_only = words_of(english) - words_of(spanish) - printed
    assert {"hand", "weapon", "turn"} <= english_only  # the check has English words to find
    text = spanish_text_of_a_game(3, 4)
    for name in sorted((card.name for card in CARDS.values()), key=len, reverse=True):
        text = text.replace(name, " ")
    shown = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}
    assert sorted(shown & english_only) == []
    assert "Pocket Derringer" in render.card_line(ctx_of(build(hands=[[], [], []], start=False), "es"), "W01")


@pytest.mark.parametrize(("language", "top", "whole"), [
    ("en", "Discard pile, top first: Secret Millionaire, Block Party, Pocket Derringer, …and 1 more",
     "Discard pile, top first: Secret Millionaire, Block Party, Pocket Derringer, Sirens"),
    ("es", "Pila de descartes, de arriba abajo: Secret Millionaire, Block Party, Pocket Derringer, …y 1 más",
     "Pila de descartes, de arriba abajo: Secret Millionaire, Block Party, Pocket Derringer, Sirens"),
])
def test_the_discard_pile_is_public_top_cards_on_the_table_all_under_status(language: str, top: str,
                                                                            whole: str) -> None:
    """README ruling 6: the table shows the top three cards of the discard pile, /status the whole pile, never a
    card discarded face down."""
    state = build(hands=[[], [], []], start=False)
    state.lk_deck = [c for c in state.lk_deck if c not in ("E13-1", "W01", "E02", "S01", "S05")]
    state.lk_discard = ["E13-1", "S05", "W01", "E02", "S01"]
    state.face_down = ["S05"]
    ctx = ctx_of(state, language)
    view = ENGINE.view(state, None)
    embed = UI.table_embed(ctx, view)
    assert top in (embed.description or "").split("\n") and "Pocketful of Coupons" not in str(embed.to_dict())
    extra = UI.status_embeds(ctx, view)
    assert [e.description for e in extra] == [whole]
