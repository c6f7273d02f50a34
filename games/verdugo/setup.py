"""Setup of every round, exactly as edition §4: draw N roles and N objects, the Pardon rule, the safe-object loop
(the Executioner sets a card aside), publish the active cards, deal from the Executioner's left, show each
prisoner their role and their dealt object once.

:func:`open_round` and :func:`deal` take the deck orders and deal orders as arguments, so golden tests inject
them (edition §11.0); :func:`start_round` and :func:`finish_setup` draw them from the seeded RNG.
"""

from __future__ import annotations

from games.core import Audience, Event, rng_for
from games.verdugo.cards import is_pardon, obj, object_deck, role_deck, scaffold_deck
from games.verdugo.models import RoundState, Seen, VerdugoState


def has_safe(objects: list[str]) -> bool:
    """Whether the active objects hold a safe object (Fancy Hat, Golden Chalice, Cheese or Doll; §4 step 6)."""
    return any(obj(o).safe for o in objects)


def open_round(s: VerdugoState, executioner: int, *, roles: list[str], objects: list[str], scaffold: list[str],
               ev: list[Event]) -> None:
    """Steps 1-6 with the decks in the given orders (top first): the active cards, the Pardon rule (V-05); the
    round waits in phase ``set_aside`` when the safe-object rule must fire, else it is dealt by the caller."""
    n = len(s.seats)
    active_objects, rest = list(objects[:n]), list(objects[n:])
    set_aside: list[str] = []
    if not any(is_pardon(o) for o in active_objects):
        set_aside.append(active_objects.pop())
        first = next(i for i, card in enumerate(rest) if is_pardon(card))
        active_objects.append(rest.pop(first))
    s.round = RoundState(number=s.rounds_played + 1, executioner=executioner, object_deck=rest, set_aside=set_aside,
                         active_roles=list(roles[:n]), active_objects=active_objects, scaffold_deck=list(scaffold),
                         phase="draw" if has_safe(active_objects) else "set_aside", start_crowns=list(s.crowns))
    s.phase = "round"
    ev.append(Event(key="verdugo.round.opened", params={
        "round": s.round.number, "seat": executioner, "pardon_rule": bool(set_aside)}))
    if s.round.phase == "set_aside":
        ev.append(Event(key="verdugo.setup.need_safe", params={"seat": executioner}))


def set_aside_allowed(r: RoundState) -> list[int]:
    """Indices of active objects the Executioner may set aside: any card but the only Pardon (V-06)."""
    pardons = [i for i, o in enumerate(r.active_objects) if is_pardon(o)]
    return [i for i in range(len(r.active_objects)) if not (pardons == [i])]


def set_aside(s: VerdugoState, index: int, ev: list[Event]) -> None:
    """One turn of the safe-object loop: set ``active_objects[index]`` aside and draw the top card."""
    r = s.round
    card = r.active_objects.pop(index)
    r.set_aside.append(card)
    drawn = r.object_deck.pop(0)
    r.active_objects.append(drawn)
    ev.append(Event(key="verdugo.setup.set_aside", params={"seat": r.executioner, "object": card, "drawn": drawn}))
    if has_safe(r.active_objects):
        r.phase = "draw"


def deal(s: VerdugoState, roles: list[str], objects: list[str], ev: list[Event]) -> None:
    """Steps 7-10: publish the active cards; deal ``roles`` and ``objects`` (each a permutation of the active
    cards) one to each prisoner from the Executioner's left; the last role is discarded and the last object is the
    centre card; each prisoner privately sees their role and their dealt object. Raises ``ValueError`` when an
    order is not a permutation of the active cards."""
    r = s.round
    if sorted(roles) != sorted(r.active_roles) or sorted(objects) != sorted(r.active_objects):
        raise ValueError("a deal must use exactly the active cards")
    n = len(s.seats)
    r.roles, r.objects = [None] * n, [None] * n
    r.shown_objects, r.shown_roles = [None] * n, [None] * n
    r.seen = [[] for _ in range(n)]
    for i, seat in enumerate(r.prisoners()):
        r.roles[seat], r.objects[seat] = roles[i], objects[i]
        r.seen[seat].append(Seen(kind="dealt", card=objects[i], position=seat))
    r.discarded_role, r.centre = roles[-1], objects[-1]
    ev.append(Event(key="verdugo.round.active", params={
        "round": r.number, "seat": r.executioner, "roles": list(r.active_roles), "objects": list(r.active_objects)}))
    for seat in r.prisoners():
        ev.append(Event(key="verdugo.you.dealt", audience=Audience.to(seat), params={
            "role": r.roles[seat], "object": r.objects[seat], "seat": r.executioner}))


def start_round(s: VerdugoState, executioner: int, ev: list[Event]) -> None:
    """A new round with decks shuffled from the seed (V-04): opened, and dealt unless the safe loop must run."""
    rng = rng_for(s.seed, "round", s.rounds_played + 1)
    roles, objects, scaffold = role_deck(), object_deck(), scaffold_deck()
    for cards in (roles, objects, scaffold):
        rng.shuffle(cards)
    open_round(s, executioner, roles=roles, objects=objects, scaffold=scaffold, ev=ev)
    if s.round.phase == "draw":
        finish_setup(s, ev)


def finish_setup(s: VerdugoState, ev: list[Event]) -> None:
    """Steps 8-9 with the deal shuffled from the seed."""
    rng = rng_for(s.seed, "deal", s.round.number)
    roles, objects = list(s.round.active_roles), list(s.round.active_objects)
    rng.shuffle(roles)
    rng.shuffle(objects)
    deal(s, roles, objects, ev)
