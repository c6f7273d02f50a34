"""The Killer's turn: golden rulebook examples, movement, victims and Witness, calendar and cornering."""

from __future__ import annotations

import pytest

from games.cereal_killer import ENGINE
from games.cereal_killer.models import Arrest, EndTurn, KillerTurn, PlaceDetective, Victim
from games.core import Audience, IllegalAction, rng_for
from games.core.achievements import judge
from games.core.ai import policy_for, timeout_move
from tests.games.cereal_killer.helpers import at, new_game, play, step


def test_golden_example_1_victim_on_3_witness_on_4() -> None:
    """Rulebook example 1: from 8 via 3, 2 to 1; a victim may go on 8, 3 or 1; on 3 the Witness goes to 4."""
    state = new_game()
    houses = {a.victim for a in ENGINE.legal_actions(state, 0) if a.start == 8 and a.path == [3, 2, 1]}
    assert houses == {None, 8, 3, 1}
    done = step(state, 0, KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4))
    assert done.state.killer == 1
    assert done.state.victims == [Victim(day=1, space=3)]
    assert done.state.witness == 4


def test_golden_example_1_needs_a_choice_between_parks_2_and_4() -> None:
    """House 3 touches Parks 2 and 4: the Killer must name one (and not the one it ends on)."""
    state = new_game()
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(start=8, path=[3, 2, 1], victim=3))
    assert (err.value.code, err.value.params) == ("cereal_killer.witness_needed", {"victim": 3, "options": "2, 4"})
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(start=3, path=[4, 5, 4], victim=3, witness=4))
    assert (err.value.code, err.value.params) == ("cereal_killer.ends_on_witness", {"space": 4})


def test_golden_example_2_underground_saves_steps() -> None:
    """Rulebook example 2: 5 -> 10 -> 16 -> 17 is three steps thanks to the Underground."""
    state = at(new_game(), day=2, killer=5, routes=[[1, 2, 3, 4]], detective=7, victims=[Victim(day=1, space=3)])
    done = step(state, 0, KillerTurn(path=[10, 16, 17]))
    assert done.state.killer == 17
    assert done.state.routes[-1] == [5, 10, 16, 17]
    assert done.state.killer_rode


@pytest.mark.parametrize(
    ("path", "code", "params"),
    [
        ([3, 2], "cereal_killer.three_steps", {"count": 2}),
        ([3, 2, 1, 2], "cereal_killer.three_steps", {"count": 4}),
        ([9, 5, 4], "cereal_killer.not_adjacent", {"a": 9, "b": 5}),
        ([13, 12, 7], "cereal_killer.hunter_blocks", {"space": 7, "who": "detective"}),
        ([3, 2, 0], "cereal_killer.not_a_space", {"space": 0, "last": 20}),
        ([3, 9, 4], "cereal_killer.not_adjacent", {"a": 3, "b": 9}),
    ],
)
def test_illegal_walks_are_explained(path: list[int], code: str, params: dict[str, object]) -> None:
    """Each illegal walk names the rule it breaks and where."""
    state = at(new_game(), day=2, killer=8, detective=7, routes=[[1, 2, 3, 8]], victims=[Victim(day=1, space=1)])
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(path=path))
    assert (err.value.code, err.value.params) == (code, params)


def test_retracing_is_allowed() -> None:
    """The Killer may walk back over its own steps, even ending where it started."""
    state = at(new_game(), day=2, killer=8, detective=19, routes=[[1, 2, 3, 8]], victims=[Victim(day=1, space=1)])
    assert step(state, 0, KillerTurn(path=[3, 8, 3])).state.killer == 3
    assert step(state, 0, KillerTurn(path=[3, 2, 3])).state.routes[-1] == [8, 3, 2, 3]


def test_the_killer_may_leave_a_shared_space_and_claim_there_invisible() -> None:
    """Starting on the Detective's House is fine; claiming the victim there earns Invisible."""
    state = at(new_game(), day=2, killer=8, detective=8, routes=[[1, 2, 3, 8]], victims=[Victim(day=1, space=1)])
    done = step(state, 0, KillerTurn(path=[9, 14, 13], victim=8)).state
    assert done.invisible and done.witness is None
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(path=[9, 8, 9]))
    assert err.value.params == {"space": 8, "who": "detective"}


@pytest.mark.parametrize(
    ("turn", "code", "params"),
    [
        (KillerTurn(path=[3, 2, 1]), "cereal_killer.need_start", {}),
        (KillerTurn(start=7, path=[8, 3, 2]), "cereal_killer.not_a_house", {"space": 7}),
        (KillerTurn(start=8, path=[3, 2, 1], victim=2, witness=None), "cereal_killer.not_a_house", {"space": 2}),
        (KillerTurn(start=8, path=[3, 2, 1], victim=11), "cereal_killer.victim_not_on_route", {"space": 11}),
        (KillerTurn(start=8, path=[3, 2, 1], witness=4), "cereal_killer.witness_without_victim", {}),
        (KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=7), "cereal_killer.witness_not_adjacent",
         {"space": 7, "victim": 3}),
        (KillerTurn(start=8, path=[9, 14, 13], victim=8, witness=9), "cereal_killer.no_park", {"victim": 8}),
    ],
)
def test_illegal_first_turns_are_explained(turn: KillerTurn, code: str, params: dict[str, object]) -> None:
    """Day 1 needs a starting House; victims go on Houses of the route; the Witness on an adjacent Park."""
    with pytest.raises(IllegalAction) as err:
        step(new_game(), 0, turn)
    assert (err.value.code, err.value.params) == (code, params)


def test_one_park_places_the_witness_automatically() -> None:
    """House 1 touches the single Park 2 (6 is a Street): the Witness goes there without being named."""
    done = step(new_game(), 0, KillerTurn(start=8, path=[3, 2, 1], victim=1)).state
    assert done.witness == 2


def test_a_house_holds_one_victim_per_game_and_six_at_most() -> None:
    """Victims: one per House for the whole game, six in all."""
    state = at(new_game(), day=3, killer=8, detective=19, routes=[[8, 3, 2, 1]] * 2,
               victims=[Victim(day=1, space=3)])
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(path=[3, 8, 9], victim=3, witness=4))
    assert (err.value.code, err.value.params) == ("cereal_killer.house_used", {"space": 3, "day": 1})
    full = at(state, victims=[Victim(day=d, space=s) for d, s in enumerate([1, 3, 11, 14, 18, 20], 1)])
    with pytest.raises(IllegalAction) as err:
        step(full, 0, KillerTurn(path=[9, 8, 9], victim=8))
    assert err.value.code == "cereal_killer.no_victims_left"


def test_later_days_may_repeat_only_the_current_space_as_start() -> None:
    """After day 1 the start is the current space; another start is refused."""
    state = at(new_game(), day=2, killer=8, detective=19, routes=[[1, 2, 3, 8]], victims=[Victim(day=1, space=1)])
    assert step(state, 0, KillerTurn(start=8, path=[3, 2, 1])).state.killer == 1
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(start=3, path=[2, 1, 2]))
    assert (err.value.code, err.value.params) == ("cereal_killer.wrong_start", {"space": 3, "current": 8})


def test_a_route_naming_the_current_space_as_first_step_gets_a_clear_refusal() -> None:
    """Standing on 8, "8 3 2" reads as three steps whose first stays in place: refused as step_in_place, not as
    "8 is not next to 8"."""
    state = at(new_game(), day=2, killer=8, detective=19, routes=[[1, 2, 3, 8]], victims=[Victim(day=1, space=1)])
    with pytest.raises(IllegalAction) as err:
        step(state, 0, KillerTurn(path=[8, 3, 2]))
    assert (err.value.code, err.value.params) == ("cereal_killer.step_in_place", {"space": 8})


def test_route_is_private_and_the_victim_public() -> None:
    """The route goes to the Killer alone; the victim and Witness are announced publicly."""
    events = step(new_game(), 0, KillerTurn(start=8, path=[3, 2, 1], victim=3, witness=4)).events
    private = [e for e in events if not e.audience.is_public]
    assert [(e.key, e.audience, e.params["route"]) for e in private] == [
        ("cereal_killer.route_recorded", Audience.to(0), [8, 3, 2, 1])]
    public = {e.key: e.params for e in events if e.audience.is_public}
    assert public["cereal_killer.victim"] == {"space": 3, "day": 1, "count": 1}
    assert public["cereal_killer.witness_placed"] == {"space": 4}


@pytest.mark.parametrize(("players", "fail_day", "needed"), [(2, 2, 1), (2, 4, 3), (2, 7, 6), (3, 2, 1), (3, 5, 3),
                                                              (3, 8, 6)])
def test_objective_fails_on_its_calendar_day(players: int, fail_day: int, needed: int) -> None:
    """One victim short after the Killer moves on a calendar day: the hunters win at once."""
    have = needed - 1
    victims = [Victim(day=1, space=s) for s in [1, 3, 11, 14, 18, 20][:have]]
    state = at(new_game(players), day=fail_day, killer=8, detective=19, lola=38 if players == 3 else None,
               routes=[[8, 9, 8, 9]], victims=victims)
    done = step(state, 0, KillerTurn(path=[9, 8, 9])).state
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == ([1] if players == 2 else [1, 2])
    assert outcome.reason == "cereal_killer.end.objective_failed"
    assert outcome.params == {"day": fail_day, "needed": needed, "have": have, "count": have, "killer_space": 9}


@pytest.mark.parametrize(("players", "quiet_day"), [(2, 3), (2, 5), (3, 4), (3, 7)])
def test_no_check_on_other_days(players: int, quiet_day: int) -> None:
    """Days between calendar checks never end the game for missing victims."""
    state = at(new_game(players), day=quiet_day, killer=8, detective=19, lola=38 if players == 3 else None,
               routes=[[8, 9, 8, 9]], victims=[Victim(day=1, space=1)])
    assert ENGINE.outcome(step(state, 0, KillerTurn(path=[9, 8, 9])).state) is None


def test_surviving_the_last_day_wins_for_the_killer() -> None:
    """After the Detective's turn on day 7 with six victims, the Killer wins."""
    victims = [Victim(day=d, space=s) for d, s in enumerate([1, 3, 11, 14, 18, 20], 1)]
    state = at(new_game(), day=7, killer=8, detective=19, routes=[[8, 9, 8, 9]], victims=victims[:5])
    state = play(state, (0, KillerTurn(path=[3, 8, 9], victim=8)))
    assert ENGINE.outcome(state) is None and len(state.victims) == 6
    outcome = ENGINE.outcome(play(state, (1, EndTurn())))
    assert outcome is not None and (outcome.winners, outcome.reason) == ([0], "cereal_killer.end.survived")


def test_cornered_killer_loses_at_the_start_of_its_turn() -> None:
    """Killer on 1 with hunters on 2 and 6: no 3-step walk, the Detective wins (Operative)."""
    state = at(new_game(3), day=2, phase="detective", killer=1, detective=6, lola=2, routes=[[8, 3, 2, 1]],
               victims=[Victim(day=1, space=3)], turn_steps=3)
    done = step(state, 1, EndTurn())
    outcome = ENGINE.outcome(done.state)
    assert outcome is not None and outcome.reason == "cereal_killer.end.cornered"
    assert outcome.winners == [1, 2]
    assert "operative" in judge(ENGINE, done.state, [])[1]
    assert done.events[-1].key == "cereal_killer.end.cornered"


def test_detective_placement_comes_after_the_first_turn() -> None:
    """Day 1: the Detective must place on a Cafe before anything else."""
    state = step(new_game(), 0, KillerTurn(start=8, path=[3, 2, 1])).state
    assert ENGINE.legal_actions(state, 1) == [PlaceDetective(space=7), PlaceDetective(space=19)]
    with pytest.raises(IllegalAction) as err:
        step(state, 1, Arrest(space=7))
    assert err.value.code == "cereal_killer.place_first"
    with pytest.raises(IllegalAction) as err:
        step(state, 1, PlaceDetective(space=8))
    assert (err.value.code, err.value.params) == ("cereal_killer.not_a_cafe", {"space": 8})


def test_an_absent_killer_gets_its_computer_players_turn() -> None:
    """Golden: on day 1 of seed 7 the turn timer plays the Killer's policy from its view (issue 24): from House 8
    via 13 and 12 to 17, claiming 8; the same state and rng seed always make the same turn, another seed another."""
    state = new_game(seed=7)
    expected = (0, KillerTurn(start=8, path=[13, 12, 17], victim=8))
    assert timeout_move(ENGINE, state, rng_for(7, "timeout", 0)) == expected
    assert timeout_move(ENGINE, state.model_copy(deep=True), rng_for(7, "timeout", 0)) == expected
    assert expected[1] == policy_for("cereal_killer", "classic").choose(
        ENGINE.view(state, 0), ENGINE.legal_actions(state, 0), rng_for(7, "timeout", 0))
    assert timeout_move(ENGINE, new_game(seed=8), rng_for(8, "timeout", 0)) == (
        0, KillerTurn(start=8, path=[9, 8, 9], victim=8))
    done = step(state, 0, expected[1])
    assert (done.state.killer, done.state.routes, done.state.phase) == (17, [[8, 13, 12, 17]], "detective")


def test_the_timed_out_turn_tells_the_channel_no_route() -> None:
    """Standing on 5 with the Detective on 4, the timed-out turn's public events name the day only; the route
    (5 -> 10 -> 16 -> 11) goes to the Killer alone."""
    state = at(new_game(), day=2, killer=5, routes=[[1, 2, 3, 4]], detective=4, victims=[Victim(day=1, space=3)])
    seat, turn = timeout_move(ENGINE, state, rng_for(state.seed, "timeout", 0))  # type: ignore[misc]
    assert (seat, turn.path) == (0, [10, 16, 11])
    done = step(state, seat, turn)
    public = [e for e in done.events if e.audience == Audience.public()]
    assert all("route" not in e.params and "path" not in e.params for e in public)
    assert ("cereal_killer.killer_moved", {"day": 2}) in [(e.key, e.params) for e in public]
    private = [e for e in done.events if e.audience == Audience.to(0)]
    assert [(e.key, e.params["route"]) for e in private if e.key == "cereal_killer.route_recorded"] == [
        ("cereal_killer.route_recorded", [5, 10, 16, 11])]

