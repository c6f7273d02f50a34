"""What each held card does (/hand, My secrets, the Let's Kill! hand DM) and the effect a move menu's option
carries: read from the seat's own view only, within Discord's limits, over seeded random games of every mode."""

from __future__ import annotations

import random

import pytest

from bot.budget import EMBED_DESCRIPTION, OPTION_TEXT, size
from bot.cogs.reference.held import card_effect, effect, held, held_embed
from games.core import SeatInfo, get_engine
from games.lets_kill.cards import CARDS

MODES = [("asesino", "tabletop", 5), ("asesino", "small", 3), ("asesino", "social", 6),
         ("cereal_killer", "classic", 3), ("verdugo", "classic", 5), ("lets_kill", "classic", 4)]


def _walk(game: str, mode: str, players: int, seed: int, steps: int = 60):
    """(state, engine) after each of up to ``steps`` random legal moves of a seeded game."""
    engine = get_engine(game, mode)
    state = engine.setup(engine.Options(), [SeatInfo(names=(f"p{i}",)) for i in range(players)], seed)
    rng = random.Random(seed)
    yield engine, state
    for _ in range(steps):
        moves = [(seat, a) for seat in range(players) for a in engine.legal_actions(state, seat)]
        if not moves or engine.outcome(state) is not None:
            return
        seat, action = rng.choice(moves)
        state = engine.apply(state, seat, action).state
        yield engine, state


@pytest.mark.parametrize(("game", "mode", "players"), MODES)
def test_every_seat_sees_what_its_own_cards_do(game: str, mode: str, players: int) -> None:
    """Every seat holds at least its role or a card with an entry, and the explanation fits one embed."""
    for engine, state in _walk(game, mode, players, seed=7):
        for seat in range(players):
            view = engine.view(state, seat)
            entries = held(game, seat, view)
            assert entries, (game, mode, seat)  # the Verdugo Executioner's part too, though it holds no card
            if game == "verdugo":
                assert (entries[0].key == "verdugo:role:executioner") == (view["executioner"] == seat)
            for language in ("en", "es"):
                embed = held_embed(entries, language)
                assert embed is None or size(embed.description) <= EMBED_DESCRIPTION


def test_held_reads_only_the_seats_own_cards() -> None:
    """A Let's Kill! hand gives its cards' entries; a copy suffix is one entry; a public view gives nothing."""
    entries = held("lets_kill", 0, {"hand": ["W10", "E08-1", "E08-2"], "known": {"V05": "S07"}})
    assert [e.key for e in entries] == ["lets_kill:weapon:W10", "lets_kill:event:E08", "lets_kill:surprise:S07"]
    assert held("lets_kill", 0, {"town": [{"card": "V05"}]}) == []
    assert [e.key for e in held("verdugo", 1, {"you": {"role": "jester", "dealt": "cheese"}})] == [
        "verdugo:role:jester", "verdugo:object:cheese"]
    assert [e.key for e in held("asesino", 1, {"me": {"role": "doctor"}})] == ["asesino:social:doctor"]
    assert [e.key for e in held("cereal_killer", 2, {"roles": ["killer", "detective", "lola"]})] == [
        "cereal_killer:role:lola"]
    assert [e.key for e in held("verdugo", 2, {"executioner": 2, "you": {"seat": 2}})] == ["verdugo:role:executioner"]
    assert held("potato", 0, {}) == []


def test_the_held_embed_names_each_card_and_its_effect() -> None:
    """``**name**: text`` per entry, under a translated title."""
    embed = held_embed(held("verdugo", 1, {"you": {"role": "jester"}}), "es")
    assert embed.title == "Qué hacen tus cartas"
    assert embed.description.startswith("**Bufón**: Quiere morir")


@pytest.mark.parametrize("card", sorted(CARDS))
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_lets_kill_card_option_carries_a_description_that_fits(card: str, language: str) -> None:
    """A card's option description is its effect, at most Discord's 100 units."""
    text = card_effect(card, language)
    assert text and size(text) <= OPTION_TEXT


@pytest.mark.parametrize("key", ["asesino:card:doctor", "cereal_killer:question:parity", "verdugo:object:doll"])
def test_menu_effects_are_clipped_to_an_option_description(key: str) -> None:
    """Every other menu's effect fits too; an unknown key gives no description."""
    assert 10 < size(effect(key, "es")) <= OPTION_TEXT
    assert effect("asesino:card:nothing", "en") is None and card_effect("X99", "en") is None
