"""The card data file and the effect grammar (edition §2.4, §5, §9.5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.lets_kill.cards import CARDS, LETS_KILL_DECK, VICTIMS_DECK, Card
from games.lets_kill.dsl import KINDS, DslError, Filter, parse_effects

EDITION = Path(__file__).resolve().parents[4] / "shared" / "rules" / "editions" / "lets-kill-edition.md"


def test_decks_hold_55_cards_each() -> None:
    """55 + 55 cards whose effects use all 19 kinds (the §5 distributions are asserted at import)."""
    assert len(LETS_KILL_DECK) == 55 and len(VICTIMS_DECK) == 55 and len(CARDS) == 110
    assert {e.kind for c in CARDS.values() for e in c.parsed} == set(KINDS)


def test_every_effect_string_is_the_editions() -> None:
    """Each card's effect text appears verbatim in the edition (the data was not retyped wrongly)."""
    if not EDITION.exists():
        pytest.skip("the shared edition file is not present")
    text = EDITION.read_text(encoding="utf-8")
    assert all(f"`{c.effects}`" in text for c in CARDS.values() if c.effects != "—")


def test_parse_filter_condition_and_args() -> None:
    """A full effect with a filter argument; a condition with two predicates."""
    (points,) = parse_effects("static: points(amount=+2, target=each_victim, filter=victim[attr not in {Old}])",
                              "weapon")
    assert points.args == {"amount": 2, "target": "each_victim",
                           "filter": Filter(subject="victim", negate=True, attrs=frozenset({"Old"}))}
    (town_hall,) = CARDS["L12"].effects_of("static", "points")
    assert [p.name for p in town_hall.condition] == ["incident.victim_attr_any", "incident.victim_attr_any"]


@pytest.mark.parametrize("text", [
    "static: explode(n=1)",  # unknown kind
    "static: draw(n=1, who=whacker, extra=1)",  # unknown parameter
    "static: draw(n=1)",  # missing parameter
    "static: points(amount=1, target=incident, filter=victim[attr in {Tall}])",  # unknown attribute
    "static: draw(n=1, who=everyone)",  # value not in the enum
    "on_reveal: draw(n=1, who=whacker)",  # trigger not allowed on a weapon
    "static: points(amount=2, target=incident, mode=multiply)",  # multiply only on this_victim
    "static: capacity(n=3) ;static: capacity(n=2)",  # bad separator
])
def test_parser_rejects_bad_effects(text: str) -> None:
    """§2.4: unknown kinds, parameters, attributes and values, missing parameters and misplaced triggers."""
    with pytest.raises(DslError):
        parse_effects(text, "weapon")


def test_a_bad_card_is_a_data_error() -> None:
    """The card schema rejects a Weapon without a body count and an effect the grammar refuses."""
    with pytest.raises(ValueError):
        Card.model_validate({"id": "W99", "type": "weapon", "name": "X", "attributes": ["Gun"], "effects": "—"})
    with pytest.raises(ValueError):
        Card.model_validate({"id": "W99", "type": "weapon", "name": "X", "attributes": ["Gun"], "body_count": 1,
                             "effects": "static: leave_play(n=1)"})
