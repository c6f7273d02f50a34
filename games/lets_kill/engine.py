"""The Let's Kill! engine (RB + card edition v1.1): setup, decisions, views and the end of the game.

Every decision is one pending question (``state.pending``): a Victim's Location, the Step-2 play, a response
window (every other player answers once, sealed; the bot's clock closes it), a shootout pledge, a Stakeout discard,
an owner's discard, or the 20-point declaration. :meth:`LetsKill.timeout_action` answers each one when time is up.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, ClassVar

from pydantic import BaseModel

from games.core import (
    SYSTEM_SEAT,
    Audience,
    Engine,
    Event,
    Features,
    IllegalAction,
    ModeInfo,
    Outcome,
    SeatInfo,
    Step,
    Waiting,
    rng_for,
)
from games.core.achievements import Moment
from games.core.copying import replace, unchecked
from games.lets_kill import pipeline, plays, rules
from games.lets_kill.achievements import game_facts
from games.lets_kill.cards import CARDS, LETS_KILL_DECK, VICTIMS_DECK
from games.lets_kill.flow import HAND_SIZE, Flow
from games.lets_kill.models import (
    ChooseCards,
    CloseWindow,
    Declare,
    DiscardHand,
    LetsKillAction,
    LetsKillOptions,
    LetsKillState,
    PlaceVictim,
    PlayCard,
    Pledge,
    Respond,
    Task,
)
from games.lets_kill.views import build_view

_STEP = frozenset({"state", "events"})


class LetsKill(Engine[LetsKillState]):
    game: ClassVar[str] = "lets_kill"
    mode: ClassVar[ModeInfo] = ModeInfo(id="classic", min_players=3, max_players=5)
    State = LetsKillState
    Options = LetsKillOptions
    Action: ClassVar[Any] = LetsKillAction
    #: a response window closes on the game's own clock (its time limit, LK-19)
    features: ClassVar[Features] = Features(timeouts=True, ai=True, clock_actions=frozenset({"close_window"}),
                                            system_only="core.not_your_turn")

    # ------------------------------------------------------------ setup (RB "Set Up", LK-01, §9.7, §9.15)
    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> LetsKillState:
        """Raises ``core.bad_player_count`` unless 3 to 5 seats and ``lets_kill.bad_first_player`` for a
        ``first_player`` not seated (README ruling 11)."""
        assert isinstance(options, LetsKillOptions)
        players = len(seats)
        if not self.mode.min_players <= players <= self.mode.max_players:
            raise IllegalAction("core.bad_player_count", count=players)
        rng = rng_for(seed, "setup")
        lk_deck, victims_deck = list(LETS_KILL_DECK), list(VICTIMS_DECK)
        rng.shuffle(lk_deck)
        rng.shuffle(victims_deck)
        if options.first_player is not None and options.first_player >= players:
            raise IllegalAction("lets_kill.bad_first_player", seat=options.first_player)
        first = options.first_player if options.first_player is not None else rng.randrange(players)
        order = [(first + k) % players for k in range(players)]
        hands: list[list[str]] = [[] for _ in range(players)]
        for _ in range(HAND_SIZE):
            for seat in order:
                hands[seat].append(lk_deck.pop(0))
        town: list[str] = []
        while len(town) < players:
            card_id = victims_deck.pop(0)
            if CARDS[card_id].type == "location":
                victims_deck.insert(rng.randrange(len(victims_deck) + 1), card_id)
            else:
                town.append(card_id)
        right_of_first = (first - 1) % players
        state = LetsKillState(seed=seed, seats=[s.names[0] if s.names else "" for s in seats], lk_deck=lk_deck,
                              victims_deck=victims_deck, hands=hands, town=town, first=first, active=first,
                              known=[[] for _ in range(players)], skips=[0] * players,
                              placers={v: right_of_first for v in town})
        started = Event(key="lets_kill.started", params={"seat": first, "victims": list(town)})
        state.agenda = [Task(op="turn_start")]
        flow = Flow(state)
        pipeline.run(flow)
        state.opening = [e.model_dump(mode="json") for e in [started, *flow.events] if e.audience.is_public]
        state.hand_sent = [list(hand) for hand in state.hands]  # what intro deals
        return flow.state

    def intro(self, state: LetsKillState) -> list[Event]:
        events = [Event(key="lets_kill.dealt", params={"cards": list(hand)}, audience=Audience.to(seat))
                  for seat, hand in enumerate(state.hands)]
        return [*events, *(Event.model_validate(e) for e in state.opening)]

    # ------------------------------------------------------------ decisions
    def legal_actions(self, state: LetsKillState, seat: int) -> list[Any]:
        pending = state.pending
        if pending is None or state.ended:
            return []
        if pending.kind == "window":
            if seat == SYSTEM_SEAT:
                return [CloseWindow()]
            return plays.legal_responses(state, seat)
        if seat != pending.seat:
            return []
        if pending.kind == "place":
            return [PlaceVictim(location=loc) for loc in pending.options]
        if pending.kind == "play":
            found: list[Any] = list(plays.legal_plays(state, pending))
            return found if pending.extra else [*found, DiscardHand()]
        if pending.kind == "pledge":
            return [Pledge(cards=cards) for cards in plays.legal_pledges(state, seat)]
        if pending.kind == "peek_discard":
            return [ChooseCards(cards=list(c)) for n in range(len(pending.peeked) + 1)
                    for c in combinations(pending.peeked, n)]
        if pending.kind == "discard_choice":
            return [ChooseCards(cards=list(c)) for c in dict.fromkeys(combinations(state.hands[seat], pending.n))]
        return [Declare(declare=True), Declare(declare=False)]

    def free_order(self, action: Any) -> tuple[str, ...]:
        """A play's ``victims`` are listed once, in play order, and their order is the player's: a Weapon's
        declaration order (W1), Free Samples' arrival order (§9.10), Stakeout's peeks."""
        return ("victims",) if isinstance(action, PlayCard) and len(action.victims) > 1 else ()

    def waiting(self, state: LetsKillState) -> Waiting | None:
        """The pending decision: ``kind`` is its kind (``place``, ``play``, ``window``, ``pledge``,
        ``peek_discard``, ``discard_choice``, ``declare``). A window waits on every player who has not answered; a
        shootout pledge is a prompt; everything else is the turn's pace."""
        pending = state.pending
        if pending is None or state.ended:
            return None
        if pending.kind == "window":
            window = state.window
            assert window is not None
            answers = window.answers
            # one simultaneous decision: each sealed answer is a step, the window stands since it opened (LK-19)
            return Waiting.of(tuple([s for s in window.eligible if s not in answers]), "window", "turn", False,
                              len(answers))
        if pending.kind == "pledge":
            return Waiting.prompt(pending.seat, "pledge")
        return Waiting.turn(pending.seat, pending.kind)

    def timeout_action(self, state: LetsKillState) -> tuple[int, Any] | None:
        """Whose time is up and the engine's own default: a window closes (the game's clock: everyone silent
        passes); for a seat, the bot plays the seat's policy from its view instead (:func:`games.core.ai.timeout_move`)
        and this is the fallback: a pledge passes, a Location is the first that qualifies, a Stakeout discards
        nothing, a declaration is not made, an owner's discard takes the first cards, the Step-2 card is the hand
        discarded, and a mandatory extra play is the first legal one."""
        pending = state.pending
        if pending is None or state.ended:
            return None
        if pending.kind == "window":
            return SYSTEM_SEAT, CloseWindow()
        seat = pending.seat
        default: Any = {
            "place": lambda: PlaceVictim(location=pending.options[0]),
            "pledge": lambda: Pledge(),
            "peek_discard": lambda: ChooseCards(),
            "discard_choice": lambda: ChooseCards(cards=state.hands[seat][: pending.n]),
            "declare": lambda: Declare(declare=False),
            "play": lambda: self.legal_actions(state, seat)[0] if pending.extra else DiscardHand(),
        }[pending.kind]()
        return seat, default

    def refusal(self, state: LetsKillState, seat: int) -> IllegalAction:
        """A seat that already answered the open window is told so (``lets_kill.already_answered``)."""
        if state.window is not None and seat in state.window.answers:
            return IllegalAction("lets_kill.already_answered")
        return IllegalAction("core.not_your_turn")

    def step_state(self, state: LetsKillState, action: Any = None) -> LetsKillState:
        """A sealed answer that leaves the window open (another seat has still to answer) changes only the
        window, which :meth:`_window` replaces whole: its step gets a copy of the state that shares everything.
        Any other move gets the contract's copy. (A window's answers are its eligible seats': the two that
        write them check it.)"""
        window = state.window
        if action.__class__ is Respond and window is not None and state.pending is not None and \
                state.pending.kind == "window" and len(window.eligible) - len(window.answers) >= 2:
            return replace(state)  # type: ignore[no-any-return]
        return super().step_state(state, action)

    def _apply(self, state: LetsKillState, seat: int, action: Any) -> Step:
        """Raises :class:`IllegalAction` (``lets_kill.*``) and then changes nothing (game over and who may act are
        the contract's, :meth:`Engine.apply`). When the turn changes, each seat whose hand is not the one it was
        last sent gets one private ``lets_kill.hand`` event with the whole hand, last (one "Your hand" DM per turn
        change at most; "My secrets" is always current)."""
        if state.pending is None:
            raise IllegalAction("lets_kill.not_now")
        turn = state.turn
        # a hand-built state has no record of the hands sent: those before the step count as sent
        hands = [list(hand) for hand in state.hands] if len(state.hand_sent) != len(state.hands) else None
        flow = Flow(state)
        self._decide(flow, seat, action)
        pipeline.run(flow)
        return unchecked(Step, {"state": flow.state, "events": flow.events + _hand_events(turn, hands, flow.state)},
                         _STEP)

    def _decide(self, flow: Flow, seat: int, action: Any) -> None:
        state = flow.state
        pending = state.pending
        assert pending is not None
        if isinstance(action, (Respond, CloseWindow)):
            return self._window(flow, seat, action)
        if pending.kind == "window" or seat != pending.seat:
            raise IllegalAction("core.not_your_turn")
        if isinstance(action, PlaceVictim) and pending.kind == "place":
            if action.location not in pending.options:
                raise IllegalAction("lets_kill.bad_location", location=action.location)
            state.pending = None
            return pipeline.put_victim(flow, pending.victim or "", action.location)
        if isinstance(action, PlayCard):
            error = plays.play_error(state, seat, action)
            if error is not None:
                raise error
            return plays.apply_play(flow, seat, action)
        if isinstance(action, DiscardHand) and pending.kind == "play" and not pending.extra:
            cards = list(state.hands[seat])
            flow.discard_from_hand(seat, cards)
            state.pending = None
            return flow.say("hand_discarded", seat=seat, cards=cards)
        if isinstance(action, Pledge) and pending.kind == "pledge":
            error = plays.pledge_error(state, seat, action.cards)
            if error is not None:
                raise error
            return pipeline.pledge(flow, seat, list(action.cards))
        if isinstance(action, ChooseCards) and pending.kind in ("peek_discard", "discard_choice"):
            return self._choose(flow, seat, list(action.cards))
        if isinstance(action, Declare) and pending.kind == "declare":
            state.pending = None
            if action.declare:
                state.declared_by = seat
                score = rules.score(state, seat)
                flow.say("declared", seat=seat, score=score, count=score)
            return None
        raise IllegalAction("lets_kill.not_now")

    def _window(self, flow: Flow, seat: int, action: Respond | CloseWindow) -> None:
        state = flow.state
        window = state.window
        if state.pending is None or state.pending.kind != "window" or window is None:
            raise IllegalAction("lets_kill.not_now")
        if not isinstance(action, CloseWindow):  # who may answer is the contract's (refusal)
            error = plays.response_error(state, seat, action)
            if error is not None:
                raise error
            answers = {**window.answers, seat: action}
            flow.say("answered", seat=seat)
            if any(s not in answers for s in window.eligible):
                state.window = replace(window, answers=answers)
                return
        else:
            answers = dict(window.answers)
        for other in window.eligible:
            answers.setdefault(other, plays.PASS)
        state.window = replace(window, answers=answers)
        pipeline.close_window(flow)

    def _choose(self, flow: Flow, seat: int, cards: list[str]) -> None:
        state = flow.state
        pending = state.pending
        assert pending is not None
        if pending.kind == "peek_discard":
            if len(set(cards)) != len(cards) or not set(cards) <= set(pending.peeked):
                raise IllegalAction("lets_kill.bad_choice")
            for victim in cards:
                surprise = state.surprises.pop(victim)
                flow.forget(surprise)
                state.lk_discard.append(surprise)
                state.face_down.append(surprise)
                flow.say("surprise_discarded", seat=seat, victim=victim)
        else:
            hand = list(state.hands[seat])
            try:
                for card_id in cards:
                    hand.remove(card_id)
            except ValueError:
                raise IllegalAction("lets_kill.not_in_hand") from None
            if len(cards) != pending.n:
                raise IllegalAction("lets_kill.bad_choice")
            flow.discard_from_hand(seat, cards)
            flow.say("discarded", seat=seat, cards=cards)
        state.pending = None

    # ------------------------------------------------------------ views and the end
    def view(self, state: LetsKillState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def outcome(self, state: LetsKillState) -> Outcome | None:
        """Highest score wins; every tied player wins (LK-33)."""
        if state.ended is None:
            return None
        scores = {seat: rules.score(state, seat) for seat in range(len(state.seats))}
        best = max(scores.values())
        return Outcome(winners=[s for s, p in scores.items() if p == best], reason=f"lets_kill.end.{state.ended}",
                       params={"score": best}, scores={s: float(p) for s, p in scores.items()})

    def facts(self, final: LetsKillState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.lets_kill.achievements.game_facts`."""
        return game_facts(final, moments, self.outcome(final))


def _hand_events(turn: int, hands: list[list[str]] | None, after: LetsKillState) -> list[Event]:
    """When the step left ``turn``, a ``lets_kill.hand`` event to each seat whose hand differs from the last one it
    was sent (``hand_sent``; a hand-built state without it counts ``hands``, those before the step, as sent),
    which is then recorded."""
    if after.turn == turn or after.ended:
        return []
    if hands is not None and len(after.hand_sent) != len(after.hands):
        after.hand_sent = [list(hand) for hand in hands]
    events = []
    for seat, hand in enumerate(after.hands):
        if hand != after.hand_sent[seat]:
            after.hand_sent[seat] = list(hand)
            events.append(Event(key="lets_kill.hand", params={"cards": list(hand)}, audience=Audience.to(seat)))
    return events


def begin(state: LetsKillState) -> LetsKillState:
    """Start the first turn of a dealt (or hand-built) state and run to the first decision."""
    state.agenda = [Task(op="turn_start")]
    flow = Flow(state)
    pipeline.run(flow)
    return flow.state


ENGINE = LetsKill()
