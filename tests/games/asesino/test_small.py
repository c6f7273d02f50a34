"""The 2-4 player mode: deal, turns, every reveal effect and the ends (rulebook "How to Play, 2-4 Player
Mode"; edition rulings; README rulings 12-18)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.asesino.common import Card
from games.asesino.small.models import (
    AccompliceSwap,
    CardRef,
    JournalistReveal,
    Pass,
    PlayCard,
    ProsecutorSwap,
    Reveal,
    SmallOptions,
)
from games.core import IllegalAction, SeatInfo, Step, Waiting
from tests.games.asesino.support import SMALL, columns, keys, play_randomly

BAD3 = [("bad", 0), ("bad", 1), ("good", 0)]
GOOD3 = [("good", 0), ("good", 1), ("bad", 0)]


@pytest.mark.parametrize(("players", "deck", "hand", "first_row"), [(2, 16, 6, 4), (3, 15, 4, 3), (4, 14, 3, 2)])
def test_deal_uses_the_whole_deck_as_the_rulebook_says(players: int, deck: int, hand: int, first_row: int) -> None:
    """16/15/14 cards: 6/4/3 each and one face-down card in each of the first 4/3/2 columns; each hand also
    holds its owner's identity card, so the 18 cards fill the six columns exactly."""
    for seed in range(10):
        state = SMALL.setup(SmallOptions(), [SeatInfo()] * players, seed)
        assert [len(p.hand) for p in state.seats] == [hand + 1] * players
        assert [len(c.slots) for c in state.columns] == [1] * first_row + [0] * (6 - first_row)
        table = [s.card for c in state.columns for s in c.slots] + [card for p in state.seats for card in p.hand]
        assert len(table) == deck + players == 18
        assert Counter(table) == Counter(
            {"bad": 7, "good": 5, "killer": 1, "accomplice": 1, "detective": 1, "prosecutor": 1, "doctor": 1,
             "journalist": 1})


@pytest.mark.parametrize(("players", "fixed"), [(2, {"detective", "killer"}), (3, {"detective", "killer"}),
                                                (4, {"detective", "killer", "prosecutor", "accomplice"})])
def test_identity_cards_are_also_cards_in_their_owners_hand(players: int, fixed: set[str]) -> None:
    """Revised ruling: "Identity role cards ... are each player's identity AND a card in their hand, on top of the
    deal: a player may play their own identity card face down and declare it good or bad like any card"."""
    extras = set()
    for seed in range(40):
        state = SMALL.setup(SmallOptions(), [SeatInfo()] * players, seed)
        identities = {p.identity for p in state.seats}
        assert fixed <= identities and len(identities) == players
        extras |= identities - fixed
        for seat, player in enumerate(state.seats):
            assert player.hand[0] == player.identity
            assert any(isinstance(a, PlayCard) and a.card == player.identity
                       for a in SMALL.legal_actions(state.model_copy(update={"turn": seat}), seat))
        dealt = {s.card for c in state.columns for s in c.slots}
        assert not dealt & identities
    assert extras == ({"accomplice", "prosecutor", "doctor", "journalist"} if players == 3 else set())


@pytest.mark.parametrize("players", [1, 5])
def test_small_mode_seats_two_to_four(players: int) -> None:
    """Outside 2-4 players the deal is refused."""
    with pytest.raises(IllegalAction) as err:
        SMALL.setup(SmallOptions(), [SeatInfo()] * players, 1)
    assert err.value.code == "core.bad_player_count"


def test_intro_sends_identity_and_hand_privately() -> None:
    """Each seat learns its identity and hand by DM; the public only hears whose turn it is."""
    state = SMALL.setup(SmallOptions(first_player=1), [SeatInfo()] * 3, 5)
    events = SMALL.intro(state)
    assert [e.audience.seats for e in events[:3]] == [(0,), (1,), (2,)]
    assert [(e.key, e.params) for e in events if e.audience.is_public] == [("asesino.turn", {"seat": 1})]


def test_playing_a_card_declares_it_publicly_and_the_third_seals() -> None:
    """The card goes face down with its declaration; the third card seals the column."""
    state = columns([("good", None), ("bad", 1)], hands=(["doctor", "bad"], ["good"]))
    step = SMALL.apply(state, 0, PlayCard(card="doctor", column=0, declared="bad"))
    assert keys(step.events) == ["asesino.small.played.bad", "asesino.small.you_played", "asesino.small.sealed",
                                 "asesino.turn"]
    column = SMALL.view(step.state, None)["columns"][0]
    assert column["sealed"] and column["slots"][2] == {"by": 0, "declared": "bad", "face_up": False, "card": None}
    assert SMALL.view(step.state, 0)["my_cards"] == [{"column": 0, "index": 2, "card": "doctor"}]
    assert step.state.turn == 1


@pytest.mark.parametrize(("action", "code"), [
    (PlayCard(card="bad", column=0, declared="good"), "asesino.error.column_sealed"),
    (PlayCard(card="killer", column=1, declared="good"), "asesino.error.card_not_in_hand"),
    (PlayCard(card="bad", column=6, declared="good"), "asesino.error.bad_column"),
    (Reveal(column=1), "asesino.error.column_not_revealable"),
    (Pass(), "asesino.error.cannot_pass"),
    (AccompliceSwap(), "asesino.error.prompt_pending"),
])
def test_illegal_moves_are_refused_and_change_nothing(action: object, code: str) -> None:
    """No play into a sealed column or with a card not held, no reveal of an open column, no needless pass."""
    state = columns(GOOD3, [("good", None)], hands=(["bad"], ["good"]))
    before = state.model_dump()
    with pytest.raises(IllegalAction) as err:
        SMALL.apply(state, 0, action)
    assert err.value.code == code
    assert state.model_dump() == before


def test_two_bad_cards_are_a_murder_in_the_register() -> None:
    """A revealed column with two Bad cards goes to the murder register."""
    state = columns(BAD3, GOOD3, hands=(["bad"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert keys(step.events)[:2] == ["asesino.small.revealed", "asesino.small.murder"]
    assert step.state.murders == [0]
    step = SMALL.apply(step.state, 1, Reveal(column=1))
    assert "asesino.small.spared" in keys(step.events)


@pytest.mark.parametrize(("cards", "murder", "key"), [
    ([("killer", 0), ("good", 1), ("good", 0)], True, "asesino.small.murder"),
    ([("killer", 0), ("doctor", 1), ("good", 0)], True, "asesino.small.murder"),
    ([("doctor", 0), ("bad", 1), ("bad", 0)], False, "asesino.small.saved"),
    ([("doctor", 0), ("bad", 1), ("accomplice", 0)], False, "asesino.small.saved"),
])
def test_killer_card_always_murders_and_doctor_cancels_one_bad(cards: list[tuple[Card, int]], murder: bool,
                                                               key: str) -> None:
    """The Killer card murders whatever else is there; the Doctor card cancels one Bad."""
    state = columns(cards, hands=(["good"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert key in keys(step.events)
    assert step.state.columns[0].murder is murder


def test_third_murder_wins_for_the_killer_and_accomplice() -> None:
    """Three murders in the register: the Killer identity (and the Accomplice) win."""
    state = columns(BAD3, hands=(["good"], ["good"], ["bad"], []),
                    identities=("detective", "killer", "prosecutor", "accomplice"))
    state.murders = [3, 4]
    step = SMALL.apply(state, 0, Reveal(column=0))
    outcome = SMALL.outcome(step.state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners) == ("asesino.end.three_deaths", [1, 3])


def test_detective_with_the_killer_card_catches_the_killer_before_the_murder() -> None:
    """Ruling 13: Detective and Killer cards in one column end the game for the innocents, even at 2 murders."""
    state = columns([("detective", 0), ("killer", 1), ("bad", 0)], hands=(["good"], ["good"]))
    state.murders = [4, 5]
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert "asesino.small.murder" not in keys(step.events)
    outcome = SMALL.outcome(step.state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners) == ("asesino.end.detective_caught", [0])


@pytest.mark.parametrize(("revealer", "key"), [(0, "asesino.small.detective_check.innocent"),
                                               (1, "asesino.small.detective_check.killer")])
def test_detective_without_the_killer_card_makes_the_revealer_show_their_hand(revealer: int, key: str) -> None:
    """Ruling 14: the revealer shows the hand and the bot says truthfully whether they are the Killer."""
    state = columns([("detective", 0), ("good", 1), ("bad", 0)], hands=(["good", "bad"], ["doctor"]), turn=revealer)
    step = SMALL.apply(state, revealer, Reveal(column=0))
    (check,) = [e for e in step.events if e.key == key]
    assert check.audience.is_public
    assert check.params == {"seat": revealer, "hand": [["good", "bad"], ["doctor"]][revealer]}
    assert SMALL.outcome(step.state) is None


def test_accomplice_swaps_cards_with_a_random_draw_from_another_hand() -> None:
    """The revealer gives up to two cards and takes as many at random from the chosen player's hand."""
    state = columns([("accomplice", 1), ("good", 1), ("good", 0)], hands=(["bad", "doctor", "good"],
                                                                          ["good", "good", "journalist"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert SMALL.waiting(step.state) == Waiting.prompt(0, "accomplice")
    assert AccompliceSwap() in SMALL.legal_actions(step.state, 0)
    with pytest.raises(IllegalAction) as err:
        SMALL.apply(step.state, 0, AccompliceSwap(target=1, cards=["killer"]))
    assert err.value.code == "asesino.error.card_not_in_hand"
    step = SMALL.apply(step.state, 0, AccompliceSwap(target=1, cards=["bad", "doctor"]))
    mine, theirs = step.state.seats[0].hand, step.state.seats[1].hand
    assert len(mine) == len(theirs) == 3
    assert Counter(mine + theirs) == Counter(["bad", "doctor", "good", "good", "good", "journalist"])
    assert Counter(theirs) >= Counter(["bad", "doctor"])
    by_key = {e.key: e for e in step.events}
    assert by_key["asesino.small.swapped"].params == {"seat": 0, "target": 1, "count": 2}
    assert by_key["asesino.small.swap_mine"].audience.seats == (0,)
    assert by_key["asesino.small.swap_theirs"].audience.seats == (1,)


def test_accomplice_cannot_take_more_cards_than_the_other_holds() -> None:
    """Giving two cards to a one-card hand is refused."""
    state = columns([("accomplice", 1), ("good", 1), ("good", 0)], hands=(["bad", "doctor"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    with pytest.raises(IllegalAction) as err:
        SMALL.apply(step.state, 0, AccompliceSwap(target=1, cards=["bad", "doctor"]))
    assert err.value.code == "asesino.error.too_many_cards"


def test_prosecutor_swaps_two_declared_face_down_cards() -> None:
    """Ruling 16: two unrevealed declared cards trade places, each keeping its declaration; dealt first-row
    cards are not eligible."""
    state = columns([("prosecutor", 1), ("good", 1), ("good", 0)], [("killer", None), ("bad", 0)], [("good", 1)],
                    hands=(["bad"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert SMALL.waiting(step.state) == Waiting.prompt(0, "prosecutor")
    with pytest.raises(IllegalAction) as err:
        SMALL.apply(step.state, 0, ProsecutorSwap(slots=[CardRef(column=1, index=0), CardRef(column=2, index=0)]))
    assert err.value.code == "asesino.error.bad_cards"
    step = SMALL.apply(step.state, 0, ProsecutorSwap(slots=[CardRef(column=1, index=1), CardRef(column=2, index=0)]))
    assert [s.card for s in step.state.columns[1].slots] == ["killer", "good"]
    assert [(s.card, s.by) for s in step.state.columns[2].slots] == [("bad", 0)]
    assert "asesino.small.positions_swapped" in keys(step.events)


def test_journalist_turns_cards_face_up_without_their_effects() -> None:
    """Up to two cards from different columns turn face up for all; a Killer card shown so murders no one."""
    state = columns([("journalist", 1), ("good", 1), ("good", 0)], [("killer", None), ("good", 0)],
                    [("bad", 1), ("doctor", 0)], hands=(["bad"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert SMALL.waiting(step.state) == Waiting.prompt(0, "journalist")
    with pytest.raises(IllegalAction) as err:
        SMALL.apply(step.state, 0, JournalistReveal(slots=[CardRef(column=2, index=0), CardRef(column=2, index=1)]))
    assert err.value.code == "asesino.error.same_column"
    step = SMALL.apply(step.state, 0, JournalistReveal(slots=[CardRef(column=1, index=0),
                                                              CardRef(column=2, index=1)]))
    (shown,) = [e for e in step.events if e.key == "asesino.small.journalist_revealed"]
    assert shown.params["cards"] == [{"column": 1, "index": 0, "card": "killer"},
                                     {"column": 2, "index": 1, "card": "doctor"}]
    assert step.state.murders == []
    public = SMALL.view(step.state, None)["columns"]
    assert public[1]["slots"][0]["card"] == "killer" and public[1]["slots"][1]["card"] is None


def test_journalist_shown_card_still_counts_when_its_column_is_revealed() -> None:
    """Ruling 15: a face-up Killer card murders when its column is revealed later."""
    state = columns([("killer", None), ("good", 0), ("good", 1)], hands=(["bad"], ["good"]))
    state.columns[0].slots[0] = state.columns[0].slots[0].model_copy(update={"face_up": True})  # Slot is frozen
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert step.state.murders == [0]


def test_effect_with_nothing_to_act_on_is_void() -> None:
    """A Prosecutor revealed with fewer than two swappable cards asks nothing."""
    state = columns([("prosecutor", 1), ("good", 1), ("good", 0)], hands=(["bad"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert "asesino.small.effect_void" in keys(step.events)
    assert SMALL.waiting(step.state) == Waiting.turn(1)


def test_pass_only_when_nothing_else_is_legal() -> None:
    """A player without cards and with no sealed column to reveal must pass; the turn then moves on."""
    state = columns([("good", None)], hands=([], ["good"]))
    assert SMALL.legal_actions(state, 0) == [Pass()]
    step = SMALL.apply(state, 0, Pass())
    assert keys(step.events) == ["asesino.passed", "asesino.turn"]
    assert SMALL.to_act(step.state) == [1]


def test_innocents_win_when_every_destiny_is_settled() -> None:
    """Nothing left to reveal and no card to play: the good side wins."""
    state = columns(GOOD3, hands=([], []))
    step = SMALL.apply(state, 0, Reveal(column=0))
    outcome = SMALL.outcome(step.state)
    assert outcome is not None
    assert (outcome.reason, outcome.winners, outcome.scores) == ("asesino.end.all_revealed", [0], {})


def test_timeout_plays_a_random_legal_move_or_skips_an_effect() -> None:
    """Turn timeout: a legal move drawn from the seed; effect timeout: skip."""
    state = columns(GOOD3, hands=(["bad", "good"], ["good"]))
    seat, action = SMALL.timeout_action(state)  # type: ignore[misc]
    assert seat == 0 and action in SMALL.legal_actions(state, 0)
    assert SMALL.timeout_action(state) == (seat, action)
    state = columns([("accomplice", 1), ("good", 1), ("good", 0)], hands=(["bad"], ["good"]))
    step = SMALL.apply(state, 0, Reveal(column=0))
    assert SMALL.timeout_action(step.state) == (0, AccompliceSwap())
    step = SMALL.apply(step.state, 0, AccompliceSwap())
    assert "asesino.small.effect_skipped" in keys(step.events)


def test_first_player_is_the_host_option_or_drawn_and_play_goes_up_the_seats() -> None:
    """Ruling 17: the host option starts, else the seed draws the first player; turns go in seat order."""
    state = SMALL.setup(SmallOptions(first_player=2), [SeatInfo()] * 3, 9)
    assert SMALL.to_act(state) == [2]
    card = state.seats[2].hand[0]
    state = SMALL.apply(state, 2, PlayCard(card=card, column=5, declared="good")).state
    assert SMALL.to_act(state) == [0]
    assert len({SMALL.setup(SmallOptions(), [SeatInfo()] * 4, seed).turn for seed in range(30)}) > 1


def _dealt_two_then(*moves: tuple[int, object]) -> Step:
    """A dealt game (seed 3, seat 0 first: seat 0 the Detective, its hand starting with that card, seat 1 the
    Killer; the first row doctor / good / bad / bad) after ``moves``; returns the last step."""
    state = SMALL.setup(SmallOptions(first_player=0), [SeatInfo()] * 2, 3)
    assert [p.hand[0] for p in state.seats] == ["detective", "killer"]
    assert [[s.card for s in c.slots] for c in state.columns[:2]] == [["doctor"], ["good"]]
    for seat, action in moves:
        step = SMALL.apply(state, seat, action)
        state = step.state
    return step


def test_golden_killer_card_played_from_hand_makes_a_murder_in_a_dealt_game() -> None:
    """Rulebook: "Killer: In the column in which it appears, a murder has occurred, regardless of the other cards
    that appear" — the Killer plays their own identity card (declared good) and its column is a murder."""
    step = _dealt_two_then((0, PlayCard(card="good", column=1, declared="good")),
                           (1, PlayCard(card="killer", column=1, declared="good")), (0, Reveal(column=1)))
    murder = [e for e in step.events if e.key == "asesino.small.murder"]
    assert [e.params for e in murder] == [{"column": 1, "murders": 1, "killer_card": True,
                                          "doctor_cancelled": False}]
    assert [s.card for s in step.state.columns[1].slots] == ["good", "good", "killer"]


def test_golden_detective_catches_the_killer_in_a_dealt_game() -> None:
    """Rulebook: "Detective: If it appears in the same column as the Killer's card, the Killer has been caught" —
    both identity cards played into one column; its reveal ends the game for the good side."""
    step = _dealt_two_then((0, PlayCard(card="detective", column=0, declared="good")),
                           (1, PlayCard(card="killer", column=0, declared="bad")), (0, Reveal(column=0)))
    assert "asesino.small.detective_caught" in keys(step.events)
    outcome = SMALL.outcome(step.state)
    assert outcome is not None and outcome.reason == "asesino.end.detective_caught" and outcome.winners == [0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_reaches_all_three_endings(players: int) -> None:
    """Revised ruling: with identity cards playable, random games end by the third murder, by the Detective
    catching the Killer, and by every destiny revealed (the first ruling never reached the Detective catch)."""
    reasons: Counter[str] = Counter()
    for seed in range(120):
        final, _ = play_randomly(SMALL, SMALL.setup(SmallOptions(), [SeatInfo()] * players, seed),
                                 random.Random(seed), timeout_share=0.0)
        outcome = SMALL.outcome(final)
        assert outcome is not None
        reasons[outcome.reason] += 1
    assert set(reasons) == {"asesino.end.three_deaths", "asesino.end.detective_caught",
                            "asesino.end.all_revealed"}, reasons
