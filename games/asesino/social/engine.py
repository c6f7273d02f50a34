"""The Asesino en Serie social-mode engine (real-time days, 6-12 players).

Players act privately at any time of the (real) day; the game's own clock (:meth:`SocialEngine.due`, which the
bot's timers and ``coroner simulate`` apply with seat ``-1``, :data:`SYSTEM_SEAT`) ends each day with
:class:`EndDay` and closes judgements past their window with :class:`ExpireJudgements`; the host (``HOST_SEAT``)
decides on a letter sent for review (:class:`ReviewLetter`). Rules: the rulebook's "Social Game" part and
``editions/asesino-rulings.md`` ("Social mode").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel

from games.asesino.achievements import social_facts
from games.asesino.social import night, public, writing
from games.asesino.social.actions import (
    CLOCK_ACTIONS,
    HOST_ACTIONS,
    AnonymousPost,
    BackJudgement,
    Crime,
    EndDay,
    ExpireJudgements,
    Inspect,
    Interview,
    InterviewSay,
    ManiacKill,
    OpenJudgement,
    Protect,
    PublishNote,
    Recruit,
    RequestReview,
    ReviewLetter,
    SendClue,
    SocialAction,
    WriteLetter,
)
from games.asesino.social.clock import SocialOptions, day_end, utc
from games.asesino.social.ending import finish
from games.asesino.social.roles import SocialRole, deal_characters, deal_roles
from games.asesino.social.rules import Ctx
from games.asesino.social.state import SYSTEM_SEAT, SocialSeat, SocialState, TimelineEntry
from games.asesino.social.views import public_view, seat_view
from games.core import (
    HOST_SEAT,
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
from games.core.copying import replace
from games.core.seats import SeatReplaced

PLACEHOLDER = "..."  # free-text placeholder in legal_actions; the adapter lets the player type the text
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # placeholder `at` before the clock has started

Check = Callable[[SocialState, int, Any], None]
Do = Callable[[Ctx, Any], None]

RULES: dict[type[BaseModel], tuple[Check, Do]] = {
    Recruit: (night.check_recruit, night.do_recruit),
    Crime: (night.check_crime, night.do_crime),
    Protect: (night.check_protect, night.do_protect),
    Inspect: (night.check_inspect, night.do_inspect),
    Interview: (night.check_interview, night.do_interview),
    PublishNote: (night.check_note, night.do_note),
    InterviewSay: (night.check_say, night.do_say),
    ManiacKill: (night.check_maniac, night.do_maniac),
    OpenJudgement: (public.check_open, public.do_open),
    BackJudgement: (public.check_back, public.do_back),
    WriteLetter: (writing.check_letter, writing.do_letter),
    RequestReview: (writing.check_request_review, writing.do_request_review),
    SendClue: (writing.check_clue, writing.do_clue),
    AnonymousPost: (writing.check_post, writing.do_post),
    ReviewLetter: (writing.check_review, writing.do_review),
    EndDay: (public.check_end_day, public.do_end_day),
    ExpireJudgements: (public.check_system, public.do_expire),
}


#: the actions on a player, in the order :meth:`SocialEngine.legal_actions` lists them: the kind, its target field
#: and the part of its check that does not depend on the target
TARGETED: list[tuple[type[BaseModel], str, Callable[[SocialState, int], None]]] = [
    (Recruit, "target", night.may_recruit), (Protect, "target", night.may_protect),
    (Inspect, "target", night.may_inspect), (Interview, "target", night.may_interview),
    (ManiacKill, "target", night.may_kill_as_maniac), (Crime, "victim", night.may_commit_crime),
    (OpenJudgement, "accused", public.may_open)]


def next_boundary(state: SocialState) -> datetime | None:
    """When the current day ends (UTC): the moment the adapter's timer sends ``EndDay(day=state.day)``.
    ``None`` only while the clock has not started (no ``started_at`` option and no action yet)."""
    return state.day_ends_at


#: the seat parameters of the endings (``asesino_social.end.*``)
OUTCOME_SEATS = ("killer", "accomplice", "maniac", "accusers")


class SocialEngine(Engine[SocialState]):
    game: ClassVar[str] = "asesino"
    mode: ClassVar[ModeInfo] = ModeInfo(id="social", min_players=6, max_players=12)
    State = SocialState
    Options = SocialOptions
    Action: ClassVar[Any] = SocialAction
    features: ClassVar[Features] = Features(
        clock=True, ai=True, clock_actions=frozenset(a.model_fields["type"].default for a in CLOCK_ACTIONS),
        host_actions=frozenset(a.model_fields["type"].default for a in HOST_ACTIONS),
        system_only="asesino_social.system_only", host_only="asesino_social.host_only")

    def setup(self, options: BaseModel, seats: list[SeatInfo], seed: int) -> SocialState:
        """Deal roles (role table per count) and a secret character name per seat; start day 1 at
        ``options.started_at``. Raises ``IllegalAction("core.bad_player_count")`` outside 6-12."""
        assert isinstance(options, SocialOptions)
        if not self.mode.min_players <= len(seats) <= self.mode.max_players:
            raise IllegalAction("core.bad_player_count", count=len(seats))
        roles = deal_roles(len(seats), rng_for(seed, "roles"), options.specials())
        names = deal_characters(len(seats), rng_for(seed, "characters"))
        state = SocialState(
            seed=seed,
            options=options,
            seats=[SocialSeat(names=list(info.names), card=role, role=role,
                              character=f"asesino_social.character.{name}")
                   for info, role, name in zip(seats, roles, names, strict=True)],
            killer=roles.index(SocialRole.KILLER),
        )
        if options.started_at is not None:
            _start_clock(state, options.started_at)
        return state

    def intro(self, state: SocialState) -> list[Event]:
        """Each seat's role card and character name by DM, then the public start with day 1's end."""
        events = [Event(key="asesino_social.intro.role", params={"card": seat.card.value, "character": seat.character,
                                                               "players": state.players},
                        audience=Audience.to(index))
                  for index, seat in enumerate(state.seats)]
        ends = state.day_ends_at.isoformat() if state.day_ends_at else None
        events.append(Event(key="asesino_social.intro.start",
                            params={"players": state.players, "to_win": state.murders_to_win, "ends_at": ends}))
        return events

    def waiting(self, state: SocialState) -> Waiting | None:
        """Real time: every seat may act during the day (the engine refuses what a seat may not do) and the
        game's own clock ends it; nobody in particular is waited on. ``None`` once the game is over."""
        if state.result is not None:
            return None
        return Waiting.of(tuple(range(state.players)), "day", "realtime")

    def legal_actions(self, state: SocialState, seat: int) -> list[Any]:
        """Every concrete action ``seat`` may take now (``-1``: the system actions). Free text is
        :data:`PLACEHOLDER`; ``at`` is the latest time the game has seen."""
        if state.result is not None:
            return []
        now = state.last_at or state.day_started_at or EPOCH
        reviews = [ReviewLetter(at=now, review=r.id, approve=approve) for r in state.reviews
                   if r.status == "pending" for approve in (True, False)]
        if seat == HOST_SEAT:
            return reviews
        if seat == SYSTEM_SEAT:
            system: list[Any] = [EndDay(at=max(now, state.day_ends_at or now), day=state.day)]
            if any(j.status == "open" for j in state.judgements):
                system.append(ExpireJudgements(at=now))
            return system + reviews
        # who may act and the time are the same for every candidate (none is a clock or host action): checked once
        try:
            self.check_actor(state, seat)
            _check_time(state, PublishNote(at=now, text=PLACEHOLDER))
        except IllegalAction:
            return []
        # one validated action per kind, the others copied from it with another target (no validation: a seat
        # number is what the field declares)
        seats = range(state.players)
        candidates: list[Any] = []
        for kind, field, may in TARGETED:
            try:
                may(state, seat)  # what does not depend on the target: a seat without the power skips every one
            except IllegalAction:
                continue
            first = kind(at=now, **{field: 0})
            candidates += [first, *(replace(first, **{field: t}) for t in seats[1:])]
        candidates += [BackJudgement(at=now, judgement=j.id) for j in state.judgements if j.status == "open"]
        candidates += [kind(at=now, text=PLACEHOLDER) for kind in (PublishNote, InterviewSay, WriteLetter,
                                                                  RequestReview, SendClue, AnonymousPost)]
        return [action for action in candidates if _allowed(state, seat, action)]

    def dead(self, state: SocialState) -> frozenset[int]:
        """The murdered (by the Killer's pair or the Maniac): never handed over (ruling 35); they hold the dead role."""
        return frozenset(i for i, seat in enumerate(state.seats) if not seat.alive)

    def refusal(self, state: SocialState, seat: int) -> IllegalAction:
        """Everyone seated may act during the day: only a seat that is not a player is refused here."""
        return IllegalAction("asesino_social.not_a_player", seat=seat)

    def _due(self, state: SocialState, now: datetime) -> list[Any]:
        """The social clock (ruling "Time"): at ``now`` (aware), the current day's end once its boundary has passed
        (stamped at the boundary, :func:`next_boundary`), else the expiry of the judgements whose window has ended
        (stamped ``now``); empty when nothing is due (and while the host has paused the game, :meth:`Engine.due`).
        Apply the first and ask again: after downtime every overdue day ends in order, each at its own boundary,
        before anything else is applied."""
        if state.result is not None:
            return []
        now = utc(now)
        ends = next_boundary(state)
        if ends is not None and now >= ends:
            return [EndDay(day=state.day, at=ends)]
        if any(j.status == "open" and j.expires_at < now for j in state.judgements):
            return [ExpireJudgements(at=now)]
        return []

    def resumed(self, state: SocialState, seconds: float) -> None:
        """After a pause of ``seconds``: the day's end and every open judgement's expiry move by that much, so
        each has the time it had left when the host paused (README ruling 32, "Pause")."""
        shift = timedelta(seconds=seconds)
        if state.day_ends_at is not None:
            state.day_ends_at += shift
        for judgement in state.judgements:
            if judgement.status == "open":
                judgement.expires_at += shift

    def seat_changed(self, state: SocialState, action: Any) -> SocialState:
        """A seat handed to a person goes by the newcomer's names from now on (a Farewell Letter naming them is
        refused, one naming the seat's former holder no longer is: :func:`games.asesino.social.writing.check_text`);
        the history keeps the old names (:func:`games.core.seats.names_at_start`)."""
        if not isinstance(action, SeatReplaced) or action.to != "person" or not action.names:
            return state
        seats = list(state.seats)
        seats[action.seat] = seats[action.seat].model_copy(update={"names": list(action.names)})
        return state.model_copy(update={"seats": seats})

    def _apply(self, new: SocialState, seat: int, action: Any) -> Step:
        """Check the time and the action's rules, then apply; record the action in the (secret) timeline. Raises
        :class:`IllegalAction` (``asesino_social.*``; game over and who may send it are the contract's,
        :meth:`Engine.apply`)."""
        _check(new, seat, action)
        if new.day_started_at is None:
            _start_clock(new, action.at)
        ctx = Ctx(state=new, seat=seat, at=utc(action.at))
        day = new.day
        RULES[type(action)][1](ctx, action)
        new.last_at = max(new.last_at or ctx.at, ctx.at)
        new.timeline.append(TimelineEntry(day=day, at=ctx.at, seat=seat, kind=action.type, target=ctx.target,
                                          detail=ctx.detail, ref=ctx.ref))
        if new.result is not None:
            finish(ctx)
        return Step(state=new, events=ctx.events)

    def view(self, state: SocialState, seat: int | None) -> dict[str, Any]:
        """See :func:`~games.asesino.social.views.public_view` and :func:`~games.asesino.social.views.seat_view`."""
        return public_view(state) if seat is None or seat == SYSTEM_SEAT else seat_view(state, seat)

    def outcome(self, state: SocialState) -> Outcome | None:
        if state.result is None:
            return None
        winners = state.result.winners
        return Outcome(winners=winners, reason=state.result.reason, params=state.result.params,
                       scores={s: (1.0 if s in winners else 0.0) for s in range(state.players)},
                       seat_params=OUTCOME_SEATS)

    def facts(self, final: SocialState, moments: Sequence[Moment]) -> dict[int, dict[str, Any]]:
        """See :func:`games.asesino.achievements.social_facts`."""
        return social_facts(final, moments, self.outcome(final))


def _check(state: SocialState, seat: int, action: Any) -> None:
    """The action's time and rules (who may send it is the contract's, :meth:`Engine.check_actor`)."""
    _check_time(state, action)
    RULES[type(action)][0](state, seat, action)


def _check_time(state: SocialState, action: Any) -> None:
    """Ruling "Time": "every action belongs to the day in which its timestamp falls. The engine refuses an action
    stamped at or after the current day's boundary (the day must be ended first) or earlier than the last accepted
    action". Only the day's end itself may be stamped at or after the boundary."""
    at = utc(action.at)
    if state.last_at is not None and at < state.last_at:
        raise IllegalAction("asesino_social.out_of_order", at=at.isoformat(), last=state.last_at.isoformat())
    if not isinstance(action, EndDay) and state.day_ends_at is not None and at >= state.day_ends_at:
        raise IllegalAction("asesino_social.day_over", day=state.day, ends_at=state.day_ends_at.isoformat())


def _allowed(state: SocialState, seat: int, action: Any) -> bool:
    """Whether the rules of ``action``'s kind allow it (who acts and when are checked by the caller)."""
    try:
        RULES[type(action)][0](state, seat, action)
    except IllegalAction:
        return False
    return True


def _start_clock(state: SocialState, at: datetime) -> None:
    state.day_started_at = utc(at)
    first_end = state.options.first_day_ends_at
    state.day_ends_at = utc(first_end) if first_end is not None else day_end(at, state.options)


ENGINE = SocialEngine()
