"""Every message of every mode fits Discord's limits, whatever the names: random games with 32-character display
names (wide and astral characters included) in English and Spanish, every public status, DM, medium post, secrets
embed and the lobby, checked against the same limits the Discord double refuses (issue 8)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bot.cogs.asesino
import bot.cogs.asesino_social
import bot.cogs.cereal_killer  # noqa: F401 - registers the games' UIs
import bot.ui
from bot.cogs.lobby.render import lobby_embed
from bot.delivery import Delivery
from bot.tables import Table
from bot.tables.model import TableSeat
from bot.ui import Outgoing, RenderContext, register_ui, ui_for
from games.core import SYSTEM_SEAT, IllegalAction, SeatInfo, all_games, get_engine
from tests.discord_double.limits import message_problems

NOW = datetime(2026, 3, 1, 9, tzinfo=UTC)
#: wide (CJK, full-width), astral (emoji: 2 UTF-16 units each), accented and Discord-markdown characters
NAME_CHARS = st.sampled_from(["漢", "字", "Ｗ", "😀", "🎲", "é", "ñ", "_", "*", "a", "Z", "9", " ", "ß", "ﷺ"])
NAMES = st.text(NAME_CHARS, min_size=32, max_size=32)
SHIPPED = ("asesino", "cereal_killer", "lets_kill", "verdugo")
MODES = [(g.id, m.id, m.min_players, m.max_players) for g in all_games() for m in g.modes]


def options_for(engine: Any, game: str, mode: str) -> Any:
    if (game, mode) == ("asesino", "social"):
        return engine.Options(started_at=NOW, day_length_minutes=240, judgement_window_minutes=15)
    return engine.Options()


def make_table(game: str, mode: str, names: list[str], language: str, state: Any, status: str) -> Table:
    seats = tuple(TableSeat(seat=i, user_id=10**17 + i, names=(name,)) for i, name in enumerate(names))
    return Table(id=4242, game=game, mode=mode, guild_id=1, channel_id=2, host_id=10**17, status=status, seed=1,
                 options={}, version=9999, language=language, series_id=None, lobby_message_id=None,
                 table_message_id=None, created_at=NOW, updated_at=NOW, finished_at=None, outcome=None, seats=seats,
                 state=state, engine=get_engine(game, mode))


def offline_delivery() -> Delivery:
    """A Delivery whose rendering works without a bot (nothing is sent)."""
    bot = SimpleNamespace(add_listener=lambda *_: None, get_channel=lambda _id: None)  # no channel: no Watch button
    return Delivery(bot)  # type: ignore[arg-type]


def payload(out: Outgoing) -> dict[str, Any]:
    """What discord.py would send for ``out`` (content, embeds and components as Discord JSON)."""
    kwargs = out.kwargs()
    view = kwargs.get("view")
    return {"content": kwargs.get("content"), "embeds": [e.to_dict() for e in kwargs.get("embeds", [])],
            "components": view.to_components() if view is not None else []}


def assert_fits(out: Outgoing, what: str) -> None:
    problems = message_problems(payload(out))
    assert not problems, (what, problems)


def random_step(engine: Any, state: Any, rng: random.Random, now: datetime) -> tuple[int, Any] | None:
    """A random legal (seat, action); time-carrying actions get a clock that moves forward."""
    seats = engine.to_act(state)
    if not seats or (rng.random() < 0.15 and engine.legal_actions(state, SYSTEM_SEAT)):
        seats = [SYSTEM_SEAT]
    seat = rng.choice(seats)
    actions = engine.legal_actions(state, seat)
    if not actions:
        return None
    action = rng.choice(actions)
    if "at" in type(action).model_fields:
        action = action.model_copy(update={"at": max(now, getattr(action, "at", now) or now)})
    return seat, action


def random_game(engine: Any, state: Any, seed: int, steps: int = 400) -> Iterator[tuple[Any, list[Any]]]:
    """A seeded random game from ``state``: yields each state with the events of the step that made it (none for
    the first), until the game is over, nobody can act or ``steps`` steps were tried."""
    rng, now, events = random.Random(seed), NOW, []
    for _ in range(steps):
        yield state, events
        if engine.outcome(state) is not None:
            return
        now += timedelta(minutes=rng.randint(0, 90))
        step = random_step(engine, state, rng, now)
        if step is None:
            return
        try:
            done = engine.apply(state, *step)
        except IllegalAction:  # e.g. the moved clock closed a judgement that was open when the action was picked
            events = []
            continue
        state, events = done.state, done.events


def render_step(table: Table, events: list[Any], delivery: Delivery) -> None:
    """Every message a step produces, as Delivery would send it."""
    ctx = RenderContext(table, table.language)
    ui = ui_for(table.game, table.mode)
    lines = []
    for event in events:
        if event.audience.kind == "public":
            line = ui.public_event(ctx, event)
            if line:
                lines.append(line)
        elif event.audience.kind == "medium":
            assert_fits(ui.medium_event(ctx, event), event.key)
        else:
            for seat in event.audience.seats:
                assert_fits(ui.private_event(ctx, seat, event), event.key)
    assert_fits(delivery.status_message(table, lines * 3), "status")  # thrice: a long log must still fit
    for seat in range(len(table.seats)):
        embed = ui.secrets_embed(ctx, seat, table.engine.view(table.state, seat))
        assert_fits(Outgoing(embeds=[embed], language=table.language), "secrets")


@pytest.mark.parametrize(("game", "mode", "low", "high"), MODES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: a failure prints its example
@given(seed=st.integers(0, 2**31), names=st.lists(NAMES, min_size=12, max_size=12),
       language=st.sampled_from(["en", "es"]), data=st.data())
def test_every_message_of_a_random_game_fits(game: str, mode: str, low: int, high: int, seed: int, names: list[str],
                                             language: str, data: st.DataObject) -> None:
    """From the lobby to the result, every message of a random game with 32-character names fits every limit."""
    players = data.draw(st.sampled_from(sorted({low, high})))
    names = names[:players]
    engine = get_engine(game, mode)
    lobby = make_table(game, mode, names, language, None, "lobby")
    assert not message_problems({"embeds": [lobby_embed(lobby, language, 1_900_000_000).to_dict()]})
    start = state = engine.setup(options_for(engine, game, mode), [SeatInfo(names=(n,)) for n in names], seed)
    delivery = offline_delivery()
    events: list[Any] = []
    for state, events in random_game(engine, start, seed):
        render_step(make_table(game, mode, names, language, state, "active"), events, delivery)
    render_step(make_table(game, mode, names, language, state, "finished"), events, delivery)


def test_a_long_log_is_cut_with_and_n_more() -> None:
    """A table whose "last moves" log alone is 5,000 characters fits, says how much it left out, and still names
    who the game waits on."""
    engine = get_engine("asesino", "tabletop")
    names = ["😀" * 16] * 10
    state = engine.setup(engine.Options(), [SeatInfo(names=(n,)) for n in names], 3)
    table = make_table("asesino", "tabletop", names, "en", state, "active")
    sent = payload(offline_delivery().status_message(table, ["x" * 50] * 100))
    assert not message_problems(sent)
    log = sent["embeds"][0]["fields"][-1]["value"]
    assert log.endswith("more") and "…and" in log
    waiting = RenderContext(table, "en").t("turn.waiting_on", seats="")
    assert sent["content"].startswith(waiting.split("{")[0][:8])


@pytest.mark.parametrize(("game", "mode", "low", "high"), [m for m in MODES if m[0] in SHIPPED])
def test_markdown_in_a_name_is_shown_as_typed_in_the_public_table(game: str, mode: str, low: int, high: int,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Players named ``**P0**||x||``...: in a random game's public table, its lines and its result, every name is
    markdown-escaped (``\\*\\*P0\\*\\*``), so a name never bolds or hides the text around it; button and select
    labels, which Discord shows as plain text, keep the name as typed."""
    from bot.cogs.asesino.small_ui import SmallUI
    from bot.cogs.asesino.ui import TabletopUI
    from bot.cogs.asesino_social.ui import SOCIAL
    from bot.cogs.cereal_killer.ui import CerealUI
    from bot.cogs.lets_kill.ui import LetsKillUI
    from bot.cogs.verdugo.ui import VerdugoUI

    monkeypatch.setattr(bot.ui, "_UIS", {})  # every game's own UI, as the bot registers them, for this test only
    for ui in (TabletopUI(), SmallUI(), SOCIAL, CerealUI(), LetsKillUI(), VerdugoUI()):
        register_ui(ui)
    names = [f"**P{i}**||x||" for i in range(low)]
    engine = get_engine(game, mode)
    state = engine.setup(options_for(engine, game, mode), [SeatInfo(names=(n,)) for n in names], 5)
    rng, now, delivery, lines = random.Random(5), NOW, offline_delivery(), []
    for _ in range(300):
        if engine.outcome(state) is not None or (step := random_step(engine, state, rng, now)) is None:
            break
        now += timedelta(minutes=rng.randint(0, 90))
        try:
            done = engine.apply(state, *step)
        except IllegalAction:
            continue
        state = done.state
        ctx = RenderContext(make_table(game, mode, names, "en", state, "active"), "en")
        lines += [line for e in done.events if e.audience.kind == "public"
                  and (line := ui_for(game, mode).public_event(ctx, e))]
    table = make_table(game, mode, names, "en", state, "active")
    sent = payload(delivery.status_message(table, lines[-6:]))
    texts = [sent["content"] or ""] + [text for embed in sent["embeds"] for text in (
        embed.get("title", ""), embed.get("description", ""),
        *(part for f in embed.get("fields", []) for part in (f["name"], f["value"])))]
    shown = "\n".join(texts)
    if game != "cereal_killer":  # its table names roles, not players
        assert "\\*\\*P0\\*\\*\\|\\|x\\|\\|" in shown
    assert "**P" not in shown.replace("\\*\\*P", ""), shown
