"""The §12 visibility matrix, row by row: public, private to one seat, hidden until REVEAL ALL."""

from __future__ import annotations

from games.verdugo import ENGINE
from games.verdugo.models import CENTRE, Call, ChoosePrisoner, Chop, Draw, Peek, Stop, VerdugoState
from tests.games.verdugo.helpers import events_of, execution_table, new_match, play, rig_round


def dealt_round() -> VerdugoState:
    """5 players, E in seat 0; seats 1-4: Loyalist/Pardon, Saboteur/Hat, Princess/Doll, Jester/Chalice; centre
    Shield; Scaffold cards Spy then Town Crier."""
    return rig_round(new_match(executioner=0), 0,
                     roles="Loyalist, Saboteur, Princess, Jester, Loyalist | Saboteur, Loyalist, Saboteur, Loyalist, "
                           "Saboteur",
                     objects="Pardon, Fancy Hat, Doll, Golden Chalice, Shield | Fancy Hat, Fancy Hat, Golden Chalice, "
                             "Pardon, Pardon, Cheese, Parasite, Mimic",
                     scaffold=["spy", "town_crier"], deal_roles="Loyalist, Saboteur, Princess, Jester, Loyalist",
                     deal_objects="Pardon, Fancy Hat, Doll, Golden Chalice, Shield")


def test_public_view_shows_seating_crowns_active_cards_and_nothing_hidden() -> None:
    """Public: seats, E, Crowns, Treasury, the active lists; no role, object, centre or discarded role."""
    view = ENGINE.view(dealt_round(), None)
    assert view["executioner"] == 0 and view["crowns"] == [5] * 5 and view["treasury"] == 55
    assert sorted(view["active_roles"]) == ["jester", "loyalist", "loyalist", "princess", "saboteur"]
    assert view["reveal"] is None and "you" not in view
    assert view["shown_objects"] == [None] * 5 and view["shown_roles"] == [None] * 5
    flat = repr(view)
    assert "'centre': " not in flat.replace("'centre': None", "")


def test_private_view_shows_own_role_always_and_dealt_object_only_until_the_first_draw() -> None:
    """Own role: any time; own dealt object: once (the deal), not after the action phase has begun."""
    s = dealt_round()
    mine = ENGINE.view(s, 2)["you"]
    assert mine == {"seat": 2, "role": "saboteur", "dealt": "hat", "seen": []}
    s = play(s, (0, Draw()))
    mine = ENGINE.view(s, 2)["you"]
    assert mine["role"] == "saboteur" and mine["dealt"] is None
    assert ENGINE.view(s, 0)["you"]["role"] is None  # the Executioner has no role card


def test_a_peek_is_announced_the_same_way_whoever_peeks_and_whatever_they_see() -> None:
    """§12: the public line names the actor and the position only, and comes before the private result."""
    s = play(dealt_round(), (0, Draw()), (0, ChoosePrisoner(seat=1)), (1, ChoosePrisoner(seat=2)),
             (0, Call(seat=3)))
    s, ev = events_of(s, 3, Peek(position=CENTRE))
    assert [e.key for e in ev] == ["verdugo.action.peek", "verdugo.you.peek"]
    assert ev[0].params == {"seat": 3, "position": CENTRE} and ev[0].audience.is_public
    assert ev[1].audience.seats == (3,) and ev[1].params["card"] == "shield"


def test_executed_objects_dead_roles_and_reveal_all() -> None:
    """Public after an execution: the object (and role of a dead Princess/Jester); everything at REVEAL ALL."""
    s = execution_table(["jester", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield")
    s = play(s, (0, Chop(seat=1)))
    view = ENGINE.view(s, None)
    assert view["shown_objects"] == [None, "hat", None, None] and view["shown_roles"] == [None, "jester", None, None]
    assert view["reveal"] is None
    s = play(s, (0, Stop()))
    reveal = ENGINE.view(s, None)["reveal"]
    assert reveal["roles"] == [None, "jester", "saboteur", "loyalist"] and reveal["centre"] == "shield"
    assert reveal["discarded_role"] == "loyalist" and reveal["deltas"] == [-1, 3, -1, -1]
