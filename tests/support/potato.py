"""The test-only Hot Potato game installed for tests that play it without loading it as a plugin: its engine
(registered on import), its UI and its messages (``tests/support/locales``) added to the catalogues."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from bot.i18n import catalog
from bot.ui import register_ui
from tests.support.tiny_game import ENGINE
from tests.support.tiny_ui import PotatoUI

LOCALES = Path(__file__).with_name("locales")

__all__ = ["ENGINE", "install"]


def install() -> None:
    """Register the UI and add the game's catalogue to the loaded catalogues (idempotent)."""
    register_ui(PotatoUI())
    for language in ("en", "es"):
        with (LOCALES / language / "LC_MESSAGES" / "potato.po").open("rb") as handle:
            messages = {str(m.id): str(m.string) for m in read_po(handle, locale=language) if m.id}
        catalog(language).messages.update(messages)
