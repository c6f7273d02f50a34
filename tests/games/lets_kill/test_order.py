"""Resolution order (§7): Victim text before Location text, responses in seating order with the same legality
test at resolution, one shootout per whacking, and the three endgames with ties."""

from __future__ import annotations

from games.core import SYSTEM_SEAT, Event
from games.lets_kill import rules
from games.lets_kill.engine import ENGINE, begin
from games.lets_kill.models import CloseWindow, Declare, DiscardHand, Incident, PlayCard, Pledge, Respond

from .support import act, answer_window, build, ready


def test_victim_text_resolves_before_location_text() -> None:
    """W4 before W5: Larry's random discard happens before the Farmers' Market draw (RB)."""
    state = ready([["W17", "E02"], [], []], locations={"L06": ["V19"]}, lk_top=["E14"])
    state = answer_window(answer_window(act(state, 0, PlayCard(card="W17", victims=["V19"]))))
    assert state.lk_discard[0] == "E02"  # the only card in hand at W4
    assert "E14" in state.hands[0]  # drawn at W5, kept


def test_responses_resolve_from_the_left_and_a_second_shootout_is_returned() -> None:
    """Two Sirens in one window: the first from the whacker's left queues the shootout, the other goes back to
    its owner's hand unrevealed (§7.4, LK-20)."""
    state = ready([["W11"], ["E13-1"], ["E13-2"]], town=["V05"])
    state = act(state, 0, PlayCard(card="W11", victims=["V05"]))
    step = ENGINE.apply(act(state, 2, Respond(card="E13-2")), 1, Respond(card="E13-1"))
    keys = [(e.key, e.params.get("seat")) for e in step.events]
    assert ("lets_kill.response", 1) in keys and ("lets_kill.response", 2) not in keys
    assert "E13-2" in step.state.hands[2] and "E13-1" in step.state.lk_discard
    returned = [e for e in step.events if e.key == "lets_kill.response_returned"]
    assert returned and returned[0].audience.seats == (2,)


def test_banana_peel_after_sirens_drops_the_queued_shootout() -> None:
    """Sirens (seat 1) queues a shootout, Banana Peel (seat 2) then cancels the whacking: no shootout happens."""
    state = ready([["W11"], ["E13-1"], ["E14"]], town=["V05"])
    state = act(state, 0, PlayCard(card="W11", victims=["V05"]))
    state = answer_window(state, s1=Respond(card="E13-1"), s2=Respond(card="E14"))
    assert state.shootout is None and not state.incidents and "V05" in state.town


def test_only_the_first_shootout_of_a_whacking_counts() -> None:
    """Off-Duty Cop at the Police Station: one shootout, not two."""
    state = ready([["W11"], [], []], locations={"L01": ["V05"]}, surprises={"V05": "S07"})
    state = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])))
    assert state.shootout is not None
    state = act(state, 0, Pledge())  # the whacker has no Gun and loses: the whacking fails
    assert state.shootout is None and not state.incidents
    assert state.locations[0].victims[0] == "V05" and "S07" in state.lk_discard


def test_victims_running_out_ends_the_game_after_step_2() -> None:
    """LK-31: the last Victim whacked with an empty Victims deck ends the game, with no Step 3."""
    state = build(hands=[["W11", "E02"], [], []], town=["V05"], start=False)
    state.victims_discard, state.victims_deck = list(state.victims_deck), []
    state = begin(state)
    state = answer_window(answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"]))))  # W2, W9
    assert state.ended == "victims" and state.hands[0] == ["E02"]
    assert ENGINE.outcome(state).winners == [0]  # type: ignore[union-attr]


def test_empty_deck_ends_the_game_when_a_turn_would_begin() -> None:
    """LK-30: the Let's Kill deck empty at the start of a turn; tied players all win (LK-33)."""
    state = build(hands=[[], [], []], start=False,
                  incidents=[Incident(id=1, owner=0, weapon="W11", victims=["V12"]),
                             Incident(id=2, owner=2, weapon="W18", victims=["V14", "V05"])])
    state.lk_discard, state.lk_deck = list(state.lk_deck), []
    state = begin(state)
    outcome = ENGINE.outcome(state)
    assert state.ended == "deck" and outcome is not None and outcome.winners == [0, 2]
    assert outcome.scores == {0: 3.0, 1: 0.0, 2: 3.0}


def test_declaring_20_gives_everyone_one_last_turn() -> None:
    """LK-32: a player with 20+ declares at the end of the turn; the others play once; the game ends when the
    declarer's next turn would begin, and the highest score wins even if it is not the declarer."""
    big = Incident(id=1, owner=0, weapon="W22", victims=["V42"], surprises={"V42": "S03"}, location="L02")  # 18
    small = Incident(id=2, owner=0, weapon="W11", victims=["V05"])  # 2
    rival = Incident(id=3, owner=1, weapon="W11", victims=["V41"], media="E08-1")  # 12
    state = ready([["E02"], ["W20"], []], incidents=[big, small, rival], town=["V40"])
    state = act(state, 0, DiscardHand())
    assert state.pending is not None and state.pending.kind == "declare" and rules.score(state, 0) == 20
    state = act(state, 0, Declare(declare=True))
    assert state.declared_by == 0 and state.active == 1
    while state.ended is None:
        seat, action = ENGINE.timeout_action(state)  # type: ignore[misc]
        state = act(state, seat, action)
    assert state.ended == "declared" and state.active == 0 and state.turn == 3


def test_an_escaped_target_stays_behind_and_leaves_with_the_bystanders() -> None:
    """W3/W7: Played Dead makes Wanda escape; the Incident takes Kevin and the Location; Wanda and the bystander
    Doug go out on the town in placement order, and the escaped Victim's Surprise is discarded once."""
    state = ready([["W20"], [], []], locations={"L08": ["V05", "V06", "V07"]}, surprises={"V05": "S12"})
    state = answer_window(answer_window(act(state, 0, PlayCard(card="W20", victims=["V05", "V06"]))))
    inc = state.incidents[-1]
    assert (inc.victims, inc.location, inc.surprises) == (["V06"], "L08", {})
    assert [v for v in state.town if v in ("V05", "V07")] == ["V05", "V07"] and state.lk_discard.count("S12") == 1
    assert not state.locations


def test_a_child_witness_queues_the_shootout_at_w4() -> None:
    """Li'l Lenny next to the whacked Victim queues a shootout against the whacker (on_whack_nearby)."""
    state = ready([["W11", "W01"], [], []], locations={"L08": ["V05", "V01"]})
    state = answer_window(act(state, 0, PlayCard(card="W11", victims=["V05"])))
    assert state.shootout is not None and state.shootout.target == 0
    state = act(act(act(state, 0, Pledge(cards=["W01"])), 1, Pledge()), 2, Pledge())
    state = answer_window(state)
    assert state.incidents[-1].victims == ["V05"] and "V01" in state.town


def test_a_first_player_not_seated_is_refused_not_replaced_by_a_draw() -> None:
    """``first_player:4`` at a table of three: the start is refused naming the seat (as Asesino and Verdugo do),
    instead of silently drawing another first player (README ruling 11); seat 2 of three starts."""
    import pytest

    from games.core import IllegalAction, SeatInfo
    from games.lets_kill.models import LetsKillOptions

    seats = [SeatInfo(names=(f"p{i}",)) for i in range(3)]
    with pytest.raises(IllegalAction) as err:
        ENGINE.setup(LetsKillOptions(first_player=4), seats, 1)
    assert (err.value.code, err.value.params) == ("lets_kill.bad_first_player", {"seat": 4})
    assert ENGINE.setup(LetsKillOptions(first_player=2), seats, 1).first == 2


def test_victims_running_out_at_a_turn_start_leave_a_pending_skip_unspent() -> None:
    """LK-31, LK-08, §9.9: Li'l Lenny goes home at the start of his placer's turn and no Victim is left, so the game
    ends before that turn happens: the skip owed by a lost shootout is not spent by it (a skipped turn is only
    Step 3, which never comes)."""
    state = build(hands=[["W11"], [], []], town=["V01"], start=False, placers={"V01": 0})
    state.skips = [1, 0, 0]
    state.victims_discard, state.victims_deck = list(state.victims_deck), []
    state = begin(state)
    assert state.ended == "victims" and state.skips == [1, 0, 0]
    assert ENGINE.view(state, None)["skips"] == [1, 0, 0]


def test_the_declarers_turn_with_an_empty_deck_ends_by_the_declaration() -> None:
    """§9.11 (v1.2): when the declarer's next turn would begin and the Let's Kill deck is empty too, LK-32 and LK-30
    both hold; the end checks run declaration first, so the reason recorded is the declaration."""
    rival = Incident(id=1, owner=1, weapon="W11", victims=["V41"], media="E08-1")  # 12
    state = build(hands=[[], [], []], town=["V05"], start=False, incidents=[rival], declared_by=0)
    state.lk_discard, state.lk_deck = list(state.lk_deck), []
    state = begin(state)
    outcome = ENGINE.outcome(state)
    assert state.ended == "declared" and outcome is not None
    assert outcome.reason == "lets_kill.end.declared" and outcome.winners == [1]


def test_a_hand_dm_comes_once_per_turn_change_with_the_whole_hand() -> None:
    """Issue 21: a hand is sent when the turn changes, not at every change: Ada plays, refills at Step 3 and gets
    one hand event (her whole new hand) as Ben's turn begins; Ben, whose hand did not change, gets none."""
    state = ready([["W11", "E02"], ["W01"], []], town=["V05"])
    events: list[Event] = []
    step = ENGINE.apply(state, 0, PlayCard(card="W11", victims=["V05"]))
    while step.state.turn == state.turn:
        events += step.events
        step = ENGINE.apply(step.state, SYSTEM_SEAT, CloseWindow())
    events += step.events
    hands = [(e.audience.seats, e.params["cards"]) for e in events if e.key == "lets_kill.hand"]
    assert step.state.active == 1 and len(step.state.hands[0]) == 5
    assert hands == [((0,), step.state.hands[0])]
