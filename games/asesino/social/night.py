"""Private actions made to the bot: recruitment, the crime, the Doctor, the Detective, the Journalist, the Maniac.

Each kind has a ``check_*`` (raises :class:`~games.core.IllegalAction`, reads the state only; also used to list
legal actions) and a ``do_*`` (mutates the copied state in a :class:`Ctx`). Rules: rulebook "Events" and
"Special Characters"; rulings in ``editions/asesino-rulings.md`` ("Social mode").
"""

from __future__ import annotations

from games.asesino.social.actions import (
    Crime,
    Inspect,
    Interview,
    InterviewSay,
    ManiacKill,
    Protect,
    PublishNote,
    Recruit,
)
from games.asesino.social.ending import check_end
from games.asesino.social.roles import KEPT_WHEN_RECRUITED, SocialRole
from games.asesino.social.rules import Ctx, drop_backer, interview_pair, require_alive, require_power, require_target
from games.asesino.social.state import SocialState
from games.core import Audience, Event, IllegalAction


def may_recruit(state: SocialState, seat: int) -> None:
    """The Killer recruits once per game (whoever the target)."""
    require_alive(state, seat)
    if seat != state.killer:
        raise IllegalAction("asesino_social.not_your_role", role=SocialRole.KILLER.value)
    if state.accomplice is not None:
        raise IllegalAction("asesino_social.already_recruited")


def check_recruit(state: SocialState, seat: int, action: Recruit) -> None:
    """The Killer recruits once per game; any other living player, irrefutably."""
    may_recruit(state, seat)
    require_target(state, seat, action.target)


def do_recruit(ctx: Ctx, action: Recruit) -> None:
    """The recruit becomes the Accomplice; a Detective or Maniac loses that power, other specials keep theirs."""
    state, target = ctx.state, action.target
    recruit = state.seats[target]
    recruit.role = SocialRole.ACCOMPLICE
    state.accomplice = target
    ctx.target = target
    ctx.tell([ctx.seat], "asesino_social.recruit.done", accomplice=target)
    if recruit.card == SocialRole.VICTIM:
        key = "asesino_social.recruit.you"
    elif recruit.card in KEPT_WHEN_RECRUITED:
        key = "asesino_social.recruit.you_keep_power"
    else:
        key = "asesino_social.recruit.you_lose_power"
    ctx.tell([target], key, killer=ctx.seat, card=recruit.card.value)


def may_commit_crime(state: SocialState, seat: int) -> None:
    """The Killer or the living Accomplice; after the recruitment; one crime a day for the pair (whoever the
    victim)."""
    require_alive(state, seat)
    if seat not in (state.killer, state.accomplice):
        raise IllegalAction("asesino_social.not_your_role", role=SocialRole.KILLER.value)
    if state.accomplice is None:
        raise IllegalAction("asesino_social.recruit_first")
    if state.today.crime:
        raise IllegalAction("asesino_social.crime_spent")


def check_crime(state: SocialState, seat: int, action: Crime) -> None:
    """:func:`may_commit_crime`, on another living player outside the pair."""
    may_commit_crime(state, seat)
    require_target(state, seat, action.victim)
    if action.victim in (state.killer, state.accomplice):
        raise IllegalAction("asesino_social.target_partner")


def do_crime(ctx: Ctx, action: Crime) -> None:
    state = ctx.state
    state.today.crime = True
    pair = [s for s in (state.killer, state.accomplice) if s is not None and state.seats[s].alive]
    attack(ctx, action.victim, pair, "crime")


def may_protect(state: SocialState, seat: int) -> None:
    """The Doctor, once a day (whoever the target)."""
    require_power(state, seat, SocialRole.DOCTOR)
    if state.today.protected is not None:
        raise IllegalAction("asesino_social.protect_spent")


def check_protect(state: SocialState, seat: int, action: Protect) -> None:
    """The Doctor, once a day, another living player, not yesterday's pick."""
    may_protect(state, seat)
    require_target(state, seat, action.target)
    if action.target == state.last_protected:
        raise IllegalAction("asesino_social.protect_same_twice", seat_params=("target",),
                            target=action.target)


def do_protect(ctx: Ctx, action: Protect) -> None:
    """The protected player sees the Doctor's card (rulebook: the Doctor shows it), so learns who the Doctor is."""
    ctx.state.today.protected = ctx.target = action.target
    ctx.tell([ctx.seat], "asesino_social.protect.done", target=action.target)
    ctx.tell([action.target], "asesino_social.protect.you", doctor=ctx.seat)


def may_inspect(state: SocialState, seat: int) -> None:
    """The Detective, once a day (whoever the target)."""
    require_power(state, seat, SocialRole.DETECTIVE)
    if state.today.inspected:
        raise IllegalAction("asesino_social.inspect_spent")


def check_inspect(state: SocialState, seat: int, action: Inspect) -> None:
    may_inspect(state, seat)
    require_target(state, seat, action.target)


def do_inspect(ctx: Ctx, action: Inspect) -> None:
    """The Detective sees the role card: an Accomplice shows its original card. The inspected player saw the
    Detective ask, so learns who the Detective is."""
    state = ctx.state
    state.today.inspected = True
    ctx.target = action.target
    card = state.seats[action.target].card.value
    ctx.tell([ctx.seat], "asesino_social.inspect.result", target=action.target, card=card)
    ctx.tell([action.target], "asesino_social.inspect.you", detective=ctx.seat)


def may_interview(state: SocialState, seat: int) -> None:
    """The Journalist, once a day (whoever the interviewee)."""
    require_power(state, seat, SocialRole.JOURNALIST)
    if state.today.interview is not None:
        raise IllegalAction("asesino_social.interview_spent")


def check_interview(state: SocialState, seat: int, action: Interview) -> None:
    may_interview(state, seat)
    require_target(state, seat, action.target)


def do_interview(ctx: Ctx, action: Interview) -> None:
    """Both sides are told; the adapter opens a relayed conversation between them."""
    ctx.state.today.interview = ctx.target = action.target
    ctx.tell([ctx.seat, action.target], "asesino_social.interview.opened", journalist=ctx.seat,
             target=action.target)


def check_say(state: SocialState, seat: int, action: InterviewSay) -> None:
    """Only the two sides of today's open interview talk in it (both alive)."""
    if seat not in interview_pair(state):
        raise IllegalAction("asesino_social.no_interview")


def do_say(ctx: Ctx, action: InterviewSay) -> None:
    """The other side hears it (``asesino_social.interview.asked`` from the Journalist, ``...answered`` from the
    interviewee); the timeline keeps who spoke to whom."""
    journalist, interviewee = interview_pair(ctx.state)
    ctx.target = interviewee if ctx.seat == journalist else journalist
    key = "asesino_social.interview." + ("asked" if ctx.seat == journalist else "answered")
    ctx.events.append(Event(key=key, params={"seat": ctx.seat, "text": action.text},
                            audience=Audience.to(ctx.target)))


def check_note(state: SocialState, seat: int, action: PublishNote) -> None:
    require_power(state, seat, SocialRole.JOURNALIST)
    if state.today.interview is None:
        raise IllegalAction("asesino_social.no_interview")


def do_note(ctx: Ctx, action: PublishNote) -> None:
    ctx.state.today.note = action.text
    ctx.target = ctx.state.today.interview
    ctx.tell([ctx.seat], "asesino_social.note.saved")


def may_kill_as_maniac(state: SocialState, seat: int) -> None:
    """The Maniac, once a day (whoever the target)."""
    require_power(state, seat, SocialRole.MANIAC)
    if state.today.maniac_kill:
        raise IllegalAction("asesino_social.maniac_spent")


def check_maniac(state: SocialState, seat: int, action: ManiacKill) -> None:
    may_kill_as_maniac(state, seat)
    require_target(state, seat, action.target)


def do_maniac(ctx: Ctx, action: ManiacKill) -> None:
    ctx.state.today.maniac_kill = True
    attack(ctx, action.target, [ctx.seat], "maniac")


def attack(ctx: Ctx, target: int, attackers: list[int], cause: str) -> None:
    """Resolve an attack (crime or Maniac). A player the Doctor protected earlier today survives, and both the
    protected player and the Doctor learn the attackers; otherwise the target dies at once (death made public,
    cause and attackers kept secret), learns the attackers, and the attackers receive the role card; the dead no
    longer back any open judgement."""
    state = ctx.state
    ctx.target = target
    doctor = state.seat_with_power(SocialRole.DOCTOR)
    if state.today.protected == target and doctor is not None:
        ctx.detail = "saved"
        state.today.saved.append(target)
        ctx.tell([target, doctor], "asesino_social.attack.saved", target=target, doctor=doctor, attackers=attackers)
        ctx.tell(attackers, "asesino_social.attack.foiled", target=target)
        return
    ctx.detail = "killed"
    victim = state.seats[target]
    victim.alive = False
    victim.death = "crime" if cause == "crime" else "maniac"
    victim.died_day = state.day
    state.murders += 1
    drop_backer(state, target)
    ctx.tell([target], "asesino_social.attack.you_died", attackers=attackers, cause=cause)
    ctx.tell(attackers, "asesino_social.attack.killed", target=target, card=victim.card.value)
    ctx.announce("asesino_social.death", seat=target, murders=state.murders, to_win=state.murders_to_win)
    for judgement in state.judgements:
        if judgement.status == "open" and judgement.accused == target:
            judgement.status = "void"
            ctx.announce("asesino_social.judgement.void", judgement=judgement.id, accused=target)
    check_end(state)
