"""Every game's achievements book (``games/<game>/data/achievements.yaml``) against its schema, its modes, the
facts its engine gives and the catalogues; and the book's conditions themselves."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from bot.i18n.catalog import load_language
from games.core import SeatInfo, all_games, get_engine
from games.core.achievements import Book, Spec, book_of

GAMES = ("asesino", "cereal_killer", "verdugo", "lets_kill")


def _finished(game: str, mode: str, seed: int = 1):  # noqa: ANN202 - an engine state
    """A game of ``game``/``mode`` at its smallest count played with random legal moves to its end."""
    engine = get_engine(game, mode)
    seats = [SeatInfo(names=[f"p{i}"]) for i in range(engine.mode.min_players)]
    state, rng = engine.setup(engine.Options(), seats, seed), random.Random(seed)
    while not engine.is_over(state):
        seat, action = rng.choice([(s, a) for s in range(len(seats)) for a in engine.legal_actions(state, s)])
        state = engine.apply(state, seat, action).state
    return engine, state


def _facts(game: str, mode: str) -> set[str]:
    """The fact names the engine of ``game``/``mode`` gives every seat (the social mode, in real time, from its
    deal: its facts do not depend on the game being over)."""
    if (game, mode) == ("asesino", "social"):
        engine = get_engine(game, mode)
        state = engine.setup(engine.Options(), [SeatInfo(names=[f"p{i}"]) for i in range(6)], 1)
    else:
        engine, state = _finished(game, mode)
    facts = engine.facts(state, [])
    names = [set(seat) for seat in facts.values()]
    assert len(facts) == engine.seat_count(state) and all(n == names[0] for n in names)
    return names[0]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_declares_achievements_for_real_modes(game: str) -> None:
    """A first win among them; every mode named exists."""
    book = book_of(game)
    modes = {m.id for info in all_games() if info.id == game for m in info.modes}
    assert any(spec.once and spec.id.startswith("first_win") for spec in book.achievements)
    assert all(set(spec.modes or ()) <= modes for spec in book.achievements)


@pytest.mark.parametrize(("game", "mode"), [(info.id, m.id) for info in all_games() if info.id in GAMES
                                            for m in info.modes])
def test_every_condition_names_a_fact_the_engine_gives(game: str, mode: str) -> None:
    """A misspelt fact would never be met: every ``when`` of the mode names one of its engine's facts."""
    facts = _facts(game, mode)
    assert "won" in facts
    for spec in book_of(game).achievements:
        if spec.applies(mode):
            assert set(spec.when) <= facts, (spec.id, set(spec.when) - facts)


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_every_achievement_has_a_name_and_a_hint(game: str, language: str) -> None:
    """``<game>.achievement.<id>`` (a short name) and ``.hint`` in both languages."""
    messages = load_language(language)
    for spec in book_of(game).achievements:
        name, hint = messages.get(f"{game}.achievement.{spec.id}"), messages.get(f"{game}.achievement.{spec.id}.hint")
        assert name and hint and len(name) <= 40, spec.id


@pytest.mark.parametrize(("when", "facts", "holds"), [
    ({"won": True}, {"won": True}, True),
    ({"won": True}, {"won": 1}, False),          # a yes/no is not a number
    ({"targeted": 0}, {"targeted": False}, False),
    ({"role": "killer", "won": True}, {"role": "killer", "won": False}, False),
    ({"day": {"max": 2}}, {"day": 2}, True),
    ({"day": {"max": 2}}, {"day": 3}, False),
    ({"lone_guns": {"min": 1}}, {"lone_guns": 0}, False),
    ({"role": {"in": ["doctor", "victim"]}}, {"role": "victim"}, True),
    ({"role": {"in": ["doctor", "victim"]}}, {"role": "killer"}, False),
    ({"served": {"min": 1}}, {}, False),          # a fact the seat lacks fails
])
def test_conditions(when: dict, facts: dict, holds: bool) -> None:
    """Equality (typed), ranges and lists of values."""
    assert Spec(id="x", when=when).holds(facts) is holds


def test_award_lists_every_seat_in_the_books_order() -> None:
    """Seats that earned nothing get an empty list; a mode the achievement is not for earns nothing."""
    book = Book.model_validate({"achievements": [
        {"id": "b", "when": {"won": True}}, {"id": "a", "when": {"score": {"min": 5}}},
        {"id": "c", "modes": ["other"], "when": {"won": True}}]})
    assert book.award("classic", {0: {"won": True, "score": 7}, 1: {"won": False, "score": 1}}) == {
        0: ["b", "a"], 1: []}


@pytest.mark.parametrize("data", [
    {"achievements": [{"id": "a", "when": {"won": True}}, {"id": "a", "when": {"won": False}}]},  # repeated id
    {"achievements": [{"id": "Bad id", "when": {"won": True}}]},
    {"achievements": [{"id": "a", "when": {}}]},  # no condition: everyone would earn it
    {"achievements": [{"id": "a", "when": {"won": True}, "colour": "red"}]},  # an unknown key
    {"achievements": [{"id": "a", "when": {"day": {"over": 3}}}]},
])
def test_a_malformed_book_is_refused(data: dict) -> None:
    with pytest.raises(ValidationError):
        Book.model_validate(data)
