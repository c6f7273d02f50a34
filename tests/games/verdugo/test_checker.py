"""The independent rules checker (``tests/games/verdugo/checker``) against the edition's unit cases, and the engine
against the checker: seeded random legal matches at every player count, every step compared (state, legal
actions, awaited seat, timeout move, events, views), with illegal actions the checker refuses tried on the way.

The larger run is ``.venv/bin/python -m tests.bench.bench_verdugo_checker``."""

from __future__ import annotations

import pytest

from games.core import Event
from tests.games.verdugo.checker import checks, compare, model
from tests.games.verdugo.checker.table import CENTRE, Table, clone


def table(roles: list[str], objects: list[str], centre: str, crowns: list[int], *, variant: bool = False) -> Table:
    """Executioner in seat 0, prisoners 1.. in the Execution phase (edition §11.4: independent tables)."""
    n = len(roles) + 1
    return Table(n=n, match="open", variant=variant, crowns=list(crowns), executioner=0, phase="execute",
                 roles=dict(enumerate(roles, start=1)), objects=dict(enumerate(objects, start=1)) | {CENTRE: centre},
                 drawn=["riot", "riot"])


def test_checker_u1_jester_with_pardon_and_a_broke_saboteur() -> None:
    t = table(["jester", "saboteur", "loyalist"], ["pardon", "hat", "hat"], "doll", [5, 5, 0, 5])
    model.step(t, 0, ("chop", 1))
    assert t.crowns == [3, 8, 3, 4] and t.treasury() == 62 and t.stage == "successor"


def test_checker_u3_rulebook_example_2() -> None:
    t = table(["loyalist", "loyalist", "saboteur"], ["shield", "doll", "pardon"], "pardon", [5] * 4)
    model.step(t, 0, ("chop", 1))
    assert t.phase == "shield" and sorted(t.candidates) == [2, 3]
    model.step(t, 1, ("chop", 2))
    assert t.deaths == 1 and ("stop",) in model.legal(t, 0)
    model.step(t, 0, ("stop",))
    assert t.crowns == [6, 6, 6, 5]


def test_checker_u5_shield_executes_a_pardon() -> None:
    t = table(["loyalist", "loyalist", "saboteur", "saboteur"], ["shield", "pardon", "hat", "chalice"], "doll",
              [5] * 5)
    model.step(t, 0, ("chop", 1))
    model.step(t, 1, ("chop", 2))
    assert t.crowns == [4, 5, 4, 8, 8] and t.treasury() == 51


def test_checker_u6_treasury_empties() -> None:
    t = table(["saboteur", "loyalist", "loyalist", "loyalist"], ["hat", "doll", "pardon", "hat"], "shield",
              [20, 20, 20, 10, 9])
    model.step(t, 0, ("chop", 1))
    model.step(t, 0, ("chop", 2))
    model.step(t, 0, ("stop",))
    assert t.crowns == [22, 19, 20, 10, 9] and (t.stage, t.end_reason) == ("over", "treasury_empty")


def test_checker_u8_bloodlust_with_a_shield() -> None:
    t = table(["loyalist", "loyalist", "saboteur", "saboteur"], ["shield", "hat", "pardon", "chalice"], "doll",
              [5] * 5)
    t.rules.add("bloodlust")
    model.step(t, 0, ("chop", 1))
    model.step(t, 1, ("chop", 2))
    assert t.own == 1 and model.legal(t, 0) == {("chop", 3), ("chop", 4)}


@pytest.mark.parametrize("players", range(4, 9))
def test_engine_agrees_with_the_checker(players: int) -> None:
    reports = [compare.play(players, seed=players, match="tour")] + [
        compare.play(players, seed=100 * k + players, match="open", variant=True, stress=True, probes=False)
        for k in range(1, 4)]
    problems = [p for r in reports for p in r.problems]
    assert problems == []
    assert reports[0].seen["verdugo.over.tour_complete"] == 1 and reports[0].illegal_tried > 0
    assert all(r.steps > 5 for r in reports)


def test_the_comparison_sees_a_wrong_engine_state() -> None:
    """The harness can fail: a Crown moved, an object moved, a card named in a public line."""
    from games.core import SeatInfo
    from games.verdugo import ENGINE, VerdugoOptions

    s = ENGINE.setup(VerdugoOptions(match="open", first_executioner=0), [SeatInfo(names=(f"p{i}",))
                                                                           for i in range(5)], 3)
    t = compare.new_table(s)
    compare.sync_round(t, s)
    assert checks.compare(t, s, "x") == []
    bad = s.model_copy(deep=True)
    bad.crowns[1] += 1
    assert any("crowns" in e for e in checks.compare(t, bad, "x"))
    bad = s.model_copy(deep=True)
    a, b = next((a, b) for a in range(1, 5) for b in range(a + 1, 5) if s.round.objects[a] != s.round.objects[b])
    bad.round.objects[a], bad.round.objects[b] = bad.round.objects[b], bad.round.objects[a]
    assert any("objects" in e for e in checks.compare(t, bad, "x"))
    leak = Event(key="verdugo.action.peek", params={"seat": 1, "position": 2, "card": "pardon"})
    assert checks.check_events(clone(t), t, [leak], "x")
