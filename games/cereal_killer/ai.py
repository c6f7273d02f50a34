"""Computer players for Cereal Killer: a Killer that meets its calendar and keeps away from the hunters, and hunters
that track the Killer's possible spaces (:mod:`games.cereal_killer.belief`) and arrest when they are few.

Each policy reads only its seat's view and legal actions (:mod:`games.core.ai`); ties are broken with the given
``rng``. Rulebook "The Killer", "The Detective", "Lola, the Police Dog"; calendar from the edition file.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.cereal_killer.belief import (
    answer_fits,
    bark_fits,
    distances,
    geo_of_view,
    killer_routes,
    possible_spaces,
    public_part,
    sniff_fits,
    walks_from,
)
from games.cereal_killer.board import Geometry
from games.cereal_killer.models import CALENDAR, DETECTIVE, LOLA, ChooseAnswer, KillerTurn
from games.core.ai import Policy, register_policy


def _best(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    """The action of the highest score, ties broken by ``rng``."""
    top = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score >= top - 1e-9])


def _expected_left(groups: Mapping[str, set[int]], size: int) -> float:
    """Expected number of spaces left after an answer that splits ``size`` spaces into ``groups`` (a space
    in several groups: the Killer picks, counted in each)."""
    return sum(len(group) ** 2 for group in groups.values()) / max(size, 1)


# ---------------------------------------------------------------- the Killer

class KillerPolicy:
    """Walks where the hunters' picture of it stays widest, away from them, near Houses still free, and claims a
    victim whenever the calendar needs one (every objective's slack counted) or it costs little."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        if isinstance(legal[0], ChooseAnswer):
            return self._answer(view, legal, rng)
        return self._route(view, [a for a in legal if isinstance(a, KillerTurn)], rng)

    @staticmethod
    def _answer(view: dict[str, Any], legal: Sequence[ChooseAnswer], rng: random.Random) -> Any:
        """The true answer that leaves the hunters the most spaces to search."""
        public, pending = public_part(view), view["pending"]
        scored = []
        for option in legal:
            if pending["kind"] == "question":
                clue = {"answer": {"day": view["day"], "question": pending["question"], "witness": view["witness"],
                                   "answer": option.answer}}
            else:
                clue = {"lola": {"day": view["day"], "ability": "sniff", "space": view["pending_reference"],
                                 "answer": option.answer, "at": view["lola"]}}
            scored.append((len(possible_spaces(public, extra=clue)), option))
        return _best(scored, rng)

    def _route(self, view: dict[str, Any], legal: list[KillerTurn], rng: random.Random) -> Any:
        geo = geo_of_view(view)
        public = public_part(view)
        before = tuple(sorted(possible_spaces(public))) if view["history"] else geo.of_kind("H")
        used = {v["space"] for v in view["victims"]}
        slack = self._slack(view)
        hunters = [(s, distances(geo, transit=seat == DETECTIVE)) for seat, s in
                   ((DETECTIVE, view["detective"]), (LOLA, view["lola"])) if s is not None]
        spread: dict[tuple[int | None, int | None], set[int]] = {}
        scored = []
        for turn in legal:
            end = turn.path[-1]
            key = (turn.victim, turn.witness)
            if key not in spread:
                spread[key] = self._spread(view, geo, before, turn)
            score = 2.0 * math.log2(max(len(spread[key]), 1))
            score += sum(min(dist[hunter].get(end, 9), 6) for hunter, dist in hunters)
            free = {h for h in geo.of_kind("H") if h not in used and h != turn.victim}
            near = sum(1 for h in free if distances(geo, transit=True)[end].get(h, 9) <= 3)
            score += 0.5 * min(near, 4)
            if turn.victim is not None:
                score += 100.0 if slack <= 0 else 6.0 / slack
            scored.append((score, turn))
        return _best(scored, rng)

    @staticmethod
    def _slack(view: dict[str, Any]) -> int:
        """Days to spare before the tightest calendar objective still ahead (0: a victim is needed today)."""
        have, day = len(view["victims"]), view["day"]
        return min(((due - day + 1) - (needed - have) for due, needed in CALENDAR[view["players"]].items()
                    if due >= day and needed > have), default=99)

    @staticmethod
    def _spread(view: dict[str, Any], geo: Geometry, before: tuple[int, ...], turn: KillerTurn) -> set[int]:
        """Where the hunters would think the Killer may be after ``turn`` (its victim and Witness are public)."""
        blocked = {s for s in (view["detective"], view["lola"]) if s is not None}
        out = set()
        for start in before:
            for path in walks_from(geo, start):
                if blocked.intersection(path) or path[-1] == turn.witness:
                    continue
                if turn.victim is None or turn.victim == start or turn.victim in path:
                    out.add(path[-1])
        return out


# ---------------------------------------------------------------- the hunters

class HunterPolicy:
    """The Detective or Lola: narrow the Killer's possible spaces, then arrest (or Bite) when few remain."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        kinds = {action.type: [] for action in legal}
        for action in legal:
            kinds[action.type].append(action)
        geo = geo_of_view(view)
        routes = killer_routes(view)
        possible = set(routes) or set(geo.spaces)
        if "place_detective" in kinds:
            dist = distances(geo, transit=True)
            return _best([(-_mean(dist[a.space], possible), a) for a in kinds["place_detective"]], rng)
        seat = view["turn"]["seat"]
        here = view["detective"] if seat == DETECTIVE else view["lola"]
        dist = distances(geo, transit=seat == DETECTIVE)
        attempt = kinds.get("arrest") or kinds.get("bite") or []
        catch = [a for a in attempt if a.space in possible]
        if catch and self._dare(view, len(possible)):
            return rng.choice(catch)
        probe = self._probe(view, geo, routes, possible, kinds, here)
        if probe is not None:
            return probe
        moves = kinds.get("move", [])
        if moves:
            target = self._target(view, geo, possible, seat)
            now = self._place_score(geo, dist, here, possible, target)
            scored = [(self._place_score(geo, dist, m.path[0], possible, target), m) for m in moves]
            if max(score for score, _ in scored) > now + 1e-9:
                return _best(scored, rng)
        if catch and self._last_chance(view):
            return rng.choice(catch)
        return kinds["end_turn"][0]

    @staticmethod
    def _dare(view: dict[str, Any], count: int) -> bool:
        """Whether an attempt on one of ``count`` equally likely spaces is worth one of the arrests left."""
        left = view["arrests_left"]
        return count <= 1 or count <= 2 and left >= 2 or count <= 3 and left >= 3 or (
            view["day"] == view["days"] and view["phase"] == "detective" and count <= 2 * left)

    @staticmethod
    def _last_chance(view: dict[str, Any]) -> bool:
        return view["day"] == view["days"] and view["phase"] == "detective"

    @staticmethod
    def _probe(view: dict[str, Any], geo: Geometry, routes: dict[int, list[frozenset[int]]], possible: set[int],
               kinds: dict[str, list[Any]], here: int) -> Any | None:
        """The most telling question or ability available now, if it narrows the search at all."""
        size, options = len(possible), []
        for ask in kinds.get("ask", []):
            groups: dict[str, set[int]] = {}
            for space in possible:
                for answer in _answers(ask.question):
                    if answer_fits(geo, ask.question, view["witness"], answer, space):
                        groups.setdefault(answer, set()).add(space)
            options.append((_expected_left(groups, size), ask))
        for sniff in kinds.get("sniff", []):
            groups = {}
            for end, end_routes in routes.items():
                for answer in ("no", "here", "north", "south", "east", "west"):
                    if any(sniff_fits(geo, sniff.space, answer, route, end) for route in end_routes):
                        groups.setdefault(answer, set()).add(end)
            options.append((_expected_left(groups, size), sniff))
        for bark in kinds.get("bark", []):
            groups = {}
            for space in possible:
                groups.setdefault("yes" if bark_fits(geo, here, "yes", space) else "no", set()).add(space)
            options.append((_expected_left(groups, size) + 0.5, bark))
        if not options:
            return None
        left, action = min(options, key=lambda item: (item[0], str(item[1])))
        return action if left < size - 0.25 else None

    @staticmethod
    def _target(view: dict[str, Any], geo: Geometry, possible: set[int], seat: int) -> set[int]:
        """Where to head: the Witness's reach while a question is worth asking there, else the possible spaces."""
        turn = view["turn"]
        if seat == DETECTIVE and view["witness"] is not None and not turn["asked"] and view["questions_left"] \
                and len(possible) > 1:
            reach = {view["witness"], *geo.neighbours(view["witness"])}
            dist = distances(geo, transit=True)
            if min(dist[view["detective"]].get(s, 99) for s in reach) <= turn["steps_left"]:
                return reach
        return possible

    @staticmethod
    def _place_score(geo: Geometry, dist: dict[int, dict[int, int]], space: int, possible: set[int],
                     target: set[int]) -> float:
        """Higher is better: close to ``target``, with many possible spaces within arrest reach."""
        within = len(possible.intersection((space, *geo.neighbours(space))))
        return -_mean(dist[space], target) + 2.0 * within / max(len(possible), 1)


def _mean(dist: Mapping[int, int], spaces: set[int]) -> float:
    return sum(dist.get(s, 20) for s in spaces) / max(len(spaces), 1)


def _answers(question: str) -> tuple[str, ...]:
    return {"direction": ("north", "south", "east", "west", "here"), "parity": ("even", "odd"),
            "zone": ("city", "suburbs")}.get(question, ("yes", "no"))


class CerealPolicy(Policy):
    """The seat's role decides: seat 0 the Killer, seats 1 and 2 the hunters."""

    killer = KillerPolicy()
    hunter = HunterPolicy()

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        is_killer = "killer_space" in view
        return (self.killer if is_killer else self.hunter).choose(view, legal, rng)


POLICY = register_policy("cereal_killer", CerealPolicy())
