"""The 14 Scaffold cards (edition §8): one function per effect kind, keyed by the ``effect`` of ``cards.yaml``.

Each effect kind declares the choices it needs (``steps``: who picks what, in order); the engine collects them
through :class:`~games.verdugo.models.Pending` and then calls ``resolve``. A card never lets anyone choose the
Executioner (RB §2). "Nobody looks" unless the card says so: moved cards are shown to no one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from games.core import Audience, Event, rng_for
from games.verdugo.cards import ScaffoldCard
from games.verdugo.models import CENTRE, Position, RoundState, Seen, VerdugoState

Step = Literal["prisoner", "other_prisoner", "pair", "direction"]
#: resolve(state, card, picks, direction, events) -> True when the card is done, False when it hands the turn to a
#: prisoner first (Last Request's extra action)
Resolver = Callable[[VerdugoState, ScaffoldCard, list[int], str | None, list[Event]], bool]


@dataclass(frozen=True)
class Effect:
    steps: tuple[Step, ...]
    resolve: Resolver


# --- object positions ---------------------------------------------------------------------------------------

def card_at(r: RoundState, position: Position) -> str:
    """The object card at ``position`` (a prisoner's seat or the centre)."""
    card = r.centre if position == CENTRE else r.objects[position]
    assert card is not None
    return card


def put(r: RoundState, position: Position, card: str) -> None:
    if position == CENTRE:
        r.centre = card
    else:
        r.objects[position] = card


def swap(r: RoundState, a: Position, b: Position) -> None:
    """Exchange the cards at ``a`` and ``b``; nobody looks."""
    card_a, card_b = card_at(r, a), card_at(r, b)
    put(r, a, card_b)
    put(r, b, card_a)


def see(r: RoundState, seat: int, seen: Seen, ev: list[Event]) -> None:
    """Show ``seen`` privately to ``seat`` (recorded for their "My secrets" and sent as a DM event)."""
    r.seen[seat].append(seen)
    ev.append(Event(key=f"verdugo.you.{seen.kind}", audience=Audience.to(seat), params=seen.model_dump(mode="json")))


def _public(ev: list[Event], card: ScaffoldCard, key: str, **params: object) -> None:
    ev.append(Event(key=f"verdugo.scaffold.{key}", params={"card": card.id, **params}))


# --- effect kinds ---------------------------------------------------------------------------------------------

def extra_action(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                 ev: list[Event]) -> bool:
    """CAD-01: the chosen prisoner takes one extra action now (Swap or Peek)."""
    r = s.round
    r.phase, r.actor, r.extra = "act", picks[0], True
    _public(ev, card, "extra_action", seat=picks[0])
    return False


def pass_objects(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                 ev: list[Event]) -> bool:
    """CAD-02: every prisoner passes their object to the next prisoner in ``direction`` (the Executioner is
    skipped, the centre stays)."""
    r = s.round
    order = r.prisoners()  # clockwise from E's left: "left" passes to the next one in this list
    cards = [r.objects[p] for p in order]
    shift = 1 if direction == "left" else -1
    for i, card_id in enumerate(cards):
        r.objects[order[(i + shift) % len(order)]] = card_id
    _public(ev, card, "passed", direction=direction)
    return True


def shuffle_objects(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                    ev: list[Event]) -> bool:
    """CAD-03: the prisoners' objects and the centre card are shuffled and dealt again from the Executioner's
    left, the last one to the centre."""
    r = s.round
    order = r.prisoners()
    cards = [card_at(r, p) for p in order] + [card_at(r, CENTRE)]
    rng_for(s.seed, "riot", s.actions).shuffle(cards)
    for p, c in zip(order, cards, strict=False):
        r.objects[p] = c
    r.centre = cards[-1]
    _public(ev, card, "shuffled")
    return True


def trade_pair(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
               ev: list[Event]) -> bool:
    """CAD-04: two chosen prisoners' objects are exchanged."""
    swap(s.round, picks[0], picks[1])
    _public(ev, card, "traded", a_seat=picks[0], b_seat=picks[1])
    return True


def trade_with_centre(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                      ev: list[Event]) -> bool:
    """CAD-05: the chosen prisoner's object is exchanged with the centre card."""
    swap(s.round, picks[0], CENTRE)
    _public(ev, card, "smuggled", seat=picks[0])
    return True


def secret_deal(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                ev: list[Event]) -> bool:
    """CAD-06: A and B exchange objects; then each privately sees the object they now hold."""
    r = s.round
    a, b = picks
    swap(r, a, b)
    _public(ev, card, "dealt", a_seat=a, b_seat=b)
    for seat in (a, b):
        see(r, seat, Seen(kind="secret_deal", card=card_at(r, seat), position=seat), ev)
    return True


def executioner_sees_centre(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                            ev: list[Event]) -> bool:
    """CAD-07: the Executioner privately sees the centre card."""
    r = s.round
    _public(ev, card, "inspected", seat=r.executioner)
    see(r, r.executioner, Seen(kind="royal_inspection", card=card_at(r, CENTRE), position=CENTRE), ev)
    return True


def reveal_centre(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                  ev: list[Event]) -> bool:
    """CAD-08: the centre card is shown to everyone, then turned face down again."""
    r = s.round
    r.crier = card_at(r, CENTRE)
    _public(ev, card, "cried", object=r.crier)
    return True


def prisoners_see_own(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                      ev: list[Event]) -> bool:
    """CAD-09: every prisoner privately sees the object card in front of them."""
    r = s.round
    _public(ev, card, "examined")
    for seat in r.prisoners():
        see(r, seat, Seen(kind="examination", card=card_at(r, seat), position=seat), ev)
    return True


def spy_on_role(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
                ev: list[Event]) -> bool:
    """CAD-10: A privately sees B's role card."""
    r = s.round
    a, b = picks
    _public(ev, card, "spied", a_seat=a, b_seat=b)
    role = r.roles[b]
    assert role is not None
    see(r, a, Seen(kind="spy", card=role, seat=b), ev)
    return True


def round_rule(s: VerdugoState, card: ScaffoldCard, picks: list[int], direction: str | None,
               ev: list[Event]) -> bool:
    """CAD-11..14: the card's rule is in force until the end of this round's rewards."""
    assert card.rule is not None
    s.round.rules.append(card.rule)
    _public(ev, card, "rule", rule=card.rule)
    return True


EFFECTS: dict[str, Effect] = {
    "extra_action": Effect(("prisoner",), extra_action),
    "pass_objects": Effect(("direction",), pass_objects),
    "shuffle_objects": Effect((), shuffle_objects),
    "trade_pair": Effect(("pair",), trade_pair),
    "trade_with_centre": Effect(("prisoner",), trade_with_centre),
    "secret_deal": Effect(("prisoner", "other_prisoner"), secret_deal),
    "executioner_sees_centre": Effect((), executioner_sees_centre),
    "reveal_centre": Effect((), reveal_centre),
    "prisoners_see_own": Effect((), prisoners_see_own),
    "spy_on_role": Effect(("prisoner", "other_prisoner"), spy_on_role),
    "round_rule": Effect((), round_rule),
}
