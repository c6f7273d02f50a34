"""Computer players for Asesino en Serie: each seat follows its side's goal from its own view (:mod:`games.core.ai`).

The Killer's side (Killer, Accomplice) wants murders: it piles Bad cards (the Killer card kills alone) on the same
good players and reveals the destinies most likely to kill. The good side wants the Killer caught or murdered and
nobody else killed: it puts Bad cards and the Detective on the players it suspects most (whose plays turned out Bad
when a destiny was shown) and Good cards where a murder threatens. Rulebook "Game Setup", "Destiny" and the
edition rulings in ``games/asesino/README.md``; questions nobody's goal decides (direction, order, swaps) are any
legal answer.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.asesino.common import BAD_CARDS, side_of
from games.asesino.small.models import PlayCard, ProsecutorSwap, Reveal
from games.asesino.social.ai import ai_plays
from games.asesino.tabletop.models import Accuse, Declare
from games.core.ai import Policy, register_policy

#: what a computer player writes where the rules ask for free text (a statement, last words, a letter, a clue, a
#: post): no name, no time, no place, in both of the bot's languages
WORDS = "I trust nobody here. / No me fío de nadie."
#: cards that make a murder more likely where they land (the Killer card counts twice: it kills alone)
HARM: dict[str, float] = {"bad": 1.0, "accomplice": 1.0, "killer": 2.0, "doctor": -1.0}


def _pick(scored: Iterable[tuple[float, Any]], rng: random.Random) -> Any:
    scored = list(scored)
    top = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score >= top - 1e-9])


# ---------------------------------------------------------------- tabletop (5-10)

def _suspicion(view: dict[str, Any]) -> dict[int, float]:
    """Per seat, how many Bad cards its plays seem to have held: each resolved destiny's Bad cards (less this
    seat's own) shared among the other players who played there."""
    me = view["seat"]
    mine = {(p["target"], p["position"]): p["card"] for p in view["my_plays"]}
    out = {seat["seat"]: 0.0 for seat in view["seats"]}
    for seat in view["seats"]:
        if not seat["revealed"]:
            continue
        bads = sum(card in BAD_CARDS for card in seat["revealed"])
        bads -= sum(card in BAD_CARDS for (target, _), card in mine.items() if target == seat["seat"])
        others = [played["by"] for played in seat["front"] if played["by"] != me]
        for by in others:
            out[by] += max(bads, 0) / len(others)
    return out


class TabletopPolicy(Policy):
    """See the module docstring."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        first = legal[0]
        evil = side_of(view["role"]) == "evil"
        suspicion = _suspicion(view)
        if isinstance(first, Accuse):
            return _pick(((suspicion.get(a.target, 0.0) - (view["seats"][a.target]["murdered"]), a) for a in legal),
                         rng)
        if not isinstance(first, Declare):
            choice = rng.choice(list(legal))
            return choice.model_copy(update={"text": WORDS}) if hasattr(choice, "text") else choice
        seats = view["seats"]
        partner = view["partner"]
        scored = []
        for action in legal:
            target, harm = seats[action.target], HARM.get(action.card, 0.0)
            load = sum(HARM.get(p["card"], 0.0) for p in view["my_plays"] if p["target"] == action.target)
            if evil:
                score = -10.0 if action.target == partner else harm * (1.0 + target["cards_in_front"] + load)
            elif action.card == "detective" or harm > 0:
                score = suspicion.get(action.target, 0.0) * (1 + harm) - 0.1 * load
            else:
                score = target["cards_in_front"] + load - suspicion.get(action.target, 0.0)
            scored.append((score, action))
        return _pick(scored, rng)


# ---------------------------------------------------------------- two to four players

#: the chance that an unknown card is Bad, by what its player declared (``None``: dealt face down at setup), and
#: that a card still to come is
PRIOR_BAD: dict[str | None, float] = {"bad": 0.8, "good": 0.3, None: 0.45}
TO_COME = 0.45
#: the Killer's side reveals a sealed column before playing on when it kills at least this likely
REVEAL_AT = 0.4


def _murder(view: dict[str, Any], column: dict[str, Any], card: str | None = None) -> float:
    """The chance that ``column`` (with ``card`` added) kills when revealed: the Killer card kills; else two Bad
    cards after the Doctor cancels one. Known cards are this seat's own and the face-up ones; each unknown card
    is Bad with :data:`PRIOR_BAD` by its declaration, each open slot with :data:`TO_COME`."""
    mine = {(c["column"], c["index"]): c["card"] for c in view["my_cards"]}
    known = [slot["card"] or mine.get((column["column"], i)) for i, slot in enumerate(column["slots"])]
    chances = [PRIOR_BAD[slot["declared"]] for slot, k in zip(column["slots"], known, strict=True) if k is None]
    known = [k for k in known if k is not None] + ([card] if card is not None else [])
    if "killer" in known:
        return 1.0
    chances += [TO_COME] * (3 - len(column["slots"]) - (card is not None))
    bad = sum(k in BAD_CARDS for k in known) - ("doctor" in known)
    spread = {bad: 1.0}  # the number of Bad cards -> its chance
    for chance in chances:
        grown: dict[int, float] = {}
        for count, p in spread.items():
            grown[count + 1] = grown.get(count + 1, 0.0) + p * chance
            grown[count] = grown.get(count, 0.0) + p * (1 - chance)
        spread = grown
    return sum(p for count, p in spread.items() if count >= 2)


def _small_suspicion(view: dict[str, Any]) -> dict[int, float]:
    """Per seat, the chance one of its face-down cards is the Killer card: the other seat in a 2-player game;
    else shared by how many Bad cards the revealed columns held beyond this seat's own."""
    me, players = view["seat"], view["players"]
    out = {seat: 1.0 / max(players - 1, 1) for seat in range(players) if seat != me}
    for column in view["columns"]:
        if column["revealed"]:
            others = [slot["by"] for slot in column["slots"] if slot["by"] not in (None, me)]
            bads = sum(slot["card"] in BAD_CARDS for slot in column["slots"] if slot["by"] not in (None, me))
            for by in others:
                out[by] += bads / len(others)
    return out


def _expected_murders(view: dict[str, Any]) -> float:
    """The expected murders of the columns not revealed yet, as :func:`_murder` sees them."""
    return sum(_murder(view, column) for column in view["columns"] if not column["revealed"])


def _swapped(view: dict[str, Any], a: Any, b: Any) -> dict[str, Any]:
    """``view`` with the face-down cards at :class:`CardRef` ``a`` and ``b`` exchanged (what this seat knows of
    them moves along; each keeps its declaration: ruling 16)."""
    columns = copy.deepcopy(view["columns"])
    first, second = columns[a.column]["slots"][a.index], columns[b.column]["slots"][b.index]
    for key in ("card", "by", "declared"):
        first[key], second[key] = second[key], first[key]
    where = {(a.column, a.index): (b.column, b.index), (b.column, b.index): (a.column, a.index)}
    mine = []
    for card in view["my_cards"]:
        column, index = where.get((card["column"], card["index"]), (card["column"], card["index"]))
        mine.append({"column": column, "index": index, "card": card["card"]})
    return view | {"columns": columns, "my_cards": mine}


def _detective_risk(view: dict[str, Any], column: dict[str, Any]) -> int:
    """How many cards of ``column`` could be the Detective card once one more card joins it: those other players
    played face down (the cards dealt at setup never are: the Detective is an identity) and the slots left open."""
    unknown = sum(1 for slot in column["slots"] if slot["card"] is None and slot["by"] not in (None, view["seat"]))
    seen = any(slot["card"] == "detective" for slot in column["slots"])
    return unknown + max(0, 2 - len(column["slots"])) + (9 if seen else 0)


class SmallPolicy(Policy):
    """See the module docstring: every card goes where it moves the columns' murder chances its side's way; the
    Detective card joins the cards of the player most likely to be the Killer."""

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        evil = side_of(view["identity"]) == "evil"
        sign = 1.0 if evil else -1.0
        if isinstance(legal[0], ProsecutorSwap):
            return _pick(((sign * _expected_murders(_swapped(view, *a.slots) if a.slots else view), a)
                          for a in legal), rng)
        plays = [a for a in legal if isinstance(a, PlayCard)]
        reveals = [a for a in legal if isinstance(a, Reveal)]
        if not plays and not reveals:
            return rng.choice(list(legal))
        columns = view["columns"]
        if reveals:
            best = _pick(((sign * _murder(view, columns[a.column]), a) for a in reveals), rng)
            if not plays or evil and _murder(view, columns[best.column]) >= REVEAL_AT:
                return best
        suspicion = _small_suspicion(view)
        scored = []
        for action in plays:
            column = columns[action.column]
            change = _murder(view, column, action.card) - _murder(view, column)
            if action.card == "killer":  # kills alone unless the Detective card is or comes in its column
                change -= 0.4 * _detective_risk(view, column)
            score = sign * change
            if action.card == "detective" and not evil:
                score = sum(suspicion.get(slot["by"], 0.0) for slot in column["slots"] if slot["card"] is None)
            honest = (action.declared == "bad") == (action.card in BAD_CARDS)
            scored.append((score + (0.01 if honest != evil else 0.0), action))
        return _pick(scored, rng)


# ---------------------------------------------------------------- social (6-12)

class SocialPolicy(Policy):
    """Killers strike and recruit and never judge each other; the others inspect, protect, and open or back
    judgements against whoever they have found or suspect. Free text is :data:`WORDS`."""

    def at_table(self, action: Any) -> bool:
        """Ruling 30 (games/asesino/README.md): at a real table a computer player makes only quiet moves."""
        return ai_plays(action)

    def choose(self, view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        me = view["me"]
        evil = "partner" in me
        friends = {me["seat"], me.get("partner")}
        inspected = {i["target"]: i["card"] for i in me.get("inspections", [])}
        found = {target for target, card in inspected.items() if card == "killer"}
        shown = {s["seat"] for s in view["seats"] if s["shown_card"] is not None}
        accused = {j["id"]: j["accused"] for j in view["judgements"]}
        scored = []
        for action in legal:
            kind, score = action.type, 0.0
            target = getattr(action, "target", None)
            if kind in ("crime", "recruit"):
                score = 3.0 if getattr(action, "victim", target) not in friends else -9.0
            elif kind in ("open_judgement", "back_judgement"):
                who = action.accused if kind == "open_judgement" else accused.get(action.judgement)
                if evil:
                    score = -9.0 if who in friends else (1.0 if kind == "back_judgement" else -1.0)
                else:  # judging an innocent costs the accusers a voice: open only on proof, back any
                    score = 5.0 if who in found else (1.0 if kind == "back_judgement" else -3.0)
                    score -= 9.0 if who in shown else 0.0
            elif kind in ("inspect", "protect", "interview"):
                score = 2.0 if target != me["seat"] and target not in inspected else -1.0
            elif kind == "maniac_kill":  # a blind kill may hit the Killer: the accusers' best chance in a fast game
                score = 5.0 if target in found else 1.0
            elif hasattr(action, "text"):
                score = -2.0
            scored.append((score, action))
        choice = _pick(scored, rng)
        if hasattr(choice, "text"):
            choice = choice.model_copy(update={"text": WORDS})
        return choice


TABLETOP = register_policy("asesino", TabletopPolicy(), mode="tabletop")
SMALL = register_policy("asesino", SmallPolicy(), mode="small")
SOCIAL = register_policy("asesino", SocialPolicy(), mode="social")
