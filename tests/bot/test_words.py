"""Words that fit the situation, per mode: plurals from the catalogues (CLDR rules, English and Spanish), "points
this round" only in a series, the ending that really happened, one role DM that says what to do next, a
placeholder on every select, a label that says what each control does, and the social mode's rulings in the
game's README (a refused option's real limit: ``test_newgame.py``)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.cogs.asesino import render
from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.delivery import outcome_embed
from bot.i18n.catalog import catalog, t
from bot.ui import RenderContext
from games.core import Outcome
from tests.bot.asesino.test_render import make_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("language", "points", "wins", "games", "expected"), [
    ("en", 1, 1, 1, "1 point (1 win in 1 game)"),
    ("en", 0, 0, 2, "0 points (0 wins in 2 games)"),
    ("en", 1.5, 2, 3, "1.5 points (2 wins in 3 games)"),
    ("es", 1, 1, 1, "1 punto (1 victoria en 1 partida)"),
    ("es", 2, 0, 5, "2 puntos (0 victorias en 5 partidas)"),
])
def test_leaderboard_line_takes_its_plurals_from_the_catalogue(language: str, points: float, wins: int, games: int,
                                                               expected: str) -> None:
    """Every count is an ngettext entry chosen by the language's plural rule: never "1 points" or "point(s)"."""
    line = t("leaderboard.line", language, rank=1, user="Ann", points=t("leaderboard.points", language, count=points),
             wins=t("leaderboard.wins", language, count=wins), games=t("leaderboard.games", language, count=games))
    assert line == f"**1.** Ann: {expected}"


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_message_hedges_its_plural(language: str) -> None:
    """No catalogue text writes "(s)" after a word: plural forms are entries of their own."""
    texts = list(catalog(language).messages.values()) + [f for forms in catalog(language).plurals.values()
                                                          for f in forms]
    assert [text for text in texts if re.search(r"\w\((s|es)\)", text)] == []  # "(s)" alone is seconds


def _finished(mode: str, players: int, seed: int, *, series: int | None) -> RenderContext:
    table = replace(make_table(mode, players, seed), status="finished", series_id=series)
    return RenderContext(table, "en")


@pytest.mark.parametrize(("series", "title"), [(None, "Points"), (4, "Points this round")])
def test_tabletop_result_says_this_round_only_in_a_series(series: int | None, title: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The points of a single game are "Points"; "Points this round" belongs to a series; "1 point" is singular."""
    ctx = _finished("tabletop", 5, 3, series=series)
    outcome = Outcome(winners=[0], reason="asesino.end.survived", scores={0: 1.0, 1: 0.0})
    monkeypatch.setattr(type(ctx.table.engine), "outcome", lambda self, state: outcome)
    embed = outcome_embed(ctx, ctx.table)
    points = next(f for f in embed.fields if f.name.startswith("Points"))
    assert points.name == title
    assert points.value == "Player0: 1 point\nPlayer1: 0 points"


@pytest.mark.parametrize(("roles", "expected"), [
    ({"0": "killer", "1": "accomplice", "2": "doctor"}, "three murders: the Killer and the Accomplice win."),
    ({"0": "killer", "1": "detective", "2": "doctor"}, "three murders: the Killer wins."),
])
def test_tabletop_ending_names_the_accomplice_only_when_one_was_dealt(roles: dict[str, str], expected: str) -> None:
    """The three-murder ending names the Accomplice only at a table that had one."""
    ctx = RenderContext(make_table("tabletop", 5, 1), "en")
    assert render.ending_text(ctx, "asesino.end.three_deaths", roles) == expected


def test_small_ending_says_the_cards_ran_out_when_columns_were_left_unsettled() -> None:
    """The 2-4 player "nothing left" ending says what happened: not every destiny was settled, the cards ran out."""
    ctx = RenderContext(make_table("small", 2, 11), "en")  # at the deal, no column is revealed
    text = render.ending_text(ctx, "asesino.end.all_revealed", {"0": "killer", "1": "detective"})
    assert text == "no card is left to play and only 0 of the 3 murders happened: the innocents win."
    spanish = render.ending_text(RenderContext(ctx.table, "es"), "asesino.end.all_revealed", {})
    assert spanish.startswith("no quedan cartas por jugar")


@pytest.mark.parametrize(("ui", "mode", "players", "key", "params", "title"), [
    (TabletopUI(), "tabletop", 5, "asesino.intro.role", {"role": "killer", "hand": ["good"]}, "Your role: Killer"),
    (SmallUI(), "small", 2, "asesino.small.intro", {"identity": "detective", "hand": ["bad"]},
     "Your identity: Detective"),
])
def test_role_dm_says_each_thing_once(ui: TabletopUI, mode: str, players: int, key: str, params: dict, title: str
                                     ) -> None:
    """Who you are (the title), what you hold (a field) and what to do next (the description), each once."""
    from games.core import Audience, Event

    ctx = RenderContext(make_table(mode, players, 2), "en")
    embed = ui.private_event(ctx, 0, Event(key=key, params=params, audience=Audience.to(0))).embeds[0]
    assert embed.title == title
    text = f"{embed.description} {' '.join(f.value for f in embed.fields)}"
    assert text.count(title.split(": ")[1]) == 0 and "press its button" in embed.description
    assert [f.name for f in embed.fields] == ["Your hand"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_asesino_select_has_a_placeholder_and_every_prompt_button_says_what_it_does(language: str) -> None:
    """Selects say what to pick; a prompt's button names the prompt (last words are not "Answer")."""
    messages = catalog(language)
    for name in ("give", "prosecutor", "journalist", "scard", "reveal", "splay", "gtarget", "accuse", "order",
                 "card", "target"):
        assert messages.has(f"asesino.ui.placeholder.{name}"), name
    ctx = RenderContext(make_table("tabletop", 5, 1), language)
    labels = {kind: TabletopUI()._turn_button(ctx, kind).item.label for kind in
              ("order", "statement", "last_words", "accuse", "accomplice", "prosecutor", "journalist")}
    assert len(set(labels.values())) == len(labels) and not [v for v in labels.values() if "asesino.ui" in v]
    if language == "en":
        assert labels["last_words"] == "Say your last words"
    select = TabletopUI().pick(ctx, "accuse", [discord.SelectOption(label="x")])
    assert select.placeholder == messages.render("asesino.ui.placeholder.accuse")


def test_the_social_mode_has_its_summary_and_rulings_in_the_readme() -> None:
    """The social mode is summed up with its rulings beside the other modes, and /rules has its summary."""
    readme = (ROOT / "games" / "asesino" / "README.md").read_text(encoding="utf-8")
    assert "## Social game, 6-12 players (`social`)" in readme and "### Our rulings (social game)" in readme
    assert catalog("es").has("rules.asesino.social") and catalog("en").has("rules.asesino.social")
