"""Every message key the Asesino card modes emit or raise is in both catalogues (asesino.po, en and es), with
the same placeholders in each language."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from games.asesino.common import INTENTION_CARDS, ROLE_CARDS, card_key, role_key
from games.asesino.small.models import SmallOptions
from games.asesino.tabletop.models import TabletopOptions
from games.core import SeatInfo
from tests.games.asesino.support import SMALL, TABLE, play_randomly

ROOT = Path(__file__).resolve().parents[3]
SOURCES = [*ROOT.glob("games/asesino/common.py"), *ROOT.glob("games/asesino/series.py"),
           *ROOT.glob("games/asesino/tabletop/*.py"), *ROOT.glob("games/asesino/small/*.py")]
LITERAL = re.compile(r"\"(asesino\.[a-z_.]+[a-z_])\"")
#: keys the sources build with f-strings, spelled out (some never occur in random play)
BUILT_KEYS = {
    "asesino.direction.clockwise", "asesino.direction.counterclockwise", "asesino.statement", "asesino.last_words",
    "asesino.accusation.right", "asesino.accusation.wrong", "asesino.effect.detective.killer",
    "asesino.effect.detective.innocent", "asesino.effect.prosecutor.alive", "asesino.effect.prosecutor.dead",
    "asesino.small.detective_check.killer", "asesino.small.detective_check.innocent",
    "asesino.small.prompt.accomplice", "asesino.small.prompt.prosecutor", "asesino.small.prompt.journalist",
    "asesino.small.played.good", "asesino.small.played.bad",
}
CORE_KEYS = {"core.bad_player_count", "core.game_over", "core.not_your_turn"}


def messages(language: str) -> dict[str, str]:
    with (ROOT / "bot/i18n/locales" / language / "LC_MESSAGES/asesino.po").open("rb") as handle:
        # a plural entry (msgid_plural) is keyed by its msgid, checked in its last ("other") form
        return {str(m.id[0] if m.pluralizable else m.id): str(m.string[-1] if m.pluralizable else m.string)
                for m in read_po(handle) if m.id}


def emitted_keys() -> set[str]:
    """String-literal keys in the sources, every card/role name, and the keys seen in random games (which
    covers keys built with f-strings)."""
    keys = {key for path in SOURCES for key in LITERAL.findall(path.read_text())} | BUILT_KEYS
    keys |= {card_key(c) for c in (*ROLE_CARDS, *INTENTION_CARDS)} | {role_key(r) for r in ROLE_CARDS}
    for engine, options, counts in ((TABLE, TabletopOptions(), range(5, 11)), (SMALL, SmallOptions(), (2, 3, 4))):
        for players in counts:
            for seed in range(25):
                state = engine.setup(options, [SeatInfo()] * players, seed)
                keys |= {e.key for e in engine.intro(state)}
                _, log = play_randomly(engine, state, random.Random(seed))
                keys |= {e.key for _, _, events in log for e in events}
    return keys


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_key_has_a_message(language: str) -> None:
    """No event key, error code or card name is missing from a catalogue."""
    catalogue = messages(language)
    missing = sorted(k for k in emitted_keys() if k not in catalogue and k not in CORE_KEYS)
    assert missing == []
    assert all(catalogue.values())


def test_english_and_spanish_share_keys_and_placeholders() -> None:
    """Both languages define the same keys with the same {placeholders}."""
    en, es = messages("en"), messages("es")
    assert en.keys() == es.keys()
    assert {k: placeholders(v) for k, v in en.items()} == {k: placeholders(v) for k, v in es.items()}
