"""Counted words agree with their count in both languages (issue 8, "Words and names": plurals through the
catalogues, never "1 steps")."""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalog
from bot.i18n.catalog import LANGUAGES, Catalog


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "I read 1 step; the Killer", "I read 2 steps; the Killer"),
    ("es", "Leí 1 paso; el Asesino", "Leí 2 pasos; el Asesino"),
])
def test_a_route_with_the_wrong_number_of_steps(language: str, one: str, two: str) -> None:
    """A Killer who DMs one number ("8") is told "I read 1 step", not "1 steps"."""
    render = catalog(language).render
    assert render("cereal_killer.parse.step_count", count=1, expected=3).startswith(one)
    assert render("cereal_killer.parse.step_count", count=2, expected=3).startswith(two)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Murder register 1/3: column 2", "Murder register 2/3: columns 2, 6"),
    ("es", "Registro de asesinatos 1/3: columna 2", "Registro de asesinatos 2/3: columnas 2, 6"),
])
def test_the_murder_register_names_one_column_or_several(language: str, one: str, two: str) -> None:
    """The 2-4 player table after the first murder: "column 2", not "columns 2"."""
    render = catalog(language).render
    assert render("asesino.ui.register", count=1, total=3, columns="2") == one
    assert render("asesino.ui.register", count=2, total=3, columns="2, 6") == two


# Words that follow a count in the catalogues; a non-plural message that puts one after a placeholder guesses.
COUNTED = {"en": "attempts|victims|days|murders|rounds|players|points|games|cards|steps|judgements|backers|columns",
           "es": "intentos|víctimas|días|asesinatos|rondas|jugadores|puntos|partidas|cartas|pasos|juicios|columnas"}
ONE = {"en": "attempt|victim|day|murder|round|player|point|game|card|step|judgement|backer|column",
       "es": "intento|víctima|día|asesinato|ronda|jugador|punto|partida|carta|paso|juicio|columna"}
# Counted messages that need no plural entry because their number is never 1 (each with the reason).
NEVER_ONE = {
    "asesino.end.cards_ran_out": "the tally is MURDERS_TO_WIN = 3",
    "asesino_social.intro.start": "6-12 players; the criminals' tally is floor(N/2) >= 3",
    "asesino_social.judgement.opened": "JUDGEMENT_BACKERS is 3",
    "asesino_social.end.criminals_win": "the tally is at least 3 murders",
    "cereal_killer.started.city": "2 or 3 players, 7 or 8 days",
    "cereal_killer.started.suburbs": "2 or 3 players, 7 or 8 days",
    "cereal_killer.end.survived": "7 or 8 days",
    "cereal_killer.no_victims_left": "MAX_VICTIMS is 6",
    "rules.players": "a range of players, both ends >= 2",
    "table.full": "a game seats at least 2",
    "table.bad_count": "a range of players, both ends >= 2",
    "lobby.mode_choice": "a range of players, both ends >= 2",
    "verdugo.match.started": "Verdugo seats at least MIN_PLAYERS (4)",
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def guessed_counts(book: Catalog) -> list[str]:
    """Keys of ``book`` whose text puts a counted word after a placeholder without being a plural entry."""
    counted = re.compile(r"\{\w+\}\)? (?:more |más )?(?:" + COUNTED[book.language] + r")\b")
    return sorted(key for key, text in book.messages.items()
                  if key not in book.plurals and key not in NEVER_ONE and counted.search(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_message_guesses_a_count(language: str) -> None:
    """Every message whose number can be 1 is a plural entry (its number comes in the explicit ``count``)."""
    assert guessed_counts(catalog(language)) == []


def test_a_counted_message_without_a_plural_form_fails_the_check() -> None:
    """The check above can fail: "{left} attempts left." as a plain message is caught; as a plural entry it is not."""
    assert guessed_counts(Catalog("en", {"x.missed": "{left} attempts left.", "x.ok": "Round {n}."})) == ["x.missed"]
    plural = Catalog("en", {"x.missed": "{left} attempts left."},
                     plurals={"x.missed": ("{left} attempt left.", "{left} attempts left.")})
    assert guessed_counts(plural) == []
    assert "es" in COUNTED and guessed_counts(Catalog("es", {"x.y": "Quedan {n} intentos."})) == ["x.y"]


def _plural_keys() -> list[str]:
    return sorted(set(catalog("en").plurals) | set(catalog("es").plurals))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", _plural_keys())
def test_every_plural_message_agrees_with_one_and_two(language: str, key: str) -> None:
    """Each plural message, with every number in it set to n: n=1 takes the "one" form and never says "1 days";
    n=2 takes the "other" form and never says "2 day"."""
    book = catalog(language)
    forms = book.plurals[key]
    assert book.template(key, 1) == forms[0]
    assert book.template(key, 2) == forms[-1]
    for n, wrong in ((1, COUNTED[language]), (2, ONE[language])):
        text = book.render(key, **dict.fromkeys(PLACEHOLDER.findall(book.template(key, n)), n) | {"count": n})
        assert not re.search(rf"\b{n} (?:more |más )?(?:{wrong})\b", text), text


def test_the_form_comes_only_from_count() -> None:
    """Another number in the params does not choose the form (it used to: the first number found)."""
    book = catalog("en")
    assert book.render("cereal_killer.missed", seat="A", role="Detective", space="B3", left=1, count=1).endswith(
        "1 attempt left.")
    assert book.render("leaderboard.points", seat=1, count=2) == "2 points"
    assert book.render("leaderboard.points", count=1) == "1 point"


@pytest.mark.parametrize(("key", "params", "one", "two"), [
    ("cereal_killer.end.objective_failed", {"day": 4, "needed": 3}, "with 1 victim out of 3", "with 2 victims"),
    ("asesino_social.reminder.idle", {"days": 2}, "1 more day at", "2 more days at"),
    ("asesino_social.end.time_up", {"days": 9, "killer": "K"}, "(1 murder)", "(2 murders)"),
    ("asesino.series.final", {"series": 1}, "(1 round)", "(2 rounds)"),
    ("asesino.series.first_round", {}, "A series of 1 round begins", "A series of 2 rounds begins"),
    ("core.bad_player_count", {}, "with 1 player.", "with 2 players."),
])
def test_the_messages_the_review_found(key: str, params: dict[str, object], one: str, two: str) -> None:
    """The reviewer's examples, with their numbers passed as the engines and cogs pass them."""
    def render(n: int) -> str:
        numbers = {"have": n, "days_left": n, "murders": n, "total": n}
        return catalog("en").render(key, **params, **numbers, count=n)
    assert one in render(1)
    assert two in render(2)
