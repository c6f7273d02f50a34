"""The card reference: every card, object, Scaffold card, role, question, space kind and ability of the games'
data has an entry in English and Spanish, and what /card and /rules cards show fits Discord's limits."""

from __future__ import annotations

import pytest
import yaml

from bot.budget import EMBED_TOTAL, OPTION_TEXT, embed_size
from bot.cogs.reference import card_embed, cards_page, entries, lookup
from bot.cogs.reference.cog import choices, label
from bot.cogs.reference.entries import RULINGS, search
from bot.i18n.catalog import load_language
from games.asesino.common import INTENTION_CARDS, ROLE_CARDS
from games.asesino.social.roles import SocialRole, role_table
from games.cereal_killer.board import KIND_NAMES
from games.cereal_killer.models import QUESTIONS, ROLES
from games.core import all_games
from games.lets_kill.cards import CARDS
from games.verdugo.cards import deck

LANGUAGES = ("en", "es")
MESSAGES = {language: load_language(language) for language in LANGUAGES}


def _data_keys() -> list[str]:
    """Every thing of the games' data a player may look up, as ``<game>:<kind>:<id>``, walked from the data."""
    keys = [f"lets_kill:{c.type}:{c.id.split('-')[0]}" for c in CARDS.values()]
    cards = deck()
    keys += [f"verdugo:role:{r.id}" for r in cards.roles] + [f"verdugo:object:{o.id}" for o in cards.objects]
    keys += [f"verdugo:scaffold:{c.id}" for c in cards.scaffold] + ["verdugo:role:executioner"]  # no card
    keys += [f"asesino:card:{c}" for c in (*ROLE_CARDS, *INTENTION_CARDS)]
    keys += [f"asesino:social:{r.value}" for r in (*SocialRole, *role_table().specials)]
    keys += [f"cereal_killer:role:{r}" for r in ROLES]
    keys += [f"cereal_killer:question:{q}" for n in QUESTIONS for q in QUESTIONS[n]]
    keys += [f"cereal_killer:space:{k}" for k in KIND_NAMES.values()]
    return sorted(set(keys))


@pytest.mark.parametrize("key", _data_keys())
def test_every_thing_in_the_games_data_has_an_entry(key: str) -> None:
    """A card, object, role or question of the data is one /card away."""
    assert lookup(key) is not None, key


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e.key)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_has_its_name_and_text_in_both_languages(entry, language: str) -> None:
    """Name and text are written in this language's own catalogue (no English fallback, no raw key)."""
    assert entry.text_key in MESSAGES[language], entry.text_key
    assert len(MESSAGES[language][entry.text_key]) > 10
    if entry.name_key is not None:
        assert entry.name_key in MESSAGES[language], entry.name_key
    assert entry.kind_name(language) and not entry.kind_name(language).startswith("ref.")


def test_the_spanish_texts_are_translations() -> None:
    """No Spanish reference text is the English one copied (card names are printed names: ruling 13)."""
    same = [e.key for e in entries() if e.text("es") == e.text("en")]
    assert same == []


def test_every_game_has_entries_and_no_key_repeats() -> None:
    """Each game contributes entries; keys are unique and fit an autocomplete value."""
    assert {e.game for e in entries()} == {g.id for g in all_games() if g.id != "potato"}
    keys = [e.key for e in entries()]
    assert len(keys) == len(set(keys))
    assert max(len(k) for k in keys) <= OPTION_TEXT


def test_rulings_name_only_existing_entries() -> None:
    """``rulings.yaml`` never points at an entry that is not there."""
    listed = yaml.safe_load(RULINGS.read_text(encoding="utf-8"))
    assert sorted(k for k in listed if lookup(k) is None) == []
    assert lookup("verdugo:object:parasite").rulings() == ("R6", "R7")


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e.key)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_embed_fits(entry, language: str) -> None:
    """/card's embed is within Discord's limits and says what the entry does."""
    embed = card_embed(entry, language).to_dict()
    assert embed_size(embed) <= EMBED_TOTAL
    assert embed["description"] == entry.text(language)


@pytest.mark.parametrize("game", ["asesino", "cereal_killer", "lets_kill", "verdugo"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cards_page_of_rules_fits(game: str, language: str) -> None:
    """/rules game cards:true lists the game's entries by kind, in one embed within the limits."""
    embed = cards_page(game, language).to_dict()
    assert embed_size(embed) <= EMBED_TOTAL
    assert all(len(field["value"]) <= 1024 for field in embed["fields"])
    assert len(embed["fields"]) == len({e.kind for e in entries() if e.game == game})


def test_a_weapon_entry_shows_its_type_line_and_rulings() -> None:
    """The Grenade Launcher: its attributes and body count, its effect and ruling 3 of the README."""
    embed = card_embed(lookup("lets_kill:weapon:W10"), "en").to_dict()
    assert embed["title"] == "Grenade Launcher"
    assert embed["author"]["name"] == "Let's Kill! · Weapon · Gun, Explosive · body count 5"
    assert embed["fields"][0]["value"].startswith("README 3 (in ")


def test_autocomplete_matches_names_in_every_language() -> None:
    """A Spanish name finds the card on an English server, shown in English; values are entry keys."""
    found = choices("indulto", "en")
    assert [(c.name, c.value) for c in found] == [("Pardon · Verdugo", "verdugo:object:pardon")]
    assert [c.value for c in choices("pardon", "es")] == ["verdugo:object:pardon"]
    assert len(choices("", "es")) == 25
    assert all(len(c.name) <= OPTION_TEXT and len(c.value) <= OPTION_TEXT for c in choices("a", "es"))


def test_names_that_start_with_the_text_come_first() -> None:
    """"Sir" finds Sirens before names that merely contain it."""
    found = [e.key for e in search("sir", ("en",))]
    assert found[:2] == ["lets_kill:event:E13", "lets_kill:victim:V41"]


def test_names_match_without_their_accents_and_in_capitals() -> None:
    """"victima", "VÍCTIMA" and "víctima" find the same entries (people on phones skip the accents)."""
    accented = [e.key for e in search("víctima", ("es",))]
    assert "asesino:card:victim" in accented and "asesino:social:victim" in accented
    assert [e.key for e in search("victima", ("es",))] == accented
    assert [e.key for e in search("VÍCTIMA", ("es",))] == accented
    assert [c.name for c in choices("INSPECCION", "es")] == ["Inspección Real · Verdugo"]


def test_the_executioner_has_an_entry_in_both_languages() -> None:
    """Verdugo's Executioner (a seat's part for a round, not a dealt card) is one /card away, under its name in
    each language, with its pay rulings."""
    entry = lookup("verdugo:role:executioner")
    assert entry is not None and (entry.name("en"), entry.name("es")) == ("Executioner", "Verdugo")
    assert entry.text("en").startswith("Not a dealt card: each round one player is the Executioner")
    assert entry.rulings() == ("R12", "R13", "V-35")
    assert [c.value for c in choices("executioner", "en")][0] == "verdugo:role:executioner"


def test_two_entries_of_one_game_with_one_name_are_labelled_by_kind() -> None:
    """Asesino's Victim card and its social game's Victim role: two distinct labels; a name no other entry of
    its game shares keeps ``name · game``."""
    victims = [c.name for c in choices("victim", "en") if c.value.startswith("asesino:")]
    assert victims == ["Victim · Asesino en Serie · Card (tabletop and 2-4 players)",
                       "Victim · Asesino en Serie · Social game role"]
    assert label(lookup("verdugo:object:pardon"), "en") == "Pardon · Verdugo"
    for language in LANGUAGES:
        labels = [label(e, language) for e in entries()]
        assert sorted({x for x in labels if labels.count(x) > 1}) == [], language
