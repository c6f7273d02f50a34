"""Message catalogues: gettext ``.po`` files read with Babel, one domain per area.

Layout: ``bot/i18n/locales/<lang>/LC_MESSAGES/<domain>.po``, plus the same layout inside any game's own package
(``games/<game>/locales/`` or ``bot/cogs/<game>/locales/``), so a game ships its messages with it.
Every ``msgid`` is a dotted message key (the
``key`` of a game :class:`~games.core.Event`, an :class:`~games.core.IllegalAction` code, or a UI string such as
``lobby.join``); every ``msgstr`` is the text, with ``{name}`` placeholders filled by :meth:`Catalog.render`.
Spanish falls back to English for a missing key; a key missing everywhere renders as the key itself, so a
gap is visible but never crashes a game.
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALES = Path(__file__).with_name("locales")
LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Catalog:
    """All messages of one language, merged over every domain."""

    def __init__(self, language: str, messages: dict[str, str], fallback: Catalog | None = None) -> None:
        self.language = language
        self.messages = messages
        self.fallback = fallback

    def has(self, key: str) -> bool:
        return key in self.messages or (self.fallback is not None and self.fallback.has(key))

    def template(self, key: str) -> str:
        if key in self.messages:
            return self.messages[key]
        if self.fallback is not None:
            return self.fallback.template(key)
        return key

    def render(self, key: str, /, **params: Any) -> str:
        """The message ``key`` with ``params`` filled in; unknown placeholders are left as ``{name}``."""
        return string.Formatter().vformat(self.template(key), (), _Lenient(params))


def locale_dirs() -> list[Path]:
    """Where catalogues live: ``bot/i18n/locales``, then the ``locales/`` of every package on ``games.__path__``
    and ``bot.cogs.__path__`` (a game's own messages)."""
    import games
    from bot import cogs

    dirs = [LOCALES]
    for parent in (*games.__path__, *cogs.__path__):
        dirs += sorted(path for path in Path(parent).glob("*/locales") if path.is_dir())
    return dirs


def load_language(language: str) -> dict[str, str]:
    """Every ``msgid -> msgstr`` of ``language`` from :func:`locale_dirs` (untranslated entries are skipped)."""
    messages: dict[str, str] = {}
    paths = [path for base in locale_dirs() for path in sorted((base / language / "LC_MESSAGES").glob("*.po"))]
    for path in paths:
        with path.open("rb") as handle:
            for message in read_po(handle, locale=language):
                if message.id and message.string and not message.pluralizable:  # plurals: see bot.budget
                    messages[str(message.id)] = str(message.string)
    return messages


@cache
def catalog(language: str = DEFAULT_LANGUAGE) -> Catalog:
    """The catalogue of ``language`` (``en`` or ``es``; anything else gets English)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    fallback = None if language == DEFAULT_LANGUAGE else catalog(DEFAULT_LANGUAGE)
    return Catalog(language, load_language(language), fallback)


def t(key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """Shortcut: ``catalog(language).render(key, **params)``."""
    return catalog(language).render(key, **params)
