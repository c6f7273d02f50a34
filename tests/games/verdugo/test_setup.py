"""Match and round setup (edition §2, §4, §9.4-9.5): player counts, Crowns, the Pardon rule, the safe-object
loop, the data files, successors and the match's end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import SYSTEM_SEAT, IllegalAction, SeatInfo
from games.core.ai import timeout_move
from games.verdugo import ENGINE, cards
from games.verdugo.models import Chop, EndMatch, SetAside, Stop, Successor, VerdugoOptions
from games.verdugo.setup import has_safe
from games.verdugo.treasury import treasury
from tests.games.verdugo.helpers import execution_table, ids, new_match, play, rig_round

ROLES = "Loyalist, Saboteur, Loyalist, Jester, Princess | Saboteur, Loyalist, Saboteur, Loyalist, Saboteur"


@pytest.mark.parametrize("players", [3, 9])
def test_player_count_outside_4_to_8_is_refused(players: int) -> None:
    """§2: the bot refuses N < 4 or N > 8."""
    with pytest.raises(IllegalAction) as err:
        ENGINE.setup(VerdugoOptions(), [SeatInfo() for _ in range(players)], 1)
    assert err.value.code == "core.bad_player_count"


@pytest.mark.parametrize("players", range(4, 9))
def test_every_player_starts_with_five_crowns(players: int) -> None:
    """§2: 5 Crowns each, the Treasury holds 80 − 5N; N roles and N objects are active; one role discarded."""
    s = ENGINE.setup(VerdugoOptions(), [SeatInfo() for _ in range(players)], players)
    assert s.crowns == [5] * players and treasury(s) == 80 - 5 * players
    assert len(s.round.active_roles) == len(s.round.active_objects) == players
    assert any(cards.is_pardon(o) for o in s.round.active_objects)


def test_data_files_have_the_editions_counts() -> None:
    """§5, §6, §8: 10 roles (4/4/1/1), 13 objects (3/3/2/1/1/1/1/1), 14 Scaffold cards."""
    assert sorted(cards.role_deck()) == sorted(["loyalist"] * 4 + ["saboteur"] * 4 + ["princess", "jester"])
    assert sorted(cards.object_deck()) == sorted(ids("Pardon, Pardon, Pardon, Fancy Hat, Fancy Hat, Fancy Hat, "
                                                     "Golden Chalice, Golden Chalice, Cheese, Doll, Shield, "
                                                     "Parasite, Mimic"))
    assert len(cards.scaffold_deck()) == 14 and cards.rewards().total_crowns == 80


def test_a_wrong_count_in_the_data_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader asserts the counts: a deck with a missing card does not load."""
    real = cards._load

    def short(name: str) -> Any:
        data = real(name)
        if name == "cards.yaml":
            data["objects"][0]["copies"] = 2
        return data

    monkeypatch.setattr(cards, "_load", short)
    with pytest.raises(ValueError, match="13 objects"):
        cards.deck.__wrapped__()


def test_pardon_rule_replaces_the_last_drawn_card_by_the_first_pardon_of_the_deck() -> None:
    """§4 step 4 (V-05), as §11.1: the Hat drawn last is set aside; the 7th card, a Pardon, comes in."""
    s = rig_round(new_match(), 0, roles=ROLES, scaffold=[],
                  objects="Fancy Hat, Doll, Golden Chalice, Shield, Fancy Hat | Mimic, Pardon, Parasite, Cheese, "
                          "Pardon, Fancy Hat, Golden Chalice, Pardon")
    assert s.round.set_aside == ["hat"] and s.round.active_objects[-1] == "pardon"
    assert s.round.object_deck == ids("Mimic, Parasite, Cheese, Pardon, Fancy Hat, Golden Chalice, Pardon")


def test_safe_loop_never_removes_the_only_pardon_and_times_out_on_the_newest_card() -> None:
    """§4 step 6 (V-06): E may set aside any card but the only Pardon; a timeout sets aside what E's computer
    player would (ruling B-1), which is always an allowed card."""
    s = rig_round(new_match(), 0, roles=ROLES, scaffold=[],
                  objects="Pardon, Shield, Parasite, Mimic, Shield | Parasite, Mimic, Fancy Hat, Doll, Golden Chalice, "
                          "Fancy Hat, Golden Chalice, Fancy Hat")
    assert s.round.phase == "set_aside" and 0 not in [a.index for a in ENGINE.legal_actions(s, 0)]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, SetAside(index=0))
    assert err.value.code == "verdugo.cannot_set_aside"
    for n in range(5):
        seat, action = timeout_move(ENGINE, s, random.Random(n))
        assert seat == 0 and action in ENGINE.legal_actions(s, 0)
    s = play(s, (0, SetAside(index=4)))  # draws the Parasite: still no safe object
    assert s.round.phase == "set_aside"
    s = play(s, (0, SetAside(index=4)), (0, SetAside(index=4)))  # Mimic, then the Fancy Hat
    assert s.round.phase == "draw" and has_safe(s.round.active_objects)
    assert s.round.set_aside == ids("Shield, Parasite, Mimic") and len(s.round.roles) == 5


def test_tour_successors_are_players_who_have_not_served_and_the_match_ends_after_n_rounds() -> None:
    """§9.4-9.5 (V-34): in ``tour`` each player is Executioner once; the outgoing E names someone else."""
    s = new_match(("A", "B", "C", "D"), executioner=1, match="tour")
    for expected_served in range(1, 5):
        while s.phase == "round":
            seat, action = ENGINE.timeout_action(s)  # type: ignore[misc]
            s = play(s, (seat, action))
        assert len(s.served) == expected_served
        if s.phase == "over":
            break
        legal = ENGINE.legal_actions(s, s.round.executioner)
        assert [a.seat for a in legal] == [p for p in range(4) if p not in s.served]
        with pytest.raises(IllegalAction):
            ENGINE.apply(s, s.round.executioner, Successor(seat=s.round.executioner))
        s = play(s, (s.round.executioner, legal[0]))
    assert s.phase == "over" and sorted(s.served) == [0, 1, 2, 3] or s.end_reason == "treasury_empty"


def test_only_the_host_ends_an_open_match_and_only_between_rounds() -> None:
    """§9.4: ``EndMatch`` comes from the host (the system seat), in ``open`` matches, between rounds."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield")
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, SYSTEM_SEAT, EndMatch())
    assert err.value.code == "verdugo.not_open"
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 0, EndMatch())
    assert err.value.code == "verdugo.host_only"
    assert ENGINE.outcome(play(s, (SYSTEM_SEAT, EndMatch()))) is not None


def test_dead_players_are_refused_with_the_reason() -> None:
    """§7.1 (V-36): a dead prisoner's game commands are refused until the round ends."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["hat", "doll", "pardon"], "shield")
    s = play(s, (0, Chop(seat=1)))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 1, Stop())
    assert err.value.code == "verdugo.dead"


@pytest.mark.parametrize("players", [7, 8])
def test_the_safe_object_rule_never_fires_from_seven_players(players: int) -> None:
    """§2: only 6 of the 13 objects are unsafe, so 7 or more active objects always hold a safe one."""
    for seed in range(40):
        s = ENGINE.setup(VerdugoOptions(), [SeatInfo() for _ in range(players)], seed)
        assert s.round.phase == "draw" and has_safe(s.round.active_objects)
