"""The Detective and Lola: movement and bonuses, questions, arrests, Sniff, Bark, Bite and the Bone."""

from __future__ import annotations

import pytest

from games.cereal_killer import ENGINE
from games.cereal_killer.models import (
    Arrest,
    Ask,
    Bark,
    Bite,
    ChooseAnswer,
    EndTurn,
    KillerTurn,
    Move,
    PlaceDetective,
    Sniff,
    Victim,
)
from games.core import Audience, IllegalAction
from games.core.achievements import judge
from tests.games.cereal_killer.helpers import at, new_game, play, step

ONE = [Victim(day=1, space=3)]


def detective_at(space: int, *, killer: int = 8, witness: int | None = None, players: int = 2, steps: int = 3,
                 day: int = 2):
    """The Detective to act on ``day`` from ``space``."""
    return at(new_game(players), day=day, phase="detective", detective=space, killer=killer, witness=witness,
              routes=[[killer] * 4], victims=ONE, lola=38 if players == 3 else None, turn_steps=steps)


def lola_at(space: int, *, killer: int = 8, route: list[int] | None = None, bone: str | None = None,
            detective: int = 19, day: int = 2):
    """Lola to act (Suburbs A below City A) from ``space``."""
    return at(new_game(3), day=day, phase="lola", lola=space, killer=killer, detective=detective, bone=bone,
              routes=[route or [killer] * 4], victims=ONE, turn_steps=4)


@pytest.mark.parametrize(
    ("start", "path", "end", "left"),
    [
        (13, [12, 13, 12], 12, 0),  # retracing
        (13, [18, 19, 20, 15], 15, 0),  # entering Cafe 19 grants a 4th step
        (7, [8, 9], 9, 1),  # starting on a Cafe grants nothing
        (11, [16, 10, 5], 5, 0),  # the Underground: one step from 16 to 10
        (13, [18, 19, 14, 19, 20], 20, 0),  # back into the same Cafe: no second bonus
    ],
)
def test_detective_walks_up_to_three_steps_plus_the_cafe_bonus(start: int, path: list[int], end: int,
                                                                left: int) -> None:
    """Up to 3 steps, retracing allowed, +1 the first time a turn enters another Cafe, Underground as a step."""
    if len(path) == 5:
        with pytest.raises(IllegalAction) as err:
            step(detective_at(start), 1, Move(path=path))
        assert (err.value.code, err.value.params) == ("cereal_killer.too_many_steps",
                                                      {"steps": 5, "left": 3, "count": 5})
        return
    done = step(detective_at(start), 1, Move(path=path))
    assert (done.state.detective, done.state.turn.steps_left) == (end, left)


def test_detective_moves_interleave_and_cap() -> None:
    """Several Move actions share the turn's steps; an over-long walk is refused."""
    state = play(detective_at(13), (1, Move(path=[12])), (1, Move(path=[11, 6])))
    assert state.detective == 6 and state.turn.steps_left == 0
    with pytest.raises(IllegalAction) as err:
        step(state, 1, Move(path=[1]))
    assert (err.value.code, err.value.params) == ("cereal_killer.too_many_steps", {"steps": 1, "left": 0, "count": 1})


@pytest.mark.parametrize(
    ("seat_space", "path", "ok", "code"),
    [
        (34, [25], True, None),  # Train hop 34 -> 25
        (30, [34], True, None),  # Train hop 30 -> 34
        (25, [34], False, "cereal_killer.not_adjacent"),  # the circuit is one way
        (34, [30], False, "cereal_killer.not_adjacent"),
    ],
)
def test_train_is_a_one_way_circuit(seat_space: int, path: list[int], ok: bool, code: str | None) -> None:
    """The Train runs 30 -> 34 -> 25 -> 30, one step per hop, never backwards."""
    state = detective_at(seat_space, players=3)
    if ok:
        assert step(state, 1, Move(path=path)).state.detective == path[-1]
    else:
        with pytest.raises(IllegalAction) as err:
            step(state, 1, Move(path=path))
        assert err.value.code == code


@pytest.mark.parametrize(("start", "path", "a", "b"), [(16, [10], 16, 10), (30, [34], 30, 34)])
def test_lola_cannot_ride(start: int, path: list[int], a: int, b: int) -> None:
    """Lola may stand on stations but never ride the Underground or the Train."""
    with pytest.raises(IllegalAction) as err:
        step(lola_at(start), 2, Move(path=path))
    assert (err.value.code, err.value.params) == ("cereal_killer.lola_no_transit", {"a": a, "b": b})


def test_lola_food_bonus_once_and_not_from_the_start() -> None:
    """Entering the Food grants Lola a 5th step; starting there grants nothing."""
    assert step(lola_at(37), 2, Move(path=[38, 39, 40, 35, 30])).state.turn.steps_left == 0
    with pytest.raises(IllegalAction) as err:
        step(lola_at(38), 2, Move(path=[39, 40, 35, 30, 25]))
    assert err.value.code == "cereal_killer.too_many_steps"


def test_lola_blocks_the_killer() -> None:
    """The Killer may not step onto Lola's space."""
    state = at(new_game(3), day=2, killer=8, lola=9, detective=38, routes=[[8] * 4], victims=ONE)
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(path=[9, 10, 16]))
    assert err.value.params == {"space": 9, "who": "lola"}


def test_three_player_day_one_order() -> None:
    """Day 1 with 3 players: Killer, Lola placed on the Food and acting, then the Detective places and acts."""
    state = step(new_game(3), 0, KillerTurn(start=8, path=[3, 2, 1])).state
    assert (state.phase, state.lola, ENGINE.to_act(state)) == ("lola", 38, [2])
    state = step(state, 2, EndTurn()).state
    assert (state.phase, ENGINE.to_act(state)) == ("detective", [1])
    state = play(state, (1, PlaceDetective(space=19)), (1, EndTurn()))
    assert (state.day, state.phase) == (2, "killer")


# ---------------------------------------------------------------- questions

@pytest.mark.parametrize(
    ("question", "killer", "witness", "answer"),
    [
        ("same_row", 1, 4, "yes"),
        ("same_row", 8, 4, "no"),
        ("same_column", 14, 4, "yes"),
        ("same_column", 13, 4, "no"),
        ("indoors", 8, 4, "yes"),  # House
        ("indoors", 7, 4, "yes"),  # Cafe
        ("indoors", 10, 4, "yes"),  # Underground
        ("indoors", 9, 4, "no"),  # Street
        ("indoors", 12, 4, "no"),  # Park
        ("parity", 8, 4, "even"),
        ("parity", 9, 4, "odd"),
    ],
)
def test_question_answers_are_public_and_true(question: str, killer: int, witness: int, answer: str) -> None:
    """Yes/no and parity questions are answered at once, truthfully, in public."""
    done = step(detective_at(9, killer=killer, witness=witness), 1, Ask(question=question))
    assert [(e.key, e.params, e.audience) for e in done.events][-1] == (
        "cereal_killer.answered", {"question": question, "answer": answer, "witness": witness}, Audience.public())
    assert done.state.questions_used == [question]


@pytest.mark.parametrize(("killer", "zone"), [(8, "city"), (33, "suburbs")])
def test_zone_question_in_three_player_games(killer: int, zone: str) -> None:
    """The sixth card answers City or Suburbs; it does not exist with 2 players."""
    done = step(detective_at(9, killer=killer, witness=4, players=3), 1, Ask(question="zone"))
    assert done.state.answers[-1].answer == zone
    with pytest.raises(IllegalAction) as err:
        step(detective_at(9, witness=4), 1, Ask(question="zone"))
    assert err.value.code == "cereal_killer.question_unavailable"


@pytest.mark.parametrize(("killer", "options"), [(8, ["south", "west"]), (14, ["south"]), (3, ["west"])])
def test_direction_always_waits_for_the_killer(killer: int, options: list[str]) -> None:
    """The direction card prompts the Killer privately with the true directions, even a single one."""
    done = step(detective_at(9, killer=killer, witness=4), 1, Ask(question="direction"))
    prompt = done.events[-1]
    assert (prompt.key, prompt.audience, prompt.params["options"]) == (
        "cereal_killer.prompt.question", Audience.to(0), options)
    assert ENGINE.to_act(done.state) == [0]
    assert ENGINE.view(done.state, None)["pending"] == {"kind": "question", "question": "direction"}
    with pytest.raises(IllegalAction) as err:
        step(done.state, 0, ChooseAnswer(answer="north"))
    assert err.value.code == "cereal_killer.bad_answer"
    answered = step(done.state, 0, ChooseAnswer(answer=options[-1]))
    assert answered.state.answers[-1].answer == options[-1] and ENGINE.to_act(answered.state) == [1]


def test_question_rules() -> None:
    """One question per Witness, each card once a game, asked from the Witness's space or next to it."""
    with pytest.raises(IllegalAction) as err:
        step(detective_at(13, witness=4), 1, Ask(question="parity"))
    assert (err.value.code, err.value.params) == ("cereal_killer.too_far_from_witness", {"witness": 4})
    with pytest.raises(IllegalAction) as err:
        step(detective_at(9), 1, Ask(question="parity"))
    assert err.value.code == "cereal_killer.no_witness"
    asked = step(detective_at(4, witness=4), 1, Ask(question="parity")).state
    with pytest.raises(IllegalAction) as err:
        step(asked, 1, Ask(question="indoors"))
    assert err.value.code == "cereal_killer.already_asked"
    used = at(detective_at(4, witness=4), questions_used=["parity"])
    with pytest.raises(IllegalAction) as err:
        step(used, 1, Ask(question="parity"))
    assert (err.value.code, err.value.params) == ("cereal_killer.question_used", {"question": "parity"})


def test_witness_leaves_at_the_end_of_the_detectives_turn() -> None:
    """Asked or not, the Witness is removed when the Detective ends its turn."""
    done = step(detective_at(19, witness=4), 1, EndTurn())
    assert done.state.witness is None
    assert ("cereal_killer.witness_left", {"space": 4}) in [(e.key, e.params) for e in done.events]


# ---------------------------------------------------------------- arrests

def test_right_arrest_on_day_one_wins_with_hunch_and_distrust() -> None:
    """Arresting the Killer's space wins; on day 1 without questions it earns Hunch and Distrust."""
    done = step(detective_at(7, day=1), 1, Arrest(space=8)).state
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == [1]
    assert outcome.reason == "cereal_killer.end.arrested"
    assert judge(ENGINE, done, []) == {0: [], 1: ["first_win_detective", "hunch", "distrust", "claustrophobia"]}


def test_wrong_arrest_ends_the_turn_and_spends_an_attempt() -> None:
    """A miss costs one of the 4 attempts and ends the Detective's turn (next day starts)."""
    done = step(detective_at(7, killer=14), 1, Arrest(space=8)).state
    assert (done.arrests_left, done.phase, done.day) == (3, "killer", 3)
    with pytest.raises(IllegalAction) as err:
        step(detective_at(7, killer=14), 1, Arrest(space=9))
    assert (err.value.code, err.value.params) == ("cereal_killer.not_in_reach", {"space": 9})


def test_running_out_of_arrests_hands_the_killer_the_win() -> None:
    """The fourth miss (shared with Lola's Bite) wins for the Killer."""
    state = at(lola_at(13, killer=1), arrests_left=1)
    done = step(state, 2, Bite(space=12)).state
    outcome = ENGINE.outcome(done)
    assert outcome is not None and (outcome.winners, outcome.reason) == ([0], "cereal_killer.end.arrests_exhausted")
    assert judge(ENGINE, done, [])[0] == ["first_win_killer", "no_trace"]


# ---------------------------------------------------------------- Lola

def test_golden_example_3_sniff_on_4_answers_west_or_south() -> None:
    """Rulebook example 3: route 5, 4, 3, 8; sniffing 4 offers West or South; the answer goes to Lola alone."""
    state = lola_at(9, killer=8, route=[5, 4, 3, 8])
    done = step(state, 2, Sniff(space=4))
    assert [(e.key, e.audience) for e in done.events] == [
        ("cereal_killer.sniffed", Audience.public()), ("cereal_killer.prompt.sniff", Audience.to(0))]
    assert done.events[-1].params["options"] == ["south", "west"]
    answered = step(done.state, 0, ChooseAnswer(answer="west"))
    assert [(e.key, e.params, e.audience) for e in answered.events] == [
        ("cereal_killer.sniff_answer", {"space": 4, "answer": "west"}, Audience.to(2))]
    assert ENGINE.view(answered.state, 2)["lola_answers"] == [
        {"day": 2, "ability": "sniff", "space": 4, "answer": "west", "at": 9}]
    assert "lola_answers" not in ENGINE.view(answered.state, None)
    assert "lola_answers" not in ENGINE.view(answered.state, 1)


@pytest.mark.parametrize(("space", "options"), [(8, ["here"]), (14, ["no"]), (3, ["south"])])
def test_sniff_answers_here_no_or_direction(space: int, options: list[str]) -> None:
    """Sniffing the Killer's own space says here; a space off today's route says no."""
    state = lola_at(13 if space != 3 else 8, killer=8, route=[5, 4, 3, 8])
    assert step(state, 2, Sniff(space=space)).state.pending.options == options


@pytest.mark.parametrize(("lola", "answer"), [(8, "yes"), (14, "yes"), (2, "yes"), (15, "no"), (18, "no")])
def test_bark_counts_the_eight_neighbours(lola: int, answer: str) -> None:
    """Bark: yes when the Killer is on Lola's space or one of the 8 around it (diagonals count)."""
    done = step(lola_at(lola, killer=8), 2, Bark())
    assert [(e.key, e.params) for e in done.events if e.audience == Audience.to(2)] == [
        ("cereal_killer.bark_answer", {"answer": answer})]


def test_bite_wins_before_day_three_with_k9() -> None:
    """A right Bite wins for both hunters; before day 3 Lola earns K9."""
    done = step(lola_at(9, killer=8), 2, Bite(space=8)).state
    outcome = ENGINE.outcome(done)
    assert outcome is not None and (outcome.winners, outcome.reason) == ([1, 2], "cereal_killer.end.bitten")
    assert judge(ENGINE, done, [])[2] == ["first_win_lola", "k9"]


def test_wrong_bite_ends_lolas_turn() -> None:
    """A missed Bite spends a shared attempt and passes the day to the Detective."""
    done = step(lola_at(9, killer=1), 2, Bite(space=8)).state
    assert (done.arrests_left, done.phase, done.bone) == (3, "detective", "bite")


@pytest.mark.parametrize(("bone", "action", "ok"), [
    ("sniff", Sniff(space=9), False), ("sniff", Bark(), True), ("bark", Bark(), False),
    ("bite", Bite(space=9), False), (None, Bite(space=9), True)])
def test_the_bone_forbids_the_same_ability_twice_running(bone: str | None, action: object, ok: bool) -> None:
    """The ability used last (under the Bone) is not available until another one is used."""
    state = lola_at(9, killer=1, bone=bone)
    if ok:
        step(state, 2, action)
    else:
        with pytest.raises(IllegalAction) as err:
            step(state, 2, action)
        assert (err.value.code, err.value.params) == ("cereal_killer.bone", {"ability": bone})


def test_one_ability_a_turn() -> None:
    """After one ability Lola may still move but not use another."""
    state = step(lola_at(9, killer=1), 2, Bark()).state
    assert not [a for a in ENGINE.legal_actions(state, 2) if a.type in ("sniff", "bite", "bark")]
    with pytest.raises(IllegalAction) as err:
        step(state, 2, Sniff(space=9))
    assert err.value.code == "cereal_killer.ability_used"


def test_public_view_lists_the_acting_hunters_moves_for_the_menus() -> None:
    """`hunter_moves` groups legal_actions: the Detective on 7 (City A) with the Witness on 2 may step to its
    neighbours, ask every unused question, and arrest on its own or an adjacent space."""
    moves = ENGINE.view(detective_at(7, witness=2), None)["hunter_moves"]
    assert moves == {"place": [], "step": [2, 6, 8, 12], "ask": ["direction", "same_row", "same_column",
                                                                 "indoors", "parity"],
                     "arrest": [2, 6, 7, 8, 12], "sniff": [], "bite": [], "bark": False, "end": True}
    lola = ENGINE.view(lola_at(9, bone="sniff"), None)["hunter_moves"]
    assert lola["sniff"] == [] and lola["bark"] is True and lola["bite"] == [4, 8, 9, 10, 14]
    assert ENGINE.view(new_game(), None)["hunter_moves"] is None  # the Killer's turn: no hunter menus
