"""The rules of a change of who plays a seat, engine only (:mod:`games.core.seats`, issue 24): who may take a seat
back, hand it to the computer or take it by the host's offer; when a game is abandoned; the names a seat went by
before and after a replacement."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.seats import Hold, abandoned, dead_role, names_after, names_at_start, next_host, seat_change_refusal

#: seat 0: a person playing; 1: a person the computer plays for (away); 2: a computer player
HOLDS = [Hold(0, person=True), Hold(1, person=True, away=True), Hold(2, person=False)]
BACK = {"type": "seat_back"}
AWAY = {"type": "seat_away"}
TO_AI = {"type": "seat_replaced", "to": "computer"}
TO_PERSON = {"type": "seat_replaced", "to": "person"}


def refusal(action: dict[str, Any], seat: int, **sender: Any) -> str | None:
    return seat_change_refusal(HOLDS, {**action, "seat": seat}, **sender)


@pytest.mark.parametrize(("seat", "sender", "expected"), [
    (1, 1, None),                     # its own person takes an away seat back
    (1, 0, "seat.error.not_yours"),   # someone else at the table
    (1, None, "seat.error.not_yours"),  # someone not at the table
    (0, 0, "seat.error.not_away"),    # a seat its person plays already
    (2, 2, "seat.error.not_away"),    # a computer player's seat has nobody to come back
])
def test_only_the_away_seats_own_person_takes_it_back(seat: int, sender: int | None, expected: str | None) -> None:
    assert refusal(BACK, seat, person=True, sender=sender) == expected


def test_im_back_is_a_persons_word_not_the_bots() -> None:
    assert refusal(BACK, 1, person=False, sender=None) == "seat.error.not_yours"


@pytest.mark.parametrize("action", [AWAY, TO_AI], ids=["away", "to_computer"])
def test_the_computer_takes_a_seat_over_by_the_bots_word_only(action: dict[str, Any]) -> None:
    """A person's seat goes to the computer at the game's clock's word or the host's (both the bot's); a person
    sending it is refused; a computer player's seat is refused."""
    assert refusal(action, 0, person=False, sender=None) is None
    assert refusal(action, 0, person=True, sender=0) == "core.host_only"
    assert refusal(action, 2, person=False, sender=None) == "seat.error.computer"


def test_the_host_hands_an_away_seat_to_the_computer_but_the_clock_does_not_take_it_twice() -> None:
    """An away person's seat: the host may give up waiting and hand it to the computer for good (the seat becomes
    a computer player's); the game's clock does not take over a seat the computer plays already."""
    assert refusal(TO_AI, 1, person=False, sender=None) is None
    assert refusal(TO_AI, 1, person=True, sender=0) == "core.host_only"
    assert refusal(AWAY, 1, person=False, sender=None) == "seat.error.computer"


@pytest.mark.parametrize("action", [TO_AI, TO_PERSON], ids=["to_computer", "to_person"])
def test_a_dead_seat_is_never_handed_over(action: dict[str, Any]) -> None:
    """Seat 1 is dead (the social mode's murdered): neither the host's computer nor an offered newcomer takes it."""
    holds = [Hold(0, person=True), Hold(1, person=True, dead=True)]
    said = seat_change_refusal(holds, {**action, "seat": 1}, person=action is TO_PERSON, sender=None, offered=True)
    assert said == "seat.error.dead"
    assert seat_change_refusal(holds, {**action, "seat": 0}, person=action is TO_PERSON, sender=None,
                               offered=True) is None


@pytest.mark.parametrize(("holds", "handed", "expected"), [
    # the host's seat 0 went to the computer: the first other person playing hosts, not an away one
    ([Hold(0, person=False), Hold(1, person=True, away=True), Hold(2, person=True)], 0, 2),
    # only away persons are left: the first of them
    ([Hold(0, person=False), Hold(1, person=False), Hold(2, person=True, away=True)], 0, 2),
    # the host's seat went to a newcomer and nobody else is a person: the newcomer hosts
    ([Hold(0, person=False), Hold(1, person=True)], 1, 1),
    # nobody is left: none (the game ends abandoned)
    ([Hold(0, person=False), Hold(1, person=False)], 1, None),
])
def test_the_host_handing_their_own_seat_passes_the_host_on(holds: list[Hold], handed: int,
                                                            expected: int | None) -> None:
    assert next_host(holds, handed) == expected


def test_the_dead_role_goes_to_who_dies_and_leaves_every_dead_person_at_the_end() -> None:
    """Seat 1 dies in the step: it gets the role (seat 0, dead before, already has it; the dead computer player at
    2 has nobody to give it to); once the game is over every dead person's seat gives it back."""
    before = [Hold(0, person=True, dead=True), Hold(1, person=True), Hold(2, person=False, dead=True)]
    after = [Hold(0, person=True, dead=True), Hold(1, person=True, dead=True), Hold(2, person=False, dead=True)]
    assert dead_role(before, after, over=False) == ([1], [])
    assert dead_role(after, after, over=False) == ([], [])
    assert dead_role(before, after, over=True) == ([], [0, 1])


@pytest.mark.parametrize(("seat", "offered", "sender", "expected"), [
    (0, True, None, None),                     # the newcomer the offer names, seated nowhere
    (1, True, None, None),                     # an away seat may be handed to someone new too
    (0, False, None, "seat.error.no_offer"),   # no offer (or made to someone else, or lapsed)
    (0, True, 1, "seat.error.seated"),         # the newcomer holds a seat already (away included)
    (2, True, None, "seat.error.computer"),    # a computer player's seat is not a player's to replace
])
def test_a_newcomer_takes_a_seat_only_by_an_offer(seat: int, offered: bool, sender: int | None,
                                                  expected: str | None) -> None:
    assert refusal(TO_PERSON, seat, person=True, sender=sender, offered=offered) == expected


def test_a_former_holder_of_another_seat_never_takes_a_seat_even_when_offered() -> None:
    """Who held another seat of the game knows its secrets: refused, offer or not (seated first, if seated)."""
    assert refusal(TO_PERSON, 0, person=True, sender=None, offered=True, held=True) == "seat.error.held"
    assert refusal(TO_PERSON, 0, person=True, sender=1, offered=True, held=True) == "seat.error.seated"
    assert refusal(TO_PERSON, 0, person=True, sender=None, offered=False, held=True) == "seat.error.no_offer"


@pytest.mark.parametrize(("holds", "expected"), [
    ([Hold(0, person=True), Hold(1, person=False)], False),
    ([Hold(0, person=True, away=True), Hold(1, person=False)], True),
    ([Hold(0, person=True, away=True), Hold(1, person=True, away=True)], True),
    ([Hold(0, person=True, away=True), Hold(1, person=True)], False),
])
def test_a_game_is_abandoned_once_the_computer_plays_every_seat(holds: list[Hold], expected: bool) -> None:
    assert abandoned(holds) is expected


def test_a_replaced_seat_goes_by_the_new_name_after_and_was_dealt_under_the_first() -> None:
    """Bob's seat goes to Carol, then to Dave: the deal was under Bob; each replacement renames the seat; a
    computer replacement keeps the name."""
    log = [{"type": "pass", "seat": 1},
           {"type": "seat_replaced", "seat": 1, "to": "person", "names": ["Carol", "carol_c"], "was": ["Bob"]},
           {"type": "seat_replaced", "seat": 1, "to": "person", "names": ["Dave"], "was": ["Carol", "carol_c"]},
           {"type": "seat_replaced", "seat": 0, "to": "computer"}]
    now = [("Alice",), ("Dave",)]
    start = names_at_start(now, log)
    assert start == [("Alice",), ("Bob",)]
    names = start
    seen = []
    for action in log:
        names = names_after(names, action)
        seen.append(names[1])
    assert seen == [("Bob",), ("Carol", "carol_c"), ("Dave",), ("Dave",)]
    assert names == now
