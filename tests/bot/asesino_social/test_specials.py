"""The social mode's ``special_roles`` option: ``all`` (in English or Spanish, any case, accents ignored) clears a
choice; unknown words are refused by name; the autocomplete never offers more than the role table has."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.cogs.asesino_social.specials import special_suggestions
from games.asesino.social import SocialOptions


@pytest.mark.parametrize("text", ["all", "ALL", " todos ", "Todas"])
def test_all_puts_every_special_in_play(text: str) -> None:
    assert SocialOptions(special_roles=text).special_roles is None
    assert SocialOptions(special_roles=text).specials() is None


def test_an_unknown_word_is_refused_by_name_and_all_mixed_with_roles_is_a_word_like_any() -> None:
    with pytest.raises(ValidationError) as caught:
        SocialOptions(special_roles="doctor, all")
    (error,) = caught.value.errors()
    assert error["type"] == "asesino_social.option.unknown_role" and error["ctx"]["value"] == "all"


def test_suggestions_grow_the_list_and_stop_when_every_special_is_chosen() -> None:
    everything = "detective, maniac, doctor, journalist, prosecutor"
    assert special_suggestions(everything + ", ", "en") == [
        ("Detective, Maniac, Doctor, Journalist, Prosecutor", everything)]
    assert special_suggestions("xyz", "en") == []
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in special_suggestions("", "es"))
