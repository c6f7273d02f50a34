"""The Cereal Killer UI without Discord: refusals in words, the controls each phase offers, the Killer's answer
buttons, and public renders that never show the Killer's space or route."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot import ui as ui_module
from bot.cogs.cereal_killer import messages as msg
from bot.cogs.cereal_killer.ui import CerealUI, _action
from bot.delivery import split_events
from bot.errors import UserError, error_text
from bot.replies import replying
from bot.simulate.transcript import step_lines
from bot.tables import Table, TableSeat
from bot.ui import RenderContext
from games.cereal_killer import ENGINE
from games.cereal_killer.models import Ask, KillerTurn, PlaceDetective
from games.core import Event, IllegalAction
from tests.games.cereal_killer.helpers import new_game, play

START = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ("alice", "bob", "carol")
UI = CerealUI()
FIRST = KillerTurn(start=3, path=[8, 13, 12], victim=3, witness=2)


def table(state: Any, *, version: int = 5, language: str = "en") -> Table:
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(NAMES[i],)) for i in range(state.players))
    return Table(id=1, game="cereal_killer", mode="classic", guild_id=1, channel_id=2, host_id=100,
                 status="active", seed=7, options={}, version=version, language=language, series_id=None,
                 lobby_message_id=None, table_message_id=None, created_at=START, updated_at=START,
                 finished_at=None, outcome=None, seats=seats, state=state, engine=ENGINE)


def ctx_of(state: Any, **kwargs: Any) -> RenderContext:
    made = table(state, **kwargs)
    return RenderContext(made, made.language)


def names(items: list[Any]) -> list[str]:
    return [item.name for item in items]


@pytest.mark.parametrize(("code", "params", "text"), [
    ("cereal_killer.hunter_blocks", {"space": 7, "who": "detective"},
     "You cannot step onto 7: the Detective stands there."),
    ("cereal_killer.not_adjacent", {"a": 5, "b": 9}, "5 is not next to 9."),
    ("cereal_killer.bone", {"ability": "sniff"}, "The Bone is on Sniff: use another ability first."),
    ("cereal_killer.bad_answer", {"answer": "up", "options": "north, east"},
     "up is not a true answer; choose one of North, East."),
])
def test_refusals_put_their_parameters_in_words(code: str, params: dict[str, Any], text: str) -> None:
    """An engine refusal reaches the player with roles, abilities and answers spelled out."""
    ui_module.register_ui(UI)
    assert error_text("en", IllegalAction(code, **params), table(new_game())) == "⛔ " + text


@pytest.mark.parametrize(("name", "value", "action"), [
    ("place", "7", {"type": "place_detective", "space": 7}),
    ("step", "12", {"type": "move", "path": [12]}),
    ("ask", "parity", {"type": "ask", "question": "parity"}),
    ("arrest", "13", {"type": "arrest", "space": 13}),
    ("sniff", "38", {"type": "sniff", "space": 38}),
    ("bite", "33", {"type": "bite", "space": 33}),
    ("bark", "", {"type": "bark"}),
    ("end", "", {"type": "end_turn"}),
    ("answer", "south", {"type": "choose_answer", "answer": "south"}),
])
def test_controls_stand_for_engine_actions(name: str, value: str, action: dict[str, Any]) -> None:
    """Each component name maps to the engine action its picked value describes."""
    assert _action(name, value) == action


def test_a_control_with_a_non_number_space_is_refused() -> None:
    """A forged select value is refused before it reaches the engine."""
    with pytest.raises(UserError, match="cereal_killer.ui.bad_space"):
        _action("arrest", "twelve")


def test_no_hunter_controls_while_the_killer_moves() -> None:
    """The status carries nothing for the hunters while the Killer's route is due."""
    state = new_game()
    assert UI.turn_items(ctx_of(state), ENGINE.view(state, None)) == []


def test_the_detective_places_then_walks_asks_and_arrests() -> None:
    """Day 1: a Cafe select; then Move, End, a step select, Ask (Witness in reach) and Arrest."""
    state = play(new_game(), (0, FIRST))
    items = UI.turn_items(ctx_of(state), ENGINE.view(state, None))
    assert names(items) == ["place"] and [o.value for o in items[0].item.options] == ["7", "19"]
    far = play(state, (1, PlaceDetective(space=19)))
    assert names(UI.turn_items(ctx_of(far), ENGINE.view(far, None))) == ["move", "end", "step", "arrest"]
    near = play(state, (1, PlaceDetective(space=7)))  # the Witness on 2 is next to the Cafe on 7
    items = UI.turn_items(ctx_of(near), ENGINE.view(near, None))
    assert names(items) == ["move", "end", "step", "ask", "arrest"]
    assert all(item.version == 5 for item in items)
    asked = play(near, (1, Ask(question="parity")))
    assert "ask" not in names(UI.turn_items(ctx_of(asked), ENGINE.view(asked, None)))


def test_lola_gets_her_abilities_but_not_the_one_under_the_bone() -> None:
    """Lola's turn: Move, Bark, End and the Sniff/Bite selects; a Bark yesterday hides Bark today."""
    state = play(new_game(3), (0, FIRST))
    assert names(UI.turn_items(ctx_of(state), ENGINE.view(state, None))) == [
        "move", "bark", "end", "step", "sniff", "bite"]
    state = state.model_copy(update={"bone": "bark"}, deep=True)
    assert names(UI.turn_items(ctx_of(state), ENGINE.view(state, None))) == ["move", "end", "step", "sniff", "bite"]


def test_the_killer_answers_by_version_stamped_dm_buttons() -> None:
    """A direction question sends the Killer one button per true answer, stamped with the table version."""
    state = play(new_game(), (0, FIRST), (1, PlaceDetective(space=7)), (1, _parsed({"type": "move", "path": [2]})))
    step = ENGINE.apply(state, 1, Ask(question="direction"))
    prompt = next(e for e in step.events if e.key == "cereal_killer.prompt.question")
    out = UI.private_event(ctx_of(step.state, version=9), 0, prompt)
    assert out.view is not None
    assert [(c.item.label, c.item.custom_id) for c in out.view.children] == [
        ("South", "coroner:g:1:9:answer:south")]
    assert "Time limit" in str(out.embeds[0].to_dict())


def test_the_route_confirmation_carries_the_killers_board() -> None:
    """The Killer's confirmation DM attaches its private board and describes the route."""
    step = ENGINE.apply(new_game(), 0, FIRST)
    recorded = next(e for e in step.events if e.key == "cereal_killer.route_recorded")
    out = UI.private_event(ctx_of(step.state), 0, recorded)
    assert [f.name for f in out.files] == [msg.PRIVATE_FILE]
    assert out.files[0].description  # the route described in words for people who cannot see the image
    assert "Your route: 3 → 8 → 13 → 12" in str(out.embeds[0].to_dict())


def test_the_killers_own_route_is_not_sent_back_but_a_route_the_bot_walked_is() -> None:
    """The route the Killer sent is an echo (the table acknowledges it); when its turn timed out and the bot walked
    for it (``turn.auto`` for the Killer in the same step), the Killer is told by DM; other DMs are never echoes."""
    step = ENGINE.apply(new_game(), 0, FIRST)
    recorded = next(e for e in step.events if e.key == "cereal_killer.route_recorded")
    assert UI.echoes(recorded, step.events)
    walked = [Event(key="turn.auto", params={"seat": 0}), *step.events]
    assert not UI.echoes(recorded, walked)
    assert UI.echoes(recorded, [Event(key="turn.auto", params={"seat": 1}), *step.events])
    assert not any(UI.echoes(e, step.events) for e in step.events if e is not recorded)


def test_the_next_day_gives_the_killer_no_dm_and_my_secrets_says_its_route_is_due() -> None:
    """A day's end changes nothing private for the Killer (ruling 1 in the README): the step has no event for it
    (no DM), the public lines say the day began, and My secrets shows yesterday's route and that its route is due,
    with the Send my route button."""
    state = play(new_game(), (0, FIRST), (1, PlaceDetective(space=7)))
    step = ENGINE.apply(state, 1, _parsed({"type": "end_turn"}))
    assert step.state.phase == "killer" and step.state.day == 2
    lines, private, _ = split_events(ctx_of(step.state), UI, step.events)
    assert private == {} and any("Day 2 begins" in line for line in lines)
    view = ENGINE.view(step.state, 0)
    secrets = str(UI.secrets_embed(ctx_of(step.state), 0, view).to_dict())
    assert "Day 1: 3 → 8 → 13 → 12" in secrets and "Day 2: your route is due" in secrets
    assert [item.custom_id for item in UI.secrets_items(ctx_of(step.state), 0, view)] == [
        "coroner:g:1:5:route:"]


def test_lolas_bark_answer_is_her_clicks_answer_only_while_it_is_answered() -> None:
    """While Lola's own click is answered (bot.replies), her Bark's answer is no DM (it follows the click
    privately); delivered otherwise (another task, a time limit) it is her DM as before; the Killer's never is."""
    state = play(new_game(3), (0, FIRST))
    step = ENGINE.apply(state, 2, _parsed({"type": "bark"}))
    (answer,) = [e for e in step.events if e.key == "cereal_killer.bark_answer"]
    assert answer.audience.seats == (2,) and not UI.echoes(answer, step.events)
    with replying(2):
        assert UI.echoes(answer, step.events)
        assert split_events(ctx_of(step.state), UI, step.events)[1] == {}
    with replying(1):
        assert not UI.echoes(answer, step.events)


@pytest.mark.parametrize("route", [[8, 13, 12], [2, 1, 6]])
def test_public_status_never_shows_the_killer(route: list[int]) -> None:
    """Wherever the Killer went, the public embed and image are the same and name neither route nor space."""
    state = play(new_game(), (0, KillerTurn(start=3, path=route)))
    view = ENGINE.view(state, None)
    embed = UI.table_embed(ctx_of(state), view).to_dict()
    baseline = play(new_game(), (0, KillerTurn(start=3, path=[8, 13, 12])))
    assert embed == UI.table_embed(ctx_of(baseline), ENGINE.view(baseline, None)).to_dict()
    assert UI.table_files(ctx_of(state), view) == UI.table_files(ctx_of(baseline), ENGINE.view(baseline, None))
    assert "→" not in str(embed) and "Killer was on" not in str(embed)


def test_secrets_show_the_killer_its_routes_and_lola_her_answers() -> None:
    """/hand: the Killer sees its space and routes; Lola her private answers; the Detective neither."""
    state = play(new_game(3), (0, FIRST), (2, _parsed({"type": "bark"})))
    killer = str(UI.secrets_embed(ctx_of(state), 0, ENGINE.view(state, 0)).to_dict())
    lola = str(UI.secrets_embed(ctx_of(state), 2, ENGINE.view(state, 2)).to_dict())
    detective = str(UI.secrets_embed(ctx_of(state), 1, ENGINE.view(state, 1)).to_dict())
    assert "Day 1: 3 → 8 → 13 → 12" in killer and "12" in killer
    assert "Day 1, Bark -: No" in lola
    assert "→" not in detective and "Bark" not in detective


def test_every_player_may_dm_but_only_once_the_game_runs() -> None:
    """DMs from any seat of a running game reach the UI (hunters are told why they do not count)."""
    state = new_game()
    assert UI.accepts_dm(table(state), 0) and UI.accepts_dm(table(state), 1)
    assert not UI.accepts_dm(table(state), None)


def _parsed(action: dict[str, Any]) -> Any:
    return ENGINE.parse_action(action)


def lobby(players: int, *, status: str = "lobby") -> Table:
    """A Cereal Killer lobby with ``players`` joined (seats in join order)."""
    seats = tuple(TableSeat(seat=i, user_id=100 + i, names=(NAMES[i],)) for i in range(players))
    return replace(table(new_game()), status=status, state=None, seats=seats)


@pytest.mark.parametrize(("players", "language", "lines"), [
    (1, "en", ["**Roles (by join order)**", "<@100> is the Killer"]),
    (3, "en", ["**Roles (by join order)**", "<@100> is the Killer", "<@101> is the Detective", "<@102> is Lola"]),
    (2, "es", ["**Papeles (por orden de llegada)**", "<@100> es el Asesino", "<@101> es el Detective"]),
])
def test_the_lobby_names_each_joined_players_role(players: int, language: str, lines: list[str]) -> None:
    """Join order decides the role: the host is the Killer, then the Detective, then Lola."""
    assert UI.lobby_lines(lobby(players), language) == lines


def test_the_lobby_embed_shows_the_game_lines_only_while_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic lobby embed renders the UI's lines; a started game's lobby message drops them."""
    from bot import ui
    from bot.cogs.lobby.render import lobby_embed

    monkeypatch.setitem(ui._UIS, ("cereal_killer", None), UI)
    assert "<@101> is the Detective" in str(lobby_embed(lobby(2), "en", None).to_dict())
    assert "Detective" not in str(lobby_embed(lobby(2, status="active"), "en", None).to_dict())


@pytest.mark.parametrize(("prompt", "turn"), [(180, 300), (45, 600)])
def test_the_answer_time_is_the_prompt_time_after_the_question(prompt: int, turn: int) -> None:
    """The Killer's answer gets the prompt time (not the turn time); hunters' turns get the turn time."""
    from bot.guild_config import GuildConfig

    state = play(new_game(), (0, FIRST), (1, PlaceDetective(space=7)), (1, _parsed({"type": "move", "path": [2]})))
    asked = ENGINE.apply(state, 1, Ask(question="direction")).state
    config = GuildConfig(prompt_timeout_seconds=prompt, turn_timeout_seconds=turn)
    assert UI.move_timeout(table(asked), config) == prompt
    assert UI.move_timeout(table(state), config) == turn


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_status_says_each_thing_once(language: str) -> None:
    """The day is in the title and the objective and arrests in their fields, so the description (the board in
    words) leaves them out; with no victim yet it says so instead of "Victims (0): -."; the image's alt text still
    says everything."""
    state = new_game()
    view = ENGINE.view(state, None)
    embed = msg.status_embed(ctx_of(state, language=language), view)
    description = embed.description or ""
    t = ctx_of(state, language=language).t
    fields = [field.name for field in embed.fields]
    assert fields[:2] == [t("cereal_killer.ui.objective"), t("cereal_killer.ui.arrests")]
    arrests = t("cereal_killer.render.arrests", left=4)
    objective = t("cereal_killer.render.objective", day=2, victims=1)
    title = t("cereal_killer.render.title", day=1, days=7)
    for said_elsewhere in (arrests, objective, title):
        assert said_elsewhere not in description
    assert t("cereal_killer.render.no_victims") in description.splitlines()
    assert "(0)" not in description
    alt = msg.board_files(ctx_of(state, language=language), view)[0].description
    assert {title, arrests, objective, t("cereal_killer.render.no_victims")} <= set(alt.splitlines())
    later = play(state, (0, FIRST))
    assert t("cereal_killer.render.victims", count=1, spaces="3") in (
        msg.status_embed(ctx_of(later, language=language), ENGINE.view(later, None)).description or "").splitlines()


@pytest.mark.parametrize(("language", "dm_label", "own_label"), [
    ("en", "[to ", "secret move, no message sent]"), ("es", "[a ", "[jugada secreta de ")])
def test_the_history_shows_the_killers_route_as_its_own_move_not_as_a_dm_it_never_got(
        language: str, dm_label: str, own_label: str) -> None:
    """Issue 21: the route the Killer sent gets no DM back (an echo), so the history's timeline shows it as the
    Killer's secret move, never under "[to Killer]" as if a DM had been sent."""
    step = ENGINE.apply(new_game(), 0, FIRST)
    lines = step_lines(ctx_of(step.state, language=language), UI, step.events, True, echoes=True, files=False)
    route = next(line for line in lines if "3 → 8 → 13 → 12" in line)
    assert own_label in route and not route.startswith(dm_label)
    live = step_lines(ctx_of(step.state, language=language), UI, step.events, True, files=False)
    assert not any("3 → 8 → 13 → 12" in line and line.startswith(dm_label) for line in live)
