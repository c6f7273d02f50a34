"""The reference: one entry per card, object, Scaffold card, role, question, space kind and ability of every game,
walked from the games' own data (never a hand-kept list).

An :class:`Entry` is keyed ``<game>:<kind>:<id>`` with the data's id (a Let's Kill card's printed id without its
copy suffix: ``E08-1`` and ``E08-2`` are one entry ``lets_kill:event:E08``). Its name comes from the game's own
catalogue key (Let's Kill names are printed names, shown as they are in every language: ruling 13 of
``games/lets_kill/README.md``); what it does is the catalogue entry ``ref.<game>.<id>`` written once, in our own
words, in ``bot/cogs/reference/locales`` (or the game's own text where it already has one: Verdugo's Scaffold
cards); the ruling numbers that settle its edge cases are in ``rulings.yaml``
beside this file (each game's README or edition numbering: ``LK-10``, ``R6``, ``ruling 21``...).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from bot.i18n import t
from games.asesino.common import INTENTION_CARDS, ROLE_CARDS
from games.asesino.social.roles import SocialRole
from games.cereal_killer.board import KIND_NAMES
from games.cereal_killer.models import QUESTIONS, ROLES
from games.lets_kill.cards import CARDS
from games.verdugo.cards import deck

RULINGS = Path(__file__).with_name("rulings.yaml")
EXECUTIONER = "executioner"  # Verdugo's Executioner entry id (edition §1: "the Executioner" / "el Verdugo")


@dataclass(frozen=True)
class Entry:
    """One thing a player may look up. ``name_key`` is a catalogue key, or ``None`` when ``printed`` is the name
    in every language; ``text_key`` says what it does; ``detail`` (a catalogue key and its parameters) is the
    entry's type line, such as a Weapon's attributes and body count."""

    game: str
    kind: str
    id: str
    name_key: str | None = None
    printed: str | None = None
    detail: tuple[str, tuple[tuple[str, object], ...]] | None = None
    written: str | None = None

    @property
    def key(self) -> str:
        """``<game>:<kind>:<id>``, at most 100 characters (an autocomplete value)."""
        return f"{self.game}:{self.kind}:{self.id}"

    @property
    def text_key(self) -> str:
        """``ref.<game>.<id>``, or the game's own card text where its catalogue already has one (``written``)."""
        return self.written or f"ref.{self.game}.{self.id}"

    def name(self, language: str) -> str:
        return self.printed if self.name_key is None else t(self.name_key, language)

    def kind_name(self, language: str) -> str:
        """The entry's kind in words (``ref.kind.<game>.<kind>``), with its type line when it has one."""
        kind = t(f"ref.kind.{self.game}.{self.kind}", language)
        if self.detail is None:
            return kind
        key, params = self.detail
        return t(key, language, **{name: _words(value, language) for name, value in params})

    def text(self, language: str) -> str:
        return t(self.text_key, language)

    def rulings(self) -> tuple[str, ...]:
        """The ruling numbers for this entry (``rulings.yaml``), in the order written there."""
        return tuple(_rulings().get(self.key, ()))


def _words(value: object, language: str) -> str:
    """A type-line parameter: a tuple of Let's Kill attribute ids becomes their names, anything else its text."""
    if isinstance(value, tuple):
        return ", ".join(t(f"lets_kill.attr.{a}", language) for a in value)
    return str(value)


@cache
def _rulings() -> dict[str, list[str]]:
    return yaml.safe_load(RULINGS.read_text(encoding="utf-8")) or {}


def _lets_kill() -> Iterator[Entry]:
    seen: set[str] = set()
    for card in CARDS.values():
        base = card.id.split("-")[0]
        if base in seen:
            continue
        seen.add(base)
        detail: tuple[str, tuple[tuple[str, object], ...]] | None = None
        if card.type == "weapon":
            detail = ("lets_kill.kind.weapon", (("attributes", card.attributes), ("body_count", card.body_count)))
        elif card.type == "victim":
            detail = ("lets_kill.kind.victim", (("attributes", card.attributes), ("points", card.points)))
        elif card.type == "surprise":
            detail = (f"lets_kill.kind.surprise.{card.face}", ())
        elif card.type == "event":
            detail = (f"lets_kill.kind.event.{card.subtype}", ())
        yield Entry("lets_kill", card.type, base, printed=card.name, detail=detail)


def _verdugo() -> Iterator[Entry]:
    cards = deck()
    # the Executioner is a seat's part for a round, not a dealt card (edition §4: "receives neither a role nor
    # an object"), so the deck does not list it; it is still the role a player most needs to look up
    yield Entry("verdugo", "role", EXECUTIONER, f"ref.name.verdugo.{EXECUTIONER}")
    yield from (Entry("verdugo", "role", r.id, f"verdugo.role.{r.id}") for r in cards.roles)
    yield from (Entry("verdugo", "object", o.id, f"verdugo.object.{o.id}") for o in cards.objects)
    yield from (Entry("verdugo", "scaffold", c.id, f"verdugo.card.{c.id}",
                      detail=(f"ref.kind.verdugo.scaffold.{c.timing}", ()), written=f"verdugo.card_text.{c.id}")
                for c in cards.scaffold)


def _asesino() -> Iterator[Entry]:
    yield from (Entry("asesino", "card", c, f"asesino.card.{c}") for c in (*ROLE_CARDS, *INTENTION_CARDS))
    yield from (Entry("asesino", "social", r.value, f"asesino_social.role.{r.value}",
                      written=f"ref.asesino_social.{r.value}") for r in SocialRole)


def _cereal_killer() -> Iterator[Entry]:
    yield from (Entry("cereal_killer", "role", r, f"ref.name.cereal_killer.{r}") for r in ROLES)
    yield from (Entry("cereal_killer", "question", q, f"cereal_killer.question.{q}") for q in QUESTIONS[3])
    yield from (Entry("cereal_killer", "space", k, f"cereal_killer.kind.{k}") for k in KIND_NAMES.values())
    yield from (Entry("cereal_killer", "ability", a, f"cereal_killer.ability.{a}") for a in ("sniff", "bark", "bite"))


@cache
def entries() -> tuple[Entry, ...]:
    """Every entry of every game, in each game's data order."""
    return (*_asesino(), *_cereal_killer(), *_lets_kill(), *_verdugo())


@cache
def by_key() -> dict[str, Entry]:
    return {entry.key: entry for entry in entries()}


def of_game(game: str) -> tuple[Entry, ...]:
    return tuple(entry for entry in entries() if entry.game == game)


def shares_name(entry: Entry, language: str) -> bool:
    """Whether another entry of ``entry``'s game has the same name in ``language`` (Asesino's Victim card and
    its social game's Victim role), so a label must say which kind it is."""
    return _names(entry.game, language).count(entry.name(language)) > 1


@cache
def _names(game: str, language: str) -> list[str]:
    return [entry.name(language) for entry in of_game(game)]


def lookup(key: str) -> Entry | None:
    """The entry ``key`` (``<game>:<kind>:<id>``), or ``None``."""
    return by_key().get(key)


def folded(text: str) -> str:
    """``text`` for matching: case-folded and without accents (NFKD, combining marks dropped), so ``"VICTIMA"``
    and ``"víctima"`` both give ``"victima"`` (players on phones rarely type the accents)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def search(current: str, languages: tuple[str, ...]) -> list[Entry]:
    """Entries whose name in any of ``languages`` (or whose id) contains ``current``, ignoring case and accents
    (:func:`folded`); names that start with it first. Every entry when ``current`` is empty."""
    needle = folded(current.strip())
    starts, contains = [], []
    for entry in entries():
        names = [folded(entry.name(language)) for language in languages] + [folded(entry.id)]
        if any(name.startswith(needle) for name in names):
            starts.append(entry)
        elif any(needle in name for name in names):
            contains.append(entry)
    return starts + contains
