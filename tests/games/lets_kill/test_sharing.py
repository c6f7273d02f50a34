"""A Weapon's listed plays are made once and shared from one listing to the next (an action is never changed;
issue 20: listing them anew was most of a play decision's cost), and they are the plays the rules allow."""

from __future__ import annotations

from games.lets_kill import rules
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import PlayCard

from .support import ready


def _weapon_plays(state: object, weapon: str) -> list[PlayCard]:
    return [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, PlayCard) and a.card == weapon]


def test_a_weapons_plays_are_the_legal_declarations_and_shared_between_listings() -> None:
    state = ready([["W11", "E03"], [], []], locations={"L08": ["V05", "V06"]})
    first, again = _weapon_plays(state, "W11"), _weapon_plays(state, "W11")
    declarations = rules.legal_declarations(state, "W11")
    assert declarations and [play.victims for play in first] == declarations
    assert first == [PlayCard(card="W11", victims=victims) for victims in declarations]
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert all(ENGINE.apply(state, 0, play).state.whacking is not None for play in first)
