"""Each of the 14 Scaffold cards (edition §8): its choices, its public and private effects, its round rule."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core import IllegalAction
from games.verdugo import ENGINE
from games.verdugo.cards import scaffold_deck
from games.verdugo.models import (
    CENTRE,
    ChooseDirection,
    ChoosePair,
    ChoosePrisoner,
    Chop,
    Draw,
    Peek,
    Stop,
    VerdugoState,
)
from tests.games.verdugo.helpers import events_of, execution_table, new_match, play, rig_round

# E in seat 2 so that "from E's left" and the skip over E are exercised: prisoners 3, 4, 0, 1
DEAL_OBJECTS = "Pardon, Fancy Hat, Doll, Golden Chalice, Shield"


def drawn(card: str, second: str = "double_wages") -> VerdugoState:
    """A 5-player round, E in seat 2, about to draw ``card``: seats 3, 4, 0, 1 hold Pardon, Hat, Doll, Chalice
    and the centre is the Shield."""
    s = rig_round(new_match(executioner=2), 2,
                  roles="Loyalist, Saboteur, Princess, Jester, Loyalist | Saboteur, Loyalist, Saboteur, Loyalist, "
                        "Saboteur",
                  objects=f"{DEAL_OBJECTS} | Fancy Hat, Fancy Hat, Golden Chalice, Pardon, Pardon, Cheese, Parasite, "
                          "Mimic",
                  scaffold=[card, second], deal_roles="Loyalist, Saboteur, Princess, Jester, Loyalist",
                  deal_objects=DEAL_OBJECTS)
    assert s.round.objects == ["doll", "chalice", None, "pardon", "hat"] and s.round.centre == "shield"
    return s


def test_the_deck_has_the_fourteen_cards() -> None:
    """§8: 14 distinct cards, 10 immediate and 4 round rules."""
    from games.verdugo.cards import scaffold
    assert len(set(scaffold_deck())) == 14
    assert Counter(scaffold(c).timing for c in scaffold_deck()) == {"I": 10, "R": 4}


def test_last_request_gives_an_extra_action_before_the_normal_one() -> None:
    """CAD-01 as card 1: the chosen prisoner acts now and still acts later."""
    s = play(drawn("last_request"), (2, Draw()))
    assert ENGINE.legal_actions(s, 2) == [ChoosePrisoner(seat=p) for p in (3, 4, 0, 1)]
    s = play(s, (2, ChoosePrisoner(seat=0)), (0, Peek(position=3)))
    assert s.round.phase == "call" and s.round.acted == []
    assert [x.card for x in s.round.seen[0] if x.kind == "peek"] == ["pardon"]


@pytest.mark.parametrize(("direction", "expected"), [
    ("left", ["hat", "doll", None, "chalice", "pardon"]),  # 3 -> 4 -> 0 -> 1 -> 3: seat 1's left is E, skipped
    ("right", ["chalice", "pardon", None, "hat", "doll"]),  # 3 -> 1 (E skipped) -> 0 -> 4 -> 3
])
def test_chain_gang_passes_objects_skipping_the_executioner(direction: str, expected: list[str | None]) -> None:
    """CAD-02: everyone passes to the next prisoner in the chosen direction; E is skipped; the centre stays."""
    s = play(drawn("chain_gang"), (2, Draw()), (2, ChooseDirection(direction=direction)))  # type: ignore[arg-type]
    assert s.round.objects == expected and s.round.centre == "shield"


def test_riot_reshuffles_objects_and_centre() -> None:
    """CAD-03: the prisoners' objects and the centre are shuffled and dealt again; the multiset is unchanged."""
    s, ev = events_of(play(drawn("riot")), 2, Draw())
    cards = [c for c in s.round.objects if c] + [s.round.centre]
    assert sorted(cards) == sorted(["pardon", "hat", "doll", "chalice", "shield"])
    assert all(e.audience.is_public for e in ev)
    assert all("object" not in e.params for e in ev)


def test_forced_trade_swaps_two_chosen_prisoners() -> None:
    """CAD-04: E chooses two different prisoners; their objects are exchanged; nobody looks."""
    s = play(drawn("forced_trade"), (2, Draw()))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 2, ChoosePair(a=2, b=3))
    s, ev = events_of(s, 2, ChoosePair(a=3, b=0))
    assert s.round.objects == ["pardon", "chalice", None, "doll", "hat"] and all(e.audience.is_public for e in ev)


def test_smugglers_switch_swaps_with_the_centre() -> None:
    """CAD-05: the chosen prisoner's object is exchanged with the centre card."""
    s = play(drawn("smuggler"), (2, Draw()), (2, ChoosePrisoner(seat=4)))
    assert s.round.objects[4] == "shield" and s.round.centre == "hat"


def test_secret_deal_a_chooses_b_and_both_see_their_new_object() -> None:
    """CAD-06: E chooses A; A chooses B (not A); they swap; each privately sees their new object."""
    s = play(drawn("secret_deal"), (2, Draw()), (2, ChoosePrisoner(seat=3)))
    assert ENGINE.to_act(s) == [3] and ChoosePrisoner(seat=3) not in ENGINE.legal_actions(s, 3)
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 3, ChoosePrisoner(seat=3))
    s, ev = events_of(s, 3, ChoosePrisoner(seat=1))
    private = {e.audience.seats: e.params["card"] for e in ev if not e.audience.is_public}
    assert private == {(3,): "chalice", (1,): "pardon"}


def test_royal_inspection_shows_the_centre_to_the_executioner_only() -> None:
    """CAD-07."""
    s, ev = events_of(drawn("royal_inspection"), 2, Draw())
    assert [(e.audience.seats, e.params["card"]) for e in ev if not e.audience.is_public] == [((2,), "shield")]
    assert ENGINE.view(s, 2)["you"]["seen"][0]["card"] == "shield"


def test_town_crier_shows_the_centre_to_everyone() -> None:
    """CAD-08: public, then face down again (the public view keeps what was shown)."""
    s, ev = events_of(drawn("town_crier"), 2, Draw())
    assert ev[-1].audience.is_public and ev[-1].params["object"] == "shield"
    assert ENGINE.view(s, None)["crier"] == "shield"


def test_examination_shows_each_prisoner_their_own_card() -> None:
    """CAD-09: each prisoner privately sees the card in front of them (a Mimic holder sees the Mimic)."""
    s, ev = events_of(drawn("examination"), 2, Draw())
    private = {e.audience.seats: e.params["card"] for e in ev if not e.audience.is_public}
    assert private == {(3,): "pardon", (4,): "hat", (0,): "doll", (1,): "chalice"}


def test_spy_shows_a_role_to_the_chosen_prisoner() -> None:
    """CAD-10: E chooses A; A chooses B; A privately sees B's role."""
    s = play(drawn("spy"), (2, Draw()), (2, ChoosePrisoner(seat=0)))
    s, ev = events_of(s, 0, ChoosePrisoner(seat=4))
    assert [(e.audience.seats, e.params["card"], e.params["seat"]) for e in ev if not e.audience.is_public] == [
        ((0,), "saboteur", 4)]


@pytest.mark.parametrize("card", ["double_wages", "bloodlust", "open_trial", "blunt_axe"])
def test_round_rules_stay_in_force(card: str) -> None:
    """CAD-11..14: a round rule is recorded and public."""
    s = play(drawn(card, "town_crier"), (2, Draw()))
    assert s.round.rules == [card] and ENGINE.view(s, None)["rules"] == [card] and s.round.phase == "call"


def test_double_wages_doubles_deaths_not_the_chalice() -> None:
    """CAD-11: E receives 2 per counted death, +1 per Chalice."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["chalice", "hat", "pardon"], "doll",
                        rules=("double_wages",))
    s = play(s, (0, Chop(seat=1)), (0, Stop()))
    assert s.crowns[0] == 5 + 2 + 1


def test_bloodlust_lapses_when_nobody_is_left() -> None:
    """CAD-12: fewer eligible prisoners than the minimum: the phase ends by itself as a safe stop."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["shield", "hat", "doll"], "pardon",
                        rules=("bloodlust",))
    s = play(s, (0, Chop(seat=2)))
    assert s.round.ending is None and ENGINE.legal_actions(s, 0) == [Chop(seat=1), Chop(seat=3)]
    s = play(s, (0, Chop(seat=1)))  # the Shield passes the axe to seat 3 (the only candidate): Doll
    assert s.round.ending == "safe" and s.round.deaths == 2


def test_open_trial_reveals_escaped_roles_too() -> None:
    """CAD-13: every executed prisoner's role is revealed, whether they die or escape."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["doll", "hat", "pardon"], "shield",
                        rules=("open_trial",))
    s = play(s, (0, Chop(seat=1)))
    assert s.round.shown_roles == [None, "loyalist", None, None]


def test_blunt_axe_test_cut_has_no_effect_but_counts_for_the_minimum_and_the_parasite() -> None:
    """CAD-14: the first execution only shows the card (a Mimic is not resolved); the target escapes; it
    counts toward the minimum and as executed for the Parasite."""
    s = execution_table(["princess", "saboteur", "loyalist"], ["parasite", "mimic", "hat"], "pardon",
                        rules=("blunt_axe",))
    s = play(s, (0, Chop(seat=2)))
    assert 2 in s.round.escaped and s.round.ending is None and s.round.centre_shown is None
    assert s.round.shown_objects[2] == "mimic" and Stop() in ENGINE.legal_actions(s, 0)
    s = play(s, (0, Chop(seat=3)), (0, Stop()))
    assert 1 in s.round.dead and s.round.ending == "saboteurs"  # the Princess's Parasite


def test_blunt_axe_on_the_shield_holder_passes_no_axe() -> None:
    """CAD-14: no object effect on a test cut (no Shield)."""
    s = execution_table(["loyalist", "saboteur", "loyalist"], ["shield", "hat", "pardon"], "doll",
                        rules=("blunt_axe",))
    s = play(s, (0, Chop(seat=1)))
    assert s.round.phase == "execute" and s.round.executed == [1] and s.round.dead == []


def test_choices_never_name_the_executioner() -> None:
    """RB §2: "choose a player" never allows the Executioner."""
    s = play(drawn("smuggler"), (2, Draw()))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(s, 2, ChoosePrisoner(seat=2))
    assert err.value.code == "verdugo.not_a_prisoner"
    assert CENTRE not in [getattr(a, "seat", None) for a in ENGINE.legal_actions(s, 2)]
