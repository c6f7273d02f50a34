"""Tabletop dealing and the starting ritual (edition rulings "Role table", "The discard icon", "Starting ritual")."""

from __future__ import annotations

from collections import Counter

import pytest

from games.asesino.tabletop.models import ChooseDirection, Declare, TabletopOptions
from games.core import IllegalAction, SeatInfo, get_engine
from tests.games.asesino.support import TABLE, keys


def seats(count: int) -> list[SeatInfo]:
    return [SeatInfo(names=(f"p{i}",)) for i in range(count)]


@pytest.mark.parametrize(("players", "victim", "detective", "prosecutor", "journalist", "doctor", "killer",
                          "accomplice"), [
    (5, 3, 1, 0, 0, 0, 1, 0),
    (6, 2, 1, 1, 0, 0, 1, 1),
    (7, 3, 1, 1, 0, 0, 1, 1),
    (8, 3, 1, 1, 1, 0, 1, 1),
    (9, 3, 1, 1, 1, 1, 1, 1),
    (10, 4, 1, 1, 1, 1, 1, 1),
])
def test_roles_follow_the_edition_table(players: int, victim: int, detective: int, prosecutor: int,
                                        journalist: int, doctor: int, killer: int, accomplice: int) -> None:
    """Each head count deals exactly the role cards of its row."""
    state = TABLE.setup(TabletopOptions(), seats(players), 3)
    dealt = Counter(p.role for p in state.seats)
    expected = {"victim": victim, "detective": detective, "prosecutor": prosecutor, "journalist": journalist,
                "doctor": doctor, "killer": killer, "accomplice": accomplice}
    assert dealt == Counter({role: n for role, n in expected.items() if n})


@pytest.mark.parametrize("players", [4, 11])
def test_outside_five_to_ten_players_is_refused(players: int) -> None:
    """The tabletop mode seats 5 to 10 players."""
    with pytest.raises(IllegalAction) as err:
        TABLE.setup(TabletopOptions(), seats(players), 1)
    assert err.value.code == "core.bad_player_count"


@pytest.mark.parametrize("players", range(5, 11))
def test_hands_keep_the_role_card_and_two_intentions_by_the_icon(players: int) -> None:
    """Rulebook icon examples (Victim blue-red, Killer red): good roles keep Good+Bad, evil roles Bad+Bad."""
    state = TABLE.setup(TabletopOptions(), seats(players), 99)
    for player in state.seats:
        expected = [player.role, "bad", "bad"] if player.role in ("killer", "accomplice") else [
            player.role, "good", "bad"]
        assert player.hand == expected
    evil = sum(1 for p in state.seats if p.role in ("killer", "accomplice"))
    assert Counter(state.discard) == Counter({"good": evil, "bad": players - evil})


def test_first_player_is_the_host_option_or_drawn_from_the_seed() -> None:
    """The host option names the first player; otherwise the seed draws it, the same each time."""
    assert TABLE.setup(TabletopOptions(first_player=4), seats(6), 1).first == 4
    drawn = {TABLE.setup(TabletopOptions(), seats(6), seed).first for seed in range(30)}
    assert len(drawn) > 1
    assert TABLE.setup(TabletopOptions(), seats(6), 5).first == TABLE.setup(TabletopOptions(), seats(6), 5).first
    with pytest.raises(IllegalAction) as err:
        TABLE.setup(TabletopOptions(first_player=6), seats(6), 1)
    assert err.value.code == "asesino.error.bad_first_player"


def test_intro_tells_each_seat_its_role_and_the_evil_pair_each_other() -> None:
    """Starting ritual: roles and hands by DM; Killer and Accomplice learn each other; the first player picks."""
    state = TABLE.setup(TabletopOptions(first_player=2), seats(7), 12)
    events = TABLE.intro(state)
    roles = [e for e in events if e.key == "asesino.intro.role"]
    assert [e.audience.seats for e in roles] == [(seat,) for seat in range(7)]
    assert [e.params["role"] for e in roles] == [p.role for p in state.seats]
    killer = next(s for s, p in enumerate(state.seats) if p.role == "killer")
    accomplice = next(s for s, p in enumerate(state.seats) if p.role == "accomplice")
    (partners,) = [e for e in events if e.key == "asesino.intro.partners"]
    assert set(partners.audience.seats) == {killer, accomplice}
    assert partners.params == {"killer": killer, "accomplice": accomplice}
    assert [(e.key, e.params) for e in events if e.audience.is_public] == [
        ("asesino.intro.first", {"seat": 2}), ("asesino.prompt.direction", {"seat": 2})]


def test_five_players_have_no_accomplice_to_meet() -> None:
    """At 5 players the Killer is alone, so no partners message is sent."""
    state = TABLE.setup(TabletopOptions(), seats(5), 4)
    assert "asesino.intro.partners" not in keys(TABLE.intro(state))


def test_only_the_first_player_acts_and_only_to_choose_the_direction() -> None:
    """Before the direction is set the first player must choose it; anything else is refused."""
    state = TABLE.setup(TabletopOptions(first_player=0), seats(5), 4)
    assert TABLE.to_act(state) == [0]
    assert TABLE.legal_actions(state, 0) == [ChooseDirection(clockwise=True), ChooseDirection(clockwise=False)]
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(state, 0, Declare(card="bad", target=1))
    assert err.value.code == "asesino.error.prompt_pending"
    with pytest.raises(IllegalAction) as err:
        TABLE.apply(state, 1, ChooseDirection(clockwise=True))
    assert err.value.code == "core.not_your_turn"


@pytest.mark.parametrize(("clockwise", "second"), [(True, 1), (False, 4)])
def test_direction_decides_who_plays_next(clockwise: bool, second: int) -> None:
    """After the first player's card the turn marker moves in the chosen direction."""
    state = TABLE.setup(TabletopOptions(first_player=0), seats(5), 4)
    state = TABLE.apply(state, 0, ChooseDirection(clockwise=clockwise)).state
    assert TABLE.to_act(state) == [0]
    state = TABLE.apply(state, 0, Declare(card="bad", target=2, words="hola")).state
    assert TABLE.to_act(state) == [second]


def test_registry_serves_both_card_modes() -> None:
    """The registry finds the tabletop (5-10) and small (2-4) engines under game id asesino."""
    assert get_engine("asesino", "tabletop").mode.model_dump() == {"id": "tabletop", "min_players": 5,
                                                                   "max_players": 10}
    assert get_engine("asesino", "small").mode.model_dump() == {"id": "small", "min_players": 2, "max_players": 4}
