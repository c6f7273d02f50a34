"""The Step-2 play builder (issue 21): every legal play is reachable through panels that fit Discord (25 options,
100-character ids), in both languages: the card, its other target, its Victims, their order."""

from __future__ import annotations

from itertools import permutations

import pytest

from bot.budget import CUSTOM_ID, size
from bot.cogs.lets_kill import builder, render
from bot.cogs.lets_kill.builder import Panel, Partial
from bot.cogs.lets_kill.ui import LetsKillUI
from games.lets_kill.engine import ENGINE
from games.lets_kill.models import Pending, PlayCard
from tests.bot.lets_kill.test_ui import ctx_of
from tests.games.lets_kill.support import ready

CROWD = ["V05", "V06", "V07", "V08", "V09", "V10", "V11", "V12", "V13", "V14", "V15", "V16"]
WORDS = {"en": ("Nobody (just play it)", "choose the order"), "es": ("Nadie (solo jugarla)", "elige el orden")}


def decoded(value: str) -> list[str]:
    return [f"V{v}" for v in value.split(",") if v]


def answer(ctx, state, legal, panel: Panel, values: list[str]):  # type: ignore[no-untyped-def]
    return builder.step(ctx, state, legal, builder.advance(Partial.decode(panel.arg), panel.name, values))


@pytest.mark.parametrize("language", ["en", "es"])
def test_free_samples_is_built_destination_victims_then_arrival_order(language: str) -> None:
    state = ready([["E05", "W09"], [], []], town=CROWD, locations={"L08": [], "L09": []})
    ctx, legal = ctx_of(state, language), ENGINE.legal_actions(state, 0)
    cards = builder.card_panel(ctx, legal)
    assert [o.value for o in cards.options] == ["E05", "W09", "!" + str(len(legal) - 1)]  # and throw the hand away
    where = builder.step(ctx, state, legal, Partial(card="E05"))
    assert isinstance(where, Panel) and where.name == "tgt"
    assert [o.value for o in where.options] == ["location=", "location=L08", "location=L09"]
    assert where.options[0].label == WORDS[language][0]
    who = answer(ctx, state, legal, where, ["location=L08"])
    assert isinstance(who, Panel) and who.name == "vic" and (who.min_values, who.max_values) == (1, 3)
    assert len(who.options) == 12  # more sets than a select holds, so each Victim once (Mimi stays in town)
    assert who.placeholder == ctx.t("lets_kill.ui.pick_victims", card="Free Samples")
    order = answer(ctx, state, legal, who, ["V16", "V05", "V11"])
    assert isinstance(order, Panel) and order.name == "ord" and len(order.options) == 6
    assert WORDS[language][1] in order.placeholder
    picked = next(o for o in order.options if o.value == "16,05,11,")
    assert picked.label == " → ".join(render.card_name(v) for v in ["V16", "V05", "V11"])
    done = answer(ctx, state, legal, order, [picked.value])
    assert done == PlayCard(card="E05", victims=["V16", "V05", "V11"], location="L08")
    nobody = answer(ctx, state, legal, where, ["location="])
    assert nobody == PlayCard(card="E05")


def test_a_seven_victim_declaration_is_ordered_one_at_a_time_then_at_once() -> None:
    """The Grenade Launcher at the Fireworks Warehouse must take all seven Victims (§9.8): the set, then the order
    (more than 4: who comes next, one at a time, until four are left, whose 24 orders fit one select)."""
    crowd = ["V05", "V06", "V07", "V08", "V10", "V11", "V12"]
    state = ready([["W10"], [], []], locations={"L08": crowd}, town=["V13"])
    ctx, legal = ctx_of(state), ENGINE.legal_actions(state, 0)
    sets = {frozenset(a.victims) for a in legal if isinstance(a, PlayCard)}
    target = ["V12", "V11", "V10", "V08", "V07", "V06", "V05"]
    assert frozenset(target) in sets  # all seven: the Launcher's declaration is maximal (§9.8)
    panel = builder.step(ctx, state, legal, Partial(card="W10"))
    assert isinstance(panel, Panel) and panel.name == "vic" and panel.max_values == 1
    panel = answer(ctx, state, legal, panel, [next(o.value for o in panel.options
                                                   if {f"V{v}" for v in o.value.split(",") if v} == set(target))])
    steps = 0
    while isinstance(panel, Panel):
        assert panel.name == "ord" and len(panel.options) <= 25
        assert size(f"coroner:s:99999:99999:ord:{panel.arg}") <= CUSTOM_ID
        value = next(o.value for o in panel.options if (order := decoded(o.value)) == target[:len(order)])
        panel, steps = answer(ctx, state, legal, panel, [value]), steps + 1
    assert panel == PlayCard(card="W10", victims=target) and steps == 4  # 3 one at a time, then the last 4
    assert ENGINE.apply(state, 0, panel).state.whacking.targets == target  # type: ignore[union-attr]


def test_every_order_of_a_set_is_offered() -> None:
    """Three Victims: all six orders in one select."""
    partial = Partial(card="W09", victims=("V05", "V06", "V07"))
    state = ready([["W09"], [], []], locations={"L08": ["V05", "V06", "V07"]})
    panel = builder.step(ctx_of(state), state, ENGINE.legal_actions(state, 0), partial)
    assert isinstance(panel, Panel)
    orders = permutations(["V05", "V06", "V07"])
    assert {o.value for o in panel.options} == {",".join(v[1:] for v in p) + "," for p in orders}


def test_a_partial_play_round_trips_and_refuses_what_no_panel_drew() -> None:
    partial = Partial(card="E05", location="L08", incident=None, victims=("V05", "V16"), order=("V16",))
    assert Partial.decode(partial.encode()) == partial
    for bad in ("", "X99/*/*/*/*/*/", "W09/*/x/*/*/*/", "W09/*/*/*/*/99/"):
        with pytest.raises(Exception, match="bad_choice"):
            Partial.decode(bad)


def test_a_pledge_with_more_combinations_than_a_select_holds_is_a_multi_select() -> None:
    """Five Guns: 32 pledges; the Guns are picked in one multi-select (the engine checks the total)."""
    state = ready([["W01", "W02", "W03", "W04", "W05"], [], []])
    state.pending = Pending(kind="pledge", seat=0)
    item = LetsKillUI._cards_select(ctx_of(state), ctx_of(state).table, 0, state.pending)
    select = item.item  # type: ignore[attr-defined]
    assert [o.value for o in select.options] == ["W01", "W02", "W03", "W04", "W05"]
    assert (select.min_values, select.max_values) == (1, 5)
