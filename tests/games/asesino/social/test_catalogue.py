"""Every message key and error code of the social engine exists in the English and Spanish catalogues."""

from __future__ import annotations

import re
import string
import typing
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import games.asesino.social as social
from games.asesino.social import SocialAction, SocialRole
from games.asesino.social.roles import characters

LOCALES = Path("bot/i18n/locales")
SOURCE = Path(social.__file__).parent


def messages(language: str) -> dict[str, str]:
    path = LOCALES / language / "LC_MESSAGES" / "asesino_social.po"
    with path.open("rb") as handle:
        # a plural entry (msgid_plural) is keyed by its msgid, checked in its last ("other") form
        return {str(m.id[0] if m.pluralizable else m.id): str(m.string[-1] if m.pluralizable else m.string)
                for m in read_po(handle) if m.id}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def used_keys() -> set[str]:
    found = set()
    for path in SOURCE.glob("*.py"):
        found |= set(re.findall(r'"(asesino_social\.[a-z_.]*[a-z_])"', path.read_text(encoding="utf-8")))
    action_types = [kind.model_fields["type"].default for kind in typing.get_args(typing.get_args(SocialAction)[0])]
    assert len(action_types) == 17
    found |= {f"asesino_social.timeline.{kind}" for kind in action_types}
    found |= {f"asesino_social.character.{name}" for name in characters()}
    found |= {f"asesino_social.role.{role.value}" for role in SocialRole}
    found |= {f"asesino_social.detail.{word}" for word in ("saved", "killed", "stood")}
    return found


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_the_engine_uses_is_translated(language: str) -> None:
    """Event keys, error codes, roles, characters and timeline kinds all have a message."""
    used = used_keys()
    assert {"asesino_social.letter_names_player", "asesino_social.death", "asesino_social.dead"} <= used
    missing = used - set(messages(language))
    assert not missing


def test_english_and_spanish_have_the_same_keys_and_placeholders() -> None:
    """Both catalogues hold the same keys, each with the same {placeholders} (slash-command localisations,
    ``cmd.*``, are Spanish-only: their English default lives in the code)."""
    en, es = messages("en"), {k: v for k, v in messages("es").items() if not k.startswith("cmd.")}
    assert set(en) == set(es)
    assert {key: fields(text) for key, text in en.items()} == {key: fields(text) for key, text in es.items()}
