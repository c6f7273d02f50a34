"""The hunters' rules: walking with the Cafe / Food bonus, reach, and the answers the Killer owes them.

Rulebook "The Detective" and "Lola, the Police Dog"; edition rulings on the bonus step (+1 the first time in a
turn a hunter enters a Cafe (Detective) / the Food (Lola) other than the space it started the turn on) and on
direction answers (the Killer's current space against the reference space; two true directions: its choice).
"""

from __future__ import annotations

from typing import NamedTuple

from games.cereal_killer.board import INDOORS, Geometry
from games.cereal_killer.models import DETECTIVE, LOLA, CerealState, HunterTurn
from games.core import IllegalAction

#: the space kind that grants each hunter its bonus step
BONUS_KIND: dict[int, str] = {DETECTIVE: "C", LOLA: "F"}


class Walked(NamedTuple):
    end: int
    steps_left: int
    bonus: bool  # the bonus step was gained on this walk
    rode: bool  # an Underground / Train hop was used


def position(state: CerealState, seat: int) -> int | None:
    return state.detective if seat == DETECTIVE else state.lola


def check_hunter_path(state: CerealState, geo: Geometry, turn: HunterTurn, path: list[int]) -> Walked:
    """Walk ``path`` for the hunter of ``turn``. Raises ``cereal_killer.``: ``too_many_steps`` (steps, left, count),
    ``not_a_space`` (space, last), ``not_adjacent`` (a, b), ``lola_no_transit`` (a, b)."""
    here = position(state, turn.seat)
    assert here is not None
    left, bonus_used, bonus, rode = turn.steps_left, turn.bonus_used, False, False
    for step in path:
        if left == 0:
            raise IllegalAction("cereal_killer.too_many_steps", steps=len(path), left=turn.steps_left,
                                    count=len(path))
        if not geo.is_space(step):
            raise IllegalAction("cereal_killer.not_a_space", space=step, last=geo.spaces[-1])
        if step not in geo.neighbours(here):
            if step not in geo.steps_from(here, transit=True):
                raise IllegalAction("cereal_killer.not_adjacent", a=here, b=step)
            if turn.seat == LOLA:
                raise IllegalAction("cereal_killer.lola_no_transit", a=here, b=step)
            rode = True
        here, left = step, left - 1
        if not bonus_used and geo.kind(step) == BONUS_KIND[turn.seat] and step != turn.start:
            bonus_used, bonus, left = True, True, left + 1
    return Walked(here, left, bonus, rode)


def next_steps(state: CerealState, geo: Geometry, turn: HunterTurn) -> list[int]:
    """Spaces the acting hunter may step to now (for ``legal_actions``)."""
    here = position(state, turn.seat)
    if here is None or turn.steps_left == 0:
        return []
    return list(geo.steps_from(here, transit=turn.seat == DETECTIVE))


def reach(geo: Geometry, space: int) -> list[int]:
    """A hunter's own space and its orthogonal neighbours (arrest, Bite, Sniff, questioning a Witness)."""
    return sorted([space, *geo.neighbours(space)])


def question_options(state: CerealState, geo: Geometry, question: str) -> list[str]:
    """The true answers to ``question`` about the Witness (two only for a diagonal ``direction``)."""
    killer, witness = state.killer, state.witness
    assert killer is not None and witness is not None
    if question == "direction":
        return geo.directions(witness, killer)
    if question == "same_row":
        return ["yes" if geo.row(killer) == geo.row(witness) else "no"]
    if question == "same_column":
        return ["yes" if geo.column(killer) == geo.column(witness) else "no"]
    if question == "indoors":
        return ["yes" if geo.kind(killer) in INDOORS else "no"]
    if question == "parity":
        return ["even" if killer % 2 == 0 else "odd"]
    return [geo.zone(killer)]


def sniff_options(state: CerealState, geo: Geometry, space: int) -> list[str]:
    """Sniff: ``no`` if the Killer's route this day missed ``space``; ``here`` if it stands there; else the
    true direction(s) of its space seen from ``space``."""
    assert state.killer is not None
    if space not in state.routes[-1]:
        return ["no"]
    return geo.directions(space, state.killer)


def bark_answer(state: CerealState, geo: Geometry) -> str:
    """Bark: ``yes`` when the Killer is on Lola's space or one of the 8 around it."""
    assert state.killer is not None and state.lola is not None
    return "yes" if state.killer == state.lola or state.killer in geo.around(state.lola) else "no"
