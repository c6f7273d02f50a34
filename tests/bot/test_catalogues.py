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
