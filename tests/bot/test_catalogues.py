"""Message catalogues: English and Spanish carry the same keys and the same placeholders."""

from __future__ import annotations

import string

import pytest

from bot.i18n.catalog import load_language, t


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


EN = load_language("en")
ES = load_language("es")


def test_every_english_key_is_translated() -> None:
    """No message is English-only."""
    assert sorted(set(EN) - set(ES)) == []


def test_spanish_only_keys_are_command_localisations() -> None:
    """Spanish-only keys are slash-command names/descriptions whose English default lives in the code."""
    assert all(key.startswith("cmd.") for key in set(ES) - set(EN))


@pytest.mark.parametrize("key", sorted(EN))
def test_placeholders_match(key: str) -> None:
    """A translation uses exactly the placeholders of the English message."""
    assert placeholders(ES[key]) == placeholders(EN[key])


def test_render_fills_params_and_survives_missing_ones() -> None:
    """Known params are filled; a missing one stays visible as {name} instead of crashing."""
    assert t("core.bad_player_count", "es", count=3) == "Este juego no se puede jugar con 3 jugadores."
    assert t("core.bad_player_count", "en") == "This game cannot be played with {count} players."
    assert t("no.such.key", "es") == "no.such.key"


def _modes() -> list[tuple[str, str]]:
    """Every mode of the shipped games (the test-only template game, registered when a test imports it, has its
    catalogue in ``tests/support/locales``)."""
    from games.core import all_games, get_engine

    return [(game.id, mode.id) for game in all_games() for mode in game.modes
            if type(get_engine(game.id, mode.id)).__module__.startswith("games.")]


@pytest.mark.parametrize(("game", "mode"), _modes())
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_mode_has_a_name_and_a_rules_summary(game: str, mode: str, language: str) -> None:
    """/rules and the lobby never show a raw key: each game and mode has its name and summary in both languages."""
    messages = load_language(language)
    for key in (f"game.{game}", f"mode.{game}.{mode}", f"rules.{game}", f"rules.{game}.{mode}"):
        assert key in messages, key


#: every slash command and group the catalogues localise: its English path ("config days") -> its Spanish name
COMMANDS = {key[4:-5].replace(".", " "): name for key, name in ES.items()
            if key.startswith("cmd.") and key.endswith(".name")}
TOP_LEVEL = {word for path in COMMANDS if " " not in path for word in (path, COMMANDS[path])}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_text_names_a_command_only_through_the_command_placeholder(language: str) -> None:
    """Issue 21: no text spells a slash command out (the Spanish ones said ``/config days`` and ``/newgame``
    where Discord shows ``/ajustes dias`` and ``/nuevapartida``); each names it as ``{/path}``, a command that
    exists."""
    messages = load_language(language)
    spelled = {key: text for key, text in messages.items() if not key.startswith("cmd.")
               and any(f"/{word}" in text.replace("{/", "{") for word in TOP_LEVEL)}
    assert spelled == {}
    named = {name[1:] for text in messages.values() for name in placeholders(text) if name.startswith("/")}
    assert named and named <= set(COMMANDS)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "No games right now. Open one with /newgame."),
    ("es", "Ninguna partida ahora mismo. Abre una con /nuevapartida.")])
def test_a_command_is_named_in_the_readers_language(language: str, expected: str) -> None:
    """``{/newgame}`` renders as the name Discord shows the reader; a subcommand path takes each word's name."""
    assert t("games.none", language) == expected
    assert t("rules.asesino.social", "es").count("/ajustes dias") == 1
