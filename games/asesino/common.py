"""Cards, roles and the destiny arithmetic shared by the Asesino en Serie card modes.

A card is its kind (cards of one kind are interchangeable), so hands and piles are lists of :data:`Card`.
Role cards double as intention cards: Killer and Accomplice count as Bad, every other role card as Good
(rulebook, "Game Setup"). Catalogue keys: ``asesino.card.<kind>`` names a card, ``asesino.role.<kind>`` a role.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel

from games.core import Audience, Event, Waiting
from games.core.copying import unchecked

Card = Literal["victim", "detective", "prosecutor", "journalist", "doctor", "killer", "accomplice", "good", "bad"]
Side = Literal["good", "evil"]

ROLE_CARDS: tuple[Card, ...] = ("victim", "detective", "prosecutor", "journalist", "doctor", "killer", "accomplice")
INTENTION_CARDS: tuple[Card, ...] = ("good", "bad")
EVIL_ROLES: frozenset[str] = frozenset({"killer", "accomplice"})
BAD_CARDS: frozenset[str] = frozenset({"killer", "accomplice", "bad"})

#: longest text a player may attach to a declaration, a statement or last words
WORDS_MAX = 200
SPEECH_MAX = 1000


_PUBLIC = Audience.public()
_SAID, _TOLD = frozenset({"key", "params"}), frozenset({"key", "params", "audience"})


def said(key: str, params: dict[str, Any], audience: Audience | None = None) -> Event:
    """``Event(key=key, params=params, audience=audience)`` (public when ``audience`` is ``None``), built without
    validating: for the events a move makes many of from values the rules hold (a catalogue key, JSON-like
    parameters of seats, columns and cards); validating them was a tenth of a move."""
    if audience is None:
        return unchecked(Event, {"key": key, "params": params, "audience": _PUBLIC, "seat_params": ()}, _SAID)
    return unchecked(Event, {"key": key, "params": params, "audience": audience, "seat_params": ()}, _TOLD)


def is_bad(card: Card) -> bool:
    """Whether ``card`` counts as a Bad intention (Bad, Killer, Accomplice)."""
    return card in BAD_CARDS


def side_of(role: Card) -> Side:
    """The team of a role: Killer and Accomplice are ``evil``, everyone else ``good``."""
    return "evil" if role in EVIL_ROLES else "good"


def card_key(card: Card) -> str:
    """The catalogue key naming ``card``."""
    return f"asesino.card.{card}"


def role_key(role: Card) -> str:
    """The catalogue key naming ``role``."""
    return f"asesino.role.{role}"


class Fate(BaseModel):
    """The verdict of a set of revealed cards.

    ``bad``: Bad intentions counted (Killer and Accomplice included); ``killer_card``: the Killer card is there;
    ``doctor_cancelled``: the Doctor cancelled one Bad; ``doctor_saved``: that cancellation is what spared the
    player; ``murdered``: the verdict.
    """

    bad: int
    killer_card: bool
    doctor_cancelled: bool
    doctor_saved: bool
    murdered: bool


def fate(cards: Iterable[Card]) -> Fate:
    """Judge revealed cards: the Killer card always kills; otherwise 2+ Bad kill, and the Doctor card cancels
    one Bad first (rulebook, "Intention/Role Cards" and the 2-4 player "Effects of Cards When Revealed")."""
    shown = list(cards)
    bad = sum(1 for card in shown if is_bad(card))
    killer_card = "killer" in shown
    cancelled = "doctor" in shown and bad > 0 and not killer_card
    effective = bad - 1 if cancelled else bad
    return Fate(
        bad=bad,
        killer_card=killer_card,
        doctor_cancelled=cancelled,
        doctor_saved=cancelled and bad == 2,
        murdered=killer_card or effective >= 2,
    )

#: decisions that are a player's turn (the turn time limit); every other kind the engines wait on is a prompt
TURN_KINDS = frozenset({"turn", "declare_all"})


def waiting_for(pending: tuple[int, str] | None) -> Waiting | None:
    """The :class:`~games.core.Waiting` of a card mode's ``(seat, kind)``: a turn for :data:`TURN_KINDS`, else a
    prompt (the Prosecutor's accusation a hidden one); ``None`` when nothing is pending (the game is over)."""
    if pending is None:
        return None
    seat, kind = pending
    if kind == "accuse":  # ruling: "The public table never says that a Prosecutor is being asked"
        return Waiting.of((seat,), kind, "prompt", hidden=True)
    return Waiting.turn(seat, kind) if kind in TURN_KINDS else Waiting.prompt(seat, kind)

#: parameters that are seats in the card modes' events, refusals and outcomes (see ``games.core.seat_keys``)
SEAT_PARAMS = ("target", "killer", "accomplice", "prosecutor", "winners")
