"""Tabletop turn rules: declaring, sealing, destiny resolution and every role effect (rulebook 2-3, edition
rulings and README rulings 1-4, 7-8)."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from pydantic import ValidationError

from games.asesino.common import Card, fate
from games.asesino.tabletop.models import (
    Accuse,
    ChooseDirection,
    Declare,
    LastWords,
    OrderEffects,
    Pass,
    Statement,
    TabletopOptions,
)
from games.core import IllegalAction, SeatInfo, Step, Waiting
from games.core.ai import policy_for, timeout_move
from tests.games.asesino.support import TABLE, keys, table

SIX: list[Card] = ["victim", "detective", "prosecutor", "killer", "accomplice", "victim"]
EIGHT: list[Card] = ["victim", "detective", "prosecutor", "killer", "accomplice", "victim", "journalist", "victim"]


def resolve(cards: list[Card], roles: list[Card] = SIX, subject: int = 0, **kwargs: object) -> Step:
    """Seat ``subject`` is sealed with ``cards``; seat 1 seals seat 5, which resolves ``subject``."""
    fronts = {subject: [(card, 2) for card in cards], 5: [("good", 2), ("good", 4)]}
    state = table(roles, fronts=fronts, sealed=[subject], turn=1, **kwargs)  # type: ignore[arg-type]
    return TABLE.apply(state, 1, Declare(card="good", target=5))


@pytest.mark.parametrize(("cards", "murdered", "doctor_saved"), [
    (["good", "good", "bad"], False, False),
    (["good", "bad", "bad"], True, False),
    (["bad", "bad", "bad"], True, False),
    (["accomplice", "bad", "good"], True, False),
    (["killer", "good", "good"], True, False),
    (["doctor", "bad", "bad"], False, True),
    (["doctor", "bad", "accomplice"], False, True),
    (["doctor", "killer", "good"], True, False),
    (["doctor", "killer", "bad"], True, False),
    (["victim", "detective", "prosecutor"], False, False),
])
def test_verdict_counts_bad_cards_with_doctor_and_killer_card(cards: list[Card], murdered: bool,
                                                              doctor_saved: bool) -> None:
    """2+ Bad kill; the Doctor cancels one Bad unless the Killer card is there; the Killer card always kills."""
    verdict = fate(cards)
    assert (verdict.murdered, verdict.doctor_saved) == (murdered, doctor_saved)


def test_declared_card_goes_face_down_and_only_its_player_learns_it() -> None:
    """The public event names the seats and words, never the card; a DM reminds the player of the card."""
    state = table(SIX)
    step = TABLE.apply(state, 0, Declare(card="bad", target=3, words="I trust you"))
    public = [e for e in step.events if e.audience.is_public]
    assert (public[0].key, public[0].params) == ("asesino.declared",
                                                 {"seat": 0, "target": 3, "words": "I trust you", "count": 1})
    (private,) = [e for e in step.events if not e.audience.is_public]
    assert (private.params, private.audience.seats) == ({"card": "bad", "target": 3}, (0,))
    assert step.state.seats[0].hand == ["victim", "good"]
    assert TABLE.view(step.state, None)["seats"][3]["front"] == [{"by": 0, "words": "I trust you"}]


@pytest.mark.parametrize(("action", "code"), [
    (Declare(card="bad", target=0), "asesino.error.bad_target"),
    (Declare(card="bad", target=6), "asesino.error.bad_target"),
    (Declare(card="killer", target=2), "asesino.error.card_not_in_hand"),
    (Declare(card="bad", target=4), "asesino.error.target_sealed"),
    (Pass(), "asesino.error.cannot_pass"),
    (Statement(text="hi"), "asesino.error.prompt_pending"),
])
def test_illegal_declarations_are_refused_and_change_nothing(action: object, code: str) -> None:
    """Never on oneself, a sealed player or with a card not held; no passing with a target available."""
    state = table(SIX, fronts={4: [("good", 1), ("bad", 2), ("good", 3)]}, sealed=[4])
    before = state.model_dump()
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(state, 0, action)
    assert err.value.code == code
    assert state.model_dump() == before


def test_declared_words_are_limited_to_200_characters() -> None:
    """Free words with a card are at most 200 characters."""
    Declare(card="bad", target=1, words="x" * 200)
    with pytest.raises(ValidationError):
        Declare(card="bad", target=1, words="x" * 201)


def test_rulebook_example_three_declarations_seal_julio() -> None:
    """Rulebook example: Pedro (Killer), María and Roberto declare on Julio; the third card seals him, and what
    each said is on the public record whatever the card was."""
    pedro, maria, roberto, julio = 3, 0, 5, 1
    state = table(SIX, turn=pedro)
    lines = [(pedro, "bad", "Julio, I have excellent intentions for you."),
             (maria, "good", "Julio, I don't trust you."), (roberto, "victim", "Julio, I trust you.")]
    for seat, card, words in lines:
        state.turn = seat
        step = TABLE.apply(state, seat, Declare(card=card, target=julio, words=words))  # type: ignore[arg-type]
        state = step.state
    assert "asesino.sealed" in keys(step.events)
    assert state.sealed_order == [julio]
    assert not state.seats[julio].resolved
    public = TABLE.view(state, None)["seats"][julio]
    assert public["front"] == [{"by": seat, "words": words} for seat, _, words in lines]
    assert (public["sealed"], public["sealing"], public["revealed"]) == (True, 1, [])


def test_second_sealing_reveals_the_first_sealed_destiny_shuffled() -> None:
    """A sealed destiny waits until the next sealing, then its three cards are shown (in shuffled order)."""
    step = resolve(["good", "bad", "victim"])
    (revealed,) = [e for e in step.events if e.key == "asesino.destiny.revealed"]
    assert revealed.params["seat"] == 0
    assert sorted(revealed.params["cards"]) == ["bad", "good", "victim"]
    assert keys(step.events)[:3] == ["asesino.declared", "asesino.you_declared", "asesino.sealed"]
    assert "asesino.destiny.spared" in keys(step.events)
    assert step.state.seats[5].sealed and not step.state.seats[5].resolved


def test_doctor_saves_from_two_bad_cards_in_play() -> None:
    """With the Doctor card and two Bad cards the player survives."""
    step = resolve(["doctor", "bad", "bad"])
    assert "asesino.destiny.saved" in keys(step.events)
    assert not step.state.seats[0].murdered


def test_doctor_cannot_stop_the_killer_card() -> None:
    """The Killer card kills even next to the Doctor card."""
    step = resolve(["doctor", "killer", "good"])
    assert step.state.seats[0].murdered
    (murder,) = [e for e in step.events if e.key == "asesino.destiny.murdered"]
    assert murder.params == {"seat": 0, "deaths": 1, "killer_card": True, "doctor_cancelled": False}


def test_detective_confession_of_an_innocent_goes_on() -> None:
    """The bot confesses truthfully for a non-Killer: the game continues."""
    step = resolve(["detective", "good", "good"])
    assert "asesino.effect.detective.innocent" in keys(step.events)
    assert TABLE.outcome(step.state) is None


def test_detective_catches_the_killer_before_any_murder_counts() -> None:
    """Ruling 1: the Killer confesses to the Detective and the good side wins before the verdict."""
    step = resolve(["detective", "bad", "bad"], subject=3)
    assert "asesino.effect.detective.killer" in keys(step.events)
    assert "asesino.destiny.murdered" not in keys(step.events)
    outcome = TABLE.outcome(step.state)
    assert outcome is not None and outcome.reason == "asesino.end.detective_caught"
    assert outcome.winners == [0, 1, 2, 5]
    assert step.state.result is not None and step.state.result.caught


def test_living_prosecutor_is_asked_privately_to_accuse() -> None:
    """Prosecutor card + Prosecutor alive: a private prompt to the Prosecutor, who alone may answer."""
    step = resolve(["prosecutor", "good", "good"])
    assert "asesino.effect.prosecutor.alive" in keys(step.events)
    (prompt,) = [e for e in step.events if e.key == "asesino.prompt.accuse"]
    assert prompt.audience.seats == (2,)
    assert TABLE.to_act(step.state) == [2]


def test_living_prosecutor_must_accuse_and_declining_is_not_legal() -> None:
    """Rulebook, Prosecutor: "If the Prosecutor is to remain alive, they must reveal themselves and accuse one
    player" — every legal answer names a player, and an answer without one is refused."""
    step = resolve(["prosecutor", "good", "good"])
    assert TABLE.legal_actions(step.state, 2) == [Accuse(target=t) for t in (0, 1, 3, 4, 5)]
    with pytest.raises(ValidationError):
        TABLE.parse_action({"type": "accuse"})
    with pytest.raises(ValidationError):
        TABLE.parse_action({"type": "accuse", "target": None})


def test_prosecutor_timeout_names_the_policys_choice_and_says_so() -> None:
    """Ruling 3: "when the time limit runs out the bot names the player its computer player would (from the
    Prosecutor's own view) and says so"."""
    step = resolve(["prosecutor", "good", "good"])
    seat, action = timeout_move(TABLE, step.state, random.Random(4))
    chosen = policy_for("asesino", "tabletop").choose(TABLE.view(step.state, 2), TABLE.legal_actions(step.state, 2),
                                                      random.Random(4))
    assert seat == 2 and isinstance(action, Accuse) and action.at_random and action.target == chosen.target
    assert timeout_move(TABLE, step.state, random.Random(4)) == (seat, action)  # the same rng seed, the same move
    after = TABLE.apply(step.state, seat, action)
    verdict = "right" if action.target == 3 else "wrong"
    (said,) = [e for e in after.events if e.key.startswith("asesino.accusation.")]
    assert (said.key, said.params, said.audience.is_public) == (
        f"asesino.accusation.random_{verdict}", {"seat": 2, "target": action.target}, True)


def test_public_table_never_says_a_prosecutor_is_being_asked() -> None:
    """Ruling: "The public table never says that a Prosecutor is being asked (it says only that the game waits
    on a revealed card's effect)": no seat in the public waiting, the Prosecutor's own prompt stays private."""
    step = resolve(["prosecutor", "good", "good"])
    public = TABLE.view(step.state, None)
    assert public["waiting"] == {"seat": None, "kind": "effect", "must_pass": False}
    assert [e.audience.is_public for e in step.events if e.key == "asesino.prompt.accuse"] == [False]


@pytest.mark.parametrize(("target", "key", "over"), [
    (3, "asesino.accusation.right", True),
    (4, "asesino.accusation.wrong", False),
])
def test_accusation_is_answered_truthfully(target: int, key: str, over: bool) -> None:
    """Naming the Killer wins for the good side; a wrong name lets the game go on."""
    step = resolve(["prosecutor", "good", "good"])
    step = TABLE.apply(step.state, 2, Accuse(target=target))
    assert key in keys(step.events)
    outcome = TABLE.outcome(step.state)
    assert (outcome is not None) == over
    if over:
        assert outcome is not None and outcome.reason == "asesino.end.prosecutor_sentenced"
    else:
        assert "asesino.destiny.spared" in keys(step.events)


def test_dead_prosecutor_makes_no_accusation() -> None:
    """Prosecutor card but the Prosecutor murdered: nothing happens."""
    step = resolve(["prosecutor", "good", "good"], deaths=[2])
    assert "asesino.effect.prosecutor.dead" in keys(step.events)
    assert "asesino.prompt.accuse" not in keys(step.events)
    assert TABLE.waiting(step.state) == Waiting.turn(3)


def test_journalist_asks_the_revealed_player_for_a_statement() -> None:
    """The Journalist card prompts the revealed player; the statement is public and recorded."""
    step = resolve(["journalist", "good", "good"], roles=EIGHT)
    assert "asesino.prompt.statement" in keys(step.events)
    assert TABLE.to_act(step.state) == [0]
    step = TABLE.apply(step.state, 0, Statement(text="Seat 3 lied to me"))
    assert ("asesino.statement", {"seat": 0, "text": "Seat 3 lied to me"}) in [(e.key, e.params)
                                                                                for e in step.events]
    assert TABLE.view(step.state, None)["said"] == [{"seat": 0, "kind": "statement", "text": "Seat 3 lied to me"}]


def test_accomplice_shock_silences_last_words_and_the_press() -> None:
    """Ruling 2: with the Accomplice card there is no statement and no last words, only the forced plays."""
    step = resolve(["accomplice", "journalist", "bad"], roles=EIGHT)
    names = keys(step.events)
    assert {"asesino.effect.shock", "asesino.effect.journalist_silenced", "asesino.no_last_words"} <= set(names)
    assert "asesino.prompt.statement" not in names and "asesino.prompt.last_words" not in names
    assert TABLE.waiting(step.state) == Waiting.turn(0, "declare_all")


def test_murdered_player_speaks_then_plays_out_the_hand_and_leaves_the_turn_order() -> None:
    """Last words, then one forced declaration per card left (turn marker still), then out of the turns."""
    step = resolve(["bad", "bad", "good"])
    assert TABLE.waiting(step.state) == Waiting.prompt(0, "last_words")
    assert TABLE.to_act(step.state) == [0]
    state = TABLE.apply(step.state, 0, LastWords(text="It was the quiet one")).state
    assert TABLE.waiting(state) == Waiting.turn(0, "declare_all")
    assert Pass() not in TABLE.legal_actions(state, 0)
    marker = state.turn
    for card, target in (("victim", 1), ("good", 2), ("bad", 3)):
        state = TABLE.apply(state, 0, Declare(card=card, target=target)).state  # type: ignore[arg-type]
        assert state.turn == marker
    assert state.seats[0].hand == []
    assert TABLE.waiting(state) == Waiting.turn(2)
    for _ in range(12):
        seat = TABLE.to_act(state)[0]
        assert seat != 0
        state = TABLE.apply(state, seat, TABLE.legal_actions(state, seat)[0]).state
        if TABLE.outcome(state) is not None:
            break


def test_forced_play_that_seals_resolves_the_previous_destiny_first() -> None:
    """Ruling 8: a forced play that seals someone resolves the player sealed before at once, and that player's
    questions and forced plays come before the rest of the first player's."""
    fronts = {0: [("bad", 3), ("bad", 4), ("good", 1)], 5: [("bad", 3), ("bad", 4)], 2: [("good", 1), ("good", 5)]}
    state = table(SIX, fronts=fronts, sealed=[0], turn=1)
    state = TABLE.apply(state, 1, Declare(card="good", target=5)).state
    state = TABLE.apply(state, 0, LastWords()).state
    step = TABLE.apply(state, 0, Declare(card="victim", target=2))
    names = keys(step.events)
    assert names.index("asesino.sealed") < names.index("asesino.destiny.revealed")
    assert [e.params["seat"] for e in step.events if e.key == "asesino.destiny.revealed"] == [5]
    assert step.state.deaths == [0, 5]
    assert TABLE.waiting(step.state) == Waiting.prompt(5, "last_words")
    state = TABLE.apply(step.state, 5, LastWords()).state
    assert TABLE.waiting(state) == Waiting.turn(5, "declare_all")
    state = TABLE.apply(state, 5, Declare(card="victim", target=1)).state
    state = TABLE.apply(state, 5, Declare(card="good", target=1)).state
    state = TABLE.apply(state, 5, Declare(card="bad", target=3)).state
    assert TABLE.waiting(state) == Waiting.turn(0, "declare_all")


def test_several_role_cards_are_ordered_by_the_revealed_player() -> None:
    """Detective, Prosecutor and Journalist together: the revealed player orders them; a wrong order is refused."""
    step = resolve(["detective", "prosecutor", "journalist"], roles=EIGHT)
    assert TABLE.waiting(step.state) == Waiting.prompt(0, "order")
    shown = [c for c in step.state.seats[0].revealed]
    assert TABLE.legal_actions(step.state, 0) == [OrderEffects(order=list(p)) for p in permutations(shown)]
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(step.state, 0, OrderEffects(order=["detective", "journalist"]))
    assert err.value.code == "asesino.error.bad_order"
    step = TABLE.apply(step.state, 0, OrderEffects(order=["journalist", "detective", "prosecutor"]))
    assert TABLE.waiting(step.state) == Waiting.prompt(0, "statement")
    step = TABLE.apply(step.state, 0, Statement(text="..."))
    names = keys(step.events)
    assert names.index("asesino.effect.detective.innocent") < names.index("asesino.effect.prosecutor.alive")
    assert TABLE.waiting(step.state) == Waiting(seats=(2,), kind="accuse", pace="prompt", hidden=True)


def test_pending_prompt_blocks_everyone_else() -> None:
    """While last words are awaited the turn player cannot play, and the murdered player must answer first."""
    step = resolve(["bad", "bad", "good"])
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(step.state, step.state.turn, Declare(card="good", target=1))
    assert err.value.code == "core.not_your_turn"
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(step.state, 0, Declare(card="good", target=1))
    assert err.value.code == "asesino.error.prompt_pending"


def test_player_with_cards_but_no_target_must_pass() -> None:
    """Everyone else sealed: the only legal move is Pass, and the turn moves on."""
    roles: list[Card] = ["victim", "victim", "detective", "killer", "victim"]
    fronts = {seat: [("good", 0), ("good", 0), ("good", 0)] for seat in (1, 2, 3, 4)}
    state = table(roles, fronts=fronts, spared=[1, 2, 3], sealed=[4])
    assert TABLE.legal_actions(state, 0) == [Pass()]
    step = TABLE.apply(state, 0, Pass())
    assert keys(step.events) == ["asesino.passed", "asesino.turn"]
    assert TABLE.to_act(step.state) == [1]


@pytest.mark.parametrize(("cards", "kind", "expected"), [
    (["bad", "bad", "good"], "last_words", LastWords()),
    (["journalist", "good", "good"], "statement", Statement()),
])
def test_timeout_defaults_for_prompts(cards: list[Card], kind: str, expected: object) -> None:
    """On timeout: empty last words or statement (the accusation: see the Prosecutor tests)."""
    step = resolve(cards, roles=EIGHT)
    assert TABLE.waiting(step.state).kind == kind  # type: ignore[union-attr]
    assert TABLE.timeout_action(step.state)[1] == expected  # type: ignore[index]


def test_timeout_defaults_for_direction_order_and_turn() -> None:
    """Clockwise for the direction, the shown order for effects, a legal declaration chosen from the seed."""
    state = TABLE.setup(TabletopOptions(first_player=1), [SeatInfo()] * 5, 8)
    assert TABLE.timeout_action(state) == (1, ChooseDirection(clockwise=True))
    step = resolve(["detective", "prosecutor", "journalist"], roles=EIGHT)
    assert TABLE.timeout_action(step.state) == (0, OrderEffects(order=step.state.seats[0].revealed))
    state = table(SIX, turn=2)
    seat, action = TABLE.timeout_action(state)  # type: ignore[misc]
    assert seat == 2 and action in TABLE.legal_actions(state, 2)
    assert TABLE.timeout_action(state) == (seat, action)


def test_game_over_refuses_every_action() -> None:
    """After the end nobody may act."""
    step = resolve(["detective", "bad", "bad"], subject=3)
    assert TABLE.to_act(step.state) == [] and TABLE.timeout_action(step.state) is None
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(step.state, 0, Pass())
    assert err.value.code == "core.game_over"


def test_turn_marker_skips_empty_hands_and_the_dead() -> None:
    """Ruling 4: living players with no cards and murdered players are passed over by the turn marker."""
    hands: dict[int, list[Card]] = {1: []}
    fronts = {2: [("bad", 3), ("bad", 4), ("good", 1)]}
    state = table(SIX, hands=hands, fronts=fronts, deaths=[2], turn=0)
    step = TABLE.apply(state, 0, Declare(card="good", target=4))
    assert TABLE.waiting(step.state) == Waiting.turn(3)
    assert ("asesino.turn", {"seat": 3}) in [(e.key, e.params) for e in step.events]


def test_prosecutor_may_accuse_a_dead_player() -> None:
    """Ruling 3: any other seat may be named, dead or alive; a dead non-Killer is simply a wrong accusation."""
    step = resolve(["prosecutor", "good", "good"], deaths=[1])
    assert Accuse(target=1) in TABLE.legal_actions(step.state, 2)
    step = TABLE.apply(step.state, 2, Accuse(target=1))
    assert "asesino.accusation.wrong" in keys(step.events)


def test_private_view_adds_own_secrets_and_the_evil_partner() -> None:
    """A seat sees its role, hand and own plays; the Killer and the Accomplice see each other."""
    state = TABLE.apply(table(SIX), 0, Declare(card="bad", target=3)).state
    victim, killer, accomplice = TABLE.view(state, 0), TABLE.view(state, 3), TABLE.view(state, 4)
    assert (victim["role"], victim["hand"], victim["partner"]) == ("victim", ["victim", "good"], None)
    assert victim["my_plays"] == [{"target": 3, "position": 0, "card": "bad"}]
    assert (killer["partner"], accomplice["partner"]) == (4, 3)
    assert not {"role", "hand", "partner", "my_plays"} & TABLE.view(state, None).keys()



def test_public_view_says_when_passing_is_the_only_move() -> None:
    """`waiting.must_pass` is true exactly when Pass is the awaited seat's only legal move (no target left)."""
    roles: list[Card] = ["victim", "victim", "detective", "killer", "victim"]
    fronts = {seat: [("good", 0), ("good", 0), ("good", 0)] for seat in (1, 2, 3, 4)}
    stuck = table(roles, fronts=fronts, spared=[1, 2, 3], sealed=[4])
    assert TABLE.view(stuck, None)["waiting"] == {"seat": 0, "kind": "turn", "must_pass": True}
    free = table(roles)
    assert TABLE.view(free, None)["waiting"]["must_pass"] is False
