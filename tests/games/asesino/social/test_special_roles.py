"""The host's choice of special roles (ruling 31): validated against the role table, dealt from only, Victims in
the place of specials the choice cannot fill; left empty, the deal is the rulebook's (and the same as before)."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from bot.tables import TableError
from bot.tables.options import validate_options
from games.asesino.social import ENGINE, SocialOptions, SocialRole
from games.asesino.social.roles import deal_roles, role_table
from games.core import rng_for

from .helpers import START, seats


@pytest.mark.parametrize(("typed", "stored"), [
    ("doctor, prosecutor", "doctor, prosecutor"),
    ("Fiscal; MÉDICO", "doctor, prosecutor"),          # the Spanish names, any case, accents ignored
    ("maníaco/detective detective", "detective, maniac"),  # the table's order, each once
])
def test_the_choice_is_stored_as_role_ids_in_the_tables_order(typed: str, stored: str) -> None:
    """Role ids or their aliases, separated by commas, semicolons, slashes or spaces."""
    assert SocialOptions(special_roles=typed).special_roles == stored


@pytest.mark.parametrize(("typed", "code", "context"), [
    ("doctor, nurse", "asesino_social.option.unknown_role", {"value": "nurse"}),
    ("killer", "asesino_social.option.unknown_role", {"value": "killer"}),  # not a special
    ("accomplice", "asesino_social.option.unknown_role", {"value": "accomplice"}),  # never dealt
    (" , ;", "asesino_social.option.no_role", {}),
])
def test_a_name_outside_the_role_table_is_refused(typed: str, code: str, context: dict[str, str]) -> None:
    """Pydantic refuses it with the game's catalogue key, listing the specials the table has."""
    with pytest.raises(ValidationError) as caught:
        SocialOptions(special_roles=typed)
    error = caught.value.errors()[0]
    assert error["type"] == code
    assert error["ctx"] == context | {"allowed": "detective, maniac, doctor, journalist, prosecutor"}


def test_the_lobby_refuses_it_in_the_projects_words() -> None:
    """Through the store's validator: a ``TableError`` whose code is the game's key, naming the option."""
    with pytest.raises(TableError) as caught:
        validate_options("asesino", "social", {"special_roles": "nurse"})
    assert caught.value.code == "asesino_social.option.unknown_role"
    assert caught.value.params == {"name": "special_roles", "value": "nurse",
                                   "allowed": "detective, maniac, doctor, journalist, prosecutor"}
    assert validate_options("asesino", "social", {"special_roles": "fiscal"})["special_roles"] == "prosecutor"


@pytest.mark.parametrize("players", range(6, 13))
def test_only_chosen_specials_are_dealt_and_victims_fill_the_rest(players: int) -> None:
    """``doctor, journalist``: at most those two specials; the row's other special cards are Victims."""
    row = role_table().table[players]
    for seed in range(5):
        state = ENGINE.setup(SocialOptions(started_at=START, special_roles="doctor, journalist"), seats(players), seed)
        count = Counter(seat.card for seat in state.seats)
        assert count == {SocialRole.KILLER: 1, SocialRole.DOCTOR: 1, SocialRole.JOURNALIST: 1,
                         SocialRole.VICTIM: row.victims + row.specials - 2}


def test_a_choice_larger_than_the_row_is_drawn_from() -> None:
    """Four chosen, three dealt at 6 players: which three varies with the seed, never one outside the choice."""
    chosen = "detective, maniac, doctor, prosecutor"
    dealt = {frozenset(s.card for s in ENGINE.setup(SocialOptions(special_roles=chosen), seats(6), seed).seats)
             for seed in range(30)}
    assert len(dealt) > 1
    assert all(SocialRole.JOURNALIST not in cards for cards in dealt)


def test_no_choice_deals_as_before() -> None:
    """``None`` draws from every special exactly as the deal did before the option existed (replays still hold)."""
    for seed in range(20):
        rng, old = rng_for(seed, "roles"), rng_for(seed, "roles")
        specials = old.sample(role_table().specials, role_table().table[8].specials)
        before = [SocialRole.KILLER] + [SocialRole.VICTIM] * 3 + specials
        old.shuffle(before)
        assert deal_roles(8, rng) == before
