"""/newgame <game>: typed parameters made from each engine's ``Options`` (limits, choices, yes/no, ``rounds`` for
points series), what Discord accepts of them in both languages, and refusals that name the real limit and the
option as the server's language shows it, through the store's own validators."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal

import discord
import pytest
from discord import app_commands
from pydantic import BaseModel, Field

from bot.bot import CoronerBot
from bot.budget import FIELD_VALUE, size
from bot.cogs.asesino.small_ui import SmallUI
from bot.cogs.asesino.ui import TabletopUI
from bot.cogs.core.cog import _mode_rules
from bot.cogs.lobby.newgame import game_command, newgame_group
from bot.cogs.lobby.options import LobbyOption, chosen_options, field_option, game_options, mode_options
from bot.errors import UserError, error_text
from bot.i18n.translator import CatalogTranslator
from bot.settings import Settings
from bot.tables import TableError
from bot.tables.options import validate_starts_in
from bot.timers import TimerRunner
from bot.ui import register_ui
from games.core import SERVER_SETTING, get_game
from tests.discord_double.commands import command_problems
from tests.support.newgame import newgame_call, older_shape


@pytest.fixture(autouse=True)
def asesino_uis() -> None:
    """The Asesino modes' UIs as their cog registers them (the tabletop one plays points series)."""
    register_ui(TabletopUI())
    register_ui(SmallUI())


async def never(*args: Any) -> None:
    raise AssertionError("not called in these tests")


def params(game: str) -> dict[str, app_commands.Parameter]:
    return {p.name: p for p in game_command(get_game(game), never).parameters}


def test_each_field_becomes_a_typed_parameter_with_the_models_limits() -> None:
    """Verdugo: ``match`` has the Literal's choices, ``cheese_variant`` is a yes/no, ``first_executioner`` a whole
    number 0-7; ``mode`` offers the one mode and may be left out."""
    verdugo = params("verdugo")
    assert list(verdugo) == ["mode", "match", "cheese_variant", "first_executioner", "starts_in"]
    assert [c.value for c in verdugo["match"].choices] == ["tour", "treasury", "open"]
    assert verdugo["cheese_variant"].type is discord.AppCommandOptionType.boolean
    first = verdugo["first_executioner"]
    assert (first.type, first.min_value, first.max_value, first.required) == (
        discord.AppCommandOptionType.integer, 0, 7, False)
    assert [c.value for c in verdugo["mode"].choices] == ["classic"] and not verdugo["mode"].required
    starts = verdugo["starts_in"]  # every game's last parameter: book the lobby for later (minutes, up to a week)
    assert (starts.type, starts.min_value, starts.max_value, starts.required) == (
        discord.AppCommandOptionType.integer, 1, 10080, False)


def test_a_game_with_modes_takes_the_union_of_their_options_and_rounds_for_series() -> None:
    """Asesino: ``mode`` is required (three modes); ``first_player`` (tabletop, small), ``max_days``,
    ``idle_days`` and ``special_roles`` (social) and ``rounds`` 1-10 (tabletop plays series), then ``starts_in``;
    the social mode's server settings (day length, time zone, start) are not offered."""
    asesino = params("asesino")
    assert list(asesino) == ["mode", "first_player", "max_days", "idle_days", "special_roles", "rounds",
                             "starts_in"]
    assert asesino["mode"].required and [c.value for c in asesino["mode"].choices] == ["tabletop", "small", "social"]
    assert (asesino["rounds"].min_value, asesino["rounds"].max_value) == (1, 10)
    assert (asesino["first_player"].min_value, asesino["first_player"].max_value) == (0, 9)  # a seat of 10
    options = {o.name: o.modes for o in game_options(get_game("asesino"))}
    assert options == {"first_player": ("tabletop", "small"), "max_days": ("social",), "idle_days": ("social",),
                       "special_roles": ("social",), "rounds": ("tabletop",)}
    assert asesino["special_roles"].type is discord.AppCommandOptionType.string  # validated by the role table
    special = asesino["special_roles"]
    assert (special.max_value, special.autocomplete) == (200, True)  # max_length 200 for a text; suggestions


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class Dropped(BaseModel):
    """An Options model a dropped-in game might have."""

    colour: Colour = Colour.RED
    size: Literal[3, 5] = 3
    speed: float = Field(default=1.0, gt=0, le=2.5)
    count: int | None = Field(default=None, gt=0, lt=10)
    clock: Annotated[int, SERVER_SETTING] = 5
    names: list[str] = Field(default_factory=list)


@pytest.mark.parametrize(("name", "expected"), [
    ("colour", LobbyOption("g", "colour", str, choices=("red", "blue"), modes=("m",))),
    ("size", LobbyOption("g", "size", int, choices=(3, 5), modes=("m",))),
    ("speed", LobbyOption("g", "speed", float, 0, 2.5, modes=("m",))),
    ("count", LobbyOption("g", "count", int, 1, 9, modes=("m",))),
    ("clock", None),
    ("names", None),
])
def test_field_types_map_to_discord_option_types(name: str, expected: LobbyOption | None) -> None:
    """Enum and Literal values become choices, ``gt``/``lt`` on whole numbers the next whole number, ``None``
    only makes a field optional; a server setting and a type Discord has no option for are not offered."""
    assert field_option("g", "m", name, Dropped.model_fields[name]) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "⛔ Small table has no option rounds. Its options are: first_player."),
    ("es", "⛔ Mesa pequeña no tiene la opción rondas. Sus opciones son: primer_jugador."),
])
def test_an_option_of_another_mode_is_refused_naming_what_the_mode_has(language: str, expected: str) -> None:
    """``/newgame asesino mode:small rounds:3``: the small table plays no series; the refusal lists its options as
    Discord shows them in the server's language."""
    with pytest.raises(UserError) as err:
        chosen_options(get_game("asesino"), "small", {"rounds": 3}, language)
    assert error_text(language, err.value) == expected


@pytest.mark.parametrize(("given", "language", "expected"), [
    ({"rounds": 99}, "en", "⛔ The option rounds is at most 10, not 99."),
    ({"rounds": 99}, "es", "⛔ La opción rondas es como mucho 10, no 99."),
    ({"rounds": 0}, "es", "⛔ La opción rondas es como mínimo 1, no 0."),
    ({"first_player": -1}, "es", "⛔ La opción primer_jugador es como mínimo 0, no -1."),
    ({"first_player": 10}, "en", "⛔ The option first_player is at most 9, not 10."),
])
def test_a_value_the_store_refuses_names_the_real_limit(given: dict[str, Any], language: str, expected: str) -> None:
    """Values are checked with the store's validators (``SeriesOptions``, the engine's ``Options``): the refusal
    names the limit, never pydantic's text."""
    with pytest.raises(TableError) as err:
        chosen_options(get_game("asesino"), "tabletop", given, language)
    assert error_text(language, err.value) == expected


@pytest.mark.parametrize(("minutes", "language", "expected"), [
    (-5, "en", "at least 1, not -5"), (0, "es", "1"), (7 * 24 * 60 + 1, "en", "at most 10080, not 10081"),
])
def test_a_starts_in_outside_a_week_is_refused_naming_the_limit(minutes: int, language: str, expected: str) -> None:
    """Discord never sends one (``starts_in`` is registered as 1-10080), but the booking checks it again: a past
    time would book a lobby that opens at once."""
    with pytest.raises(TableError) as err:
        validate_starts_in(minutes)
    text = error_text(language, err.value)
    assert expected in text and "starts_in" in text


def test_a_first_player_past_the_small_tables_four_seats_opens_no_lobby() -> None:
    """``/newgame asesino mode:small first_player:4``: the small table seats at most 4 (seats 0-3), so the lobby
    is refused at once instead of opening one that no Start could ever begin."""
    with pytest.raises(TableError) as err:
        chosen_options(get_game("asesino"), "small", {"first_player": 4}, "en")
    assert error_text("en", err.value) == "⛔ The option first_player is at most 3, not 4."


def test_a_modes_options_have_its_own_limits_not_the_widest() -> None:
    """What ``/rules`` and the lobby show for a mode: the small table's ``first_player`` is 0-3 (four seats), the
    tabletop's 0-9, though ``/newgame asesino`` offers 0-9 for both; ``rounds`` stays the series' 1-10."""
    small = {o.name: o for o in mode_options(get_game("asesino"), "small")}
    tabletop = {o.name: o for o in mode_options(get_game("asesino"), "tabletop")}
    assert (small["first_player"].minimum, small["first_player"].maximum, small["first_player"].modes) == (
        0, 3, ("small",))
    assert (tabletop["first_player"].maximum, tabletop["rounds"].maximum) == (9, 10) and "rounds" not in small
    assert small["first_player"].shown("es") == "`primer_jugador` (0-3)"


@pytest.mark.parametrize(("game", "name", "expected"), [
    ("verdugo", "match", "`modalidad` (Gira: todos son Verdugo una vez, Tesoro: hasta vaciar el Tesoro, "
                         "Abierta: hasta que el anfitrión la termine)"),
    ("cereal_killer", "difficulty", "`dificultad` (Novato (Ciudad B + Afueras B), Reincidente (Ciudad A + "
                                    "Afueras A), Compulsivo (Ciudad B + Afueras A), Cereal (Ciudad A + Afueras B))"),
])
def test_rules_names_each_choice_as_newgame_does_not_by_its_raw_value(game: str, name: str, expected: str) -> None:
    """``/rules`` in Spanish lists a choice option's choices by the names ``/newgame`` shows for them, never by
    the raw values (``tour, treasury, open``)."""
    option = {o.name: o for o in mode_options(get_game(game), "classic")}[name]
    assert option.shown("es") == expected
    assert expected in "\n".join(_mode_rules(get_game(game), "classic", "es"))


def test_accepted_options_split_into_the_engines_and_the_series() -> None:
    """``rounds`` goes to the series, the rest to the engine (unvalidated defaults are not added here)."""
    assert chosen_options(get_game("asesino"), "tabletop", {"rounds": 3, "first_player": 1}, "en") == (
        {"first_player": 1}, 3)
    assert chosen_options(get_game("cereal_killer"), "classic", {"side": "B"}, "es") == ({"side": "B"}, None)


async def test_every_command_is_what_discord_accepts_in_both_languages() -> None:
    """The whole tree, translated as it is synced, breaks none of Discord's rules (names lower case and valid in
    every locale, descriptions of 1-100 characters, at most 25 options and choices); /newgame's Spanish names come
    from the catalogues."""
    bot = CoronerBot(Settings(_env_file=None, discord_token="x"))
    bot.timers = TimerRunner(bot)
    await bot.load_plugins()
    await bot.tree.set_translator(CatalogTranslator())
    payloads = {c.name: await c.get_translated_payload(bot.tree, bot.tree.translator)
                for c in bot.tree.get_commands()}
    assert {name: command_problems(payload) for name, payload in payloads.items() if command_problems(payload)} == {}
    games = {sub["name"]: sub for sub in payloads["newgame"]["options"]}
    verdugo = {o["name"]: o for o in games["verdugo"]["options"]}
    assert verdugo["first_executioner"]["name_localizations"]["es-ES"] == "primer_verdugo"
    assert verdugo["first_executioner"]["description"].endswith("(0-7)")
    assert verdugo["mode"]["choices"][0]["name_localizations"]["es-ES"] == "Partidas encadenadas (4-8 jugadores)"
    assert games["verdugo"]["description_localizations"]["es-ES"] == "Abre una sala de Verdugo en este canal"


def test_more_games_than_discord_lists_fail_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord takes 25 subcommands: a 26th game is a clear error when the bot builds /newgame, not a sync
    refused later."""
    # patched in the globals of the very function called: e2e tests reload the bot's extension modules, so
    # ``bot.cogs.lobby.newgame`` in sys.modules may be a newer copy than the one imported above
    monkeypatch.setitem(newgame_group.__globals__, "all_games", lambda: [get_game("verdugo")] * 26)
    with pytest.raises(ValueError, match="25 games"):
        newgame_group(never)


def test_the_shape_from_before_typed_options_is_translated_or_refused_by_name() -> None:
    """Tests written as ``slash(channel, "newgame", {"game": ..., "mode": ...})`` still open the lobby; a free-text
    ``options`` fails naming the helper to use."""
    assert older_shape("newgame", {"game": "verdugo", "mode": "classic", "match": "open"}) == newgame_call(
        "verdugo", "classic", {"match": "open"}) == ("newgame verdugo", {"mode": "classic", "match": "open"})
    assert older_shape("config days", {"timezone": "UTC"}) == ("config days", {"timezone": "UTC"})
    with pytest.raises(ValueError, match="tests.support.newgame.newgame"):
        older_shape("newgame", {"game": "verdugo", "mode": "classic", "options": "match=open"})


def test_rules_cuts_a_long_summary_to_the_field_in_utf16_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mode's ``/rules`` fields each fit an embed field (1024 UTF-16 units) when the summary is one sentence too
    long for a field and made of characters outside the BMP (two units each): only that sentence is cut, its
    player counts and options are kept (in fields of their own when they no longer fit beside it)."""
    import bot.cogs.core.cog as core

    real = core.t
    monkeypatch.setattr(core, "t", lambda key, language, **kw: "😀" * 1000 if key == "rules.verdugo.classic"
                        else real(key, language, **kw))
    values = _mode_rules(get_game("verdugo"), "classic", "en")
    players, summary, options = values
    assert all(size(v) <= FIELD_VALUE for v in values) and summary.endswith("😀…")  # a 😀 is 2 units
    assert players == real("rules.players", "en", min=get_game("verdugo").mode("classic").min_players,
                           max=get_game("verdugo").mode("classic").max_players)
    shown = ", ".join(o.shown("en") for o in mode_options(get_game("verdugo"), "classic"))
    assert options == real("rules.options", "en", options=shown)


@pytest.mark.parametrize(("language", "ending"), [
    ("en", "the criminals win when half the players are murdered."),
    ("es", "los criminales, cuando han asesinado a la mitad de los jugadores.")])
def test_rules_of_a_summary_longer_than_a_field_goes_on_in_the_next_field_between_sentences(
        language: str, ending: str) -> None:
    """Issue 21: the social mode's summary is longer than one field: it goes on in a second field, split between
    two sentences, so the criminals' win condition is not cut off (nor, in Spanish, its whole sentence)."""
    values = _mode_rules(get_game("asesino"), "social", language)
    assert len(values) > 1 and all(size(v) <= FIELD_VALUE for v in values)
    assert ending in "\n".join(values) and "…" not in "".join(values)
    assert all(v.rstrip().endswith((".", ")")) for v in values)