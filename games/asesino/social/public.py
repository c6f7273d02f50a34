"""Public life of the social mode: judgements and the day clock (what players write: :mod:`.writing`).

Rules: rulebook "Events" (Judgement) and "Silencing the Instinct"; rulings in
``editions/asesino-rulings.md`` ("Social mode"). ``check_*`` reads the state and raises; ``do_*`` mutates the
copy in a :class:`Ctx`.
"""

from __future__ import annotations

from datetime import timedelta

from games.asesino.social.actions import BackJudgement, EndDay, ExpireJudgements, OpenJudgement
from games.asesino.social.clock import day_end, next_day_start, utc
from games.asesino.social.ending import killer_judged, publish_pending, time_up
from games.asesino.social.roles import SocialRole
from games.asesino.social.rules import (
    JUDGEMENT_BACKERS,
    Ctx,
    drop_backer,
    judgement_limit,
    judgements_left,
    require_respected,
    require_target,
)
from games.asesino.social.state import Judgement, SocialState, Today
from games.core import IllegalAction


def _require_judgement_right(state: SocialState, seat: int) -> None:
    require_respected(state, seat)
    if judgements_left(state, seat) == 0:
        limit = judgement_limit(state, seat)
        raise IllegalAction("asesino_social.judgement_limit", limit=limit, count=limit)


def may_open(state: SocialState, seat: int) -> None:
    """A respected player with a judgement left (whoever the accused)."""
    _require_judgement_right(state, seat)


def check_open(state: SocialState, seat: int, action: OpenJudgement) -> None:
    """A respected player with a judgement left accuses another living player not judged before, against whom
    no judgement is open."""
    may_open(state, seat)
    require_target(state, seat, action.accused)
    if state.seats[action.accused].judged_day is not None:
        raise IllegalAction("asesino_social.already_judged", seat_params=("accused",), accused=action.accused)
    for judgement in state.judgements:
        if judgement.status == "open" and judgement.accused == action.accused:
            raise IllegalAction("asesino_social.judgement_already_open", judgement=judgement.id)


def do_open(ctx: Ctx, action: OpenJudgement) -> None:
    state = ctx.state
    window = timedelta(minutes=state.options.judgement_window_minutes)
    judgement = Judgement(id=len(state.judgements) + 1, accused=action.accused, opener=ctx.seat, day=state.day,
                          opened_at=utc(action.at), expires_at=utc(action.at + window), backers=[ctx.seat])
    state.judgements.append(judgement)
    _count_participation(state, ctx.seat)
    ctx.target = action.accused
    ctx.ref = judgement.id
    ctx.announce("asesino_social.judgement.opened", judgement=judgement.id, accused=action.accused,
                 opener=ctx.seat, expires_at=judgement.expires_at.isoformat(), needed=JUDGEMENT_BACKERS)


def check_back(state: SocialState, seat: int, action: BackJudgement) -> None:
    """An open judgement, within its window, by a respected player other than the accused, once each."""
    require_respected(state, seat)
    if not 1 <= action.judgement <= len(state.judgements):
        raise IllegalAction("asesino_social.no_such_judgement", judgement=action.judgement)
    judgement = state.judgements[action.judgement - 1]
    if judgement.status != "open":
        raise IllegalAction("asesino_social.judgement_closed", judgement=judgement.id)
    if utc(action.at) > judgement.expires_at:
        raise IllegalAction("asesino_social.judgement_expired", judgement=judgement.id)
    if seat == judgement.accused:
        raise IllegalAction("asesino_social.cannot_back_own", judgement=judgement.id)
    if seat in judgement.backers:
        raise IllegalAction("asesino_social.already_backing", judgement=judgement.id)
    _require_judgement_right(state, seat)


def do_back(ctx: Ctx, action: BackJudgement) -> None:
    """The third backer makes the judgement stand: the accused shows their card publicly (an Accomplice shows its
    original card), may write a Farewell Letter today and is deprived of judgements; the Killer loses the game."""
    state = ctx.state
    judgement = state.judgements[action.judgement - 1]
    judgement.backers.append(ctx.seat)
    _count_participation(state, ctx.seat)
    ctx.target = judgement.accused
    ctx.ref = judgement.id
    ctx.announce("asesino_social.judgement.backed", judgement=judgement.id, accused=judgement.accused,
                 backer=ctx.seat, backers=len(judgement.backers), needed=JUDGEMENT_BACKERS)
    if len(judgement.backers) < JUDGEMENT_BACKERS:
        return
    accused = state.seats[judgement.accused]
    judgement.status = "stood"
    ctx.detail = "stood"
    accused.judged_day = state.day
    drop_backer(state, judgement.accused)
    ctx.announce("asesino_social.judgement.stood", judgement=judgement.id, accused=judgement.accused,
                 card=accused.card.value, backers=list(judgement.backers))
    if accused.role == SocialRole.KILLER:
        killer_judged(state, list(judgement.backers))
    else:
        ctx.tell([judgement.accused], "asesino_social.judgement.you_are_deprived", judgement=judgement.id)


def _count_participation(state: SocialState, seat: int) -> None:
    state.today.judgements[seat] = state.today.judgements.get(seat, 0) + 1


def check_end_day(state: SocialState, seat: int, action: EndDay) -> None:
    if action.day != state.day:
        raise IllegalAction("asesino_social.stale_day", day=action.day, current=state.day)


def do_end_day(ctx: Ctx, action: EndDay) -> None:
    """Expire judgements past their window, publish the day's letters, clues and note; after day ``max_days`` the
    game ends (README ruling "Maximum length"); otherwise reset the daily limits, start the next day (its end
    computed from the options unless ``next_ends_at`` is given) and remind idle players."""
    state = ctx.state
    do_expire(ctx, ExpireJudgements(at=action.at))
    publish_pending(ctx)
    ended = state.day
    if ended >= state.options.max_days:
        time_up(state)
        return
    assert state.day_ends_at is not None
    start = next_day_start(utc(action.at), state.day_ends_at, state.options)
    state.last_protected = state.today.protected
    state.today = Today()
    state.day += 1
    state.day_started_at = start
    state.day_ends_at = utc(action.next_ends_at) if action.next_ends_at else day_end(start, state.options)
    ctx.announce("asesino_social.day.ended", day=ended, next_day=state.day,
                 ends_at=state.day_ends_at.isoformat())
    if state.day == state.options.max_days:
        ctx.announce("asesino_social.day.last", day=state.day, ends_at=state.day_ends_at.isoformat())
    remind_idle(ctx, ended)


def remind_idle(ctx: Ctx, ended: int) -> None:
    """Privately remind every living player who has not acted for ``idle_days`` days (again every ``idle_days``
    days) how many days the game has left."""
    state = ctx.state
    last: dict[int, int] = {}
    for entry in state.timeline:
        last[entry.seat] = entry.day
    every = state.options.idle_days
    for seat, player in enumerate(state.seats):
        idle = ended - last.get(seat, 0)
        if player.alive and idle >= every and idle % every == 0:
            left = state.options.max_days - state.day + 1
            ctx.tell([seat], "asesino_social.reminder.idle", days=idle, days_left=left, count=left)


def do_expire(ctx: Ctx, action: ExpireJudgements) -> None:
    for judgement in ctx.state.judgements:
        if judgement.status == "open" and judgement.expires_at < utc(action.at):
            judgement.status = "expired"
            ctx.announce("asesino_social.judgement.expired", judgement=judgement.id, accused=judgement.accused)


def check_system(state: SocialState, seat: int, action: object) -> None:
    """Nothing to check for ``expire_judgements``."""

