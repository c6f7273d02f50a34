"""How a social game ends (rulebook "Silencing the Instinct"; rulings in ``editions/asesino-rulings.md``).

* A judgement stands against the Killer: ``asesino_social.end.killer_judged``; winners: the good side and every
  accuser (an Accomplice who backs it wins with the accusers).
* The Maniac kills the Killer: ``asesino_social.end.maniac_killed_killer``; winners: the good side.
* floor(N/2) murders (crimes and Maniac kills) with the Killer alive: ``asesino_social.end.criminals_win``;
  winners: the Killer and the Accomplice (dead or alive).
* The end of day ``max_days`` with none of the above: ``asesino_social.end.time_up``; winners: the good side
  (README ruling "Maximum length": the criminals did not reach their tally, as in the tabletop mode's "The 3
  deaths do not occur. The Good Intentions people win").

The good side is every player whose role is neither Killer nor Accomplice. Win conditions are checked the
moment a death or a judgement happens, so nothing is left for the day's end to decide.
"""

from __future__ import annotations

from games.asesino.social.roles import SocialRole
from games.asesino.social.rules import Ctx
from games.asesino.social.state import Published, Result, SocialState

CRIMINAL_ROLES = frozenset({SocialRole.KILLER, SocialRole.ACCOMPLICE})


def good_side(state: SocialState) -> list[int]:
    return [index for index, seat in enumerate(state.seats) if seat.role not in CRIMINAL_ROLES]


def criminals(state: SocialState) -> list[int]:
    return [index for index, seat in enumerate(state.seats) if seat.role in CRIMINAL_ROLES]


def check_end(state: SocialState) -> None:
    """Set ``state.result`` after a death if the Killer fell or the murder tally reached floor(N/2)."""
    if state.result is not None:
        return
    if not state.seats[state.killer].alive:
        maniac = state.seat_with_power(SocialRole.MANIAC)
        state.result = Result(reason="asesino_social.end.maniac_killed_killer", winners=good_side(state),
                              params={"killer": state.killer, "maniac": maniac})
    elif state.murders >= state.murders_to_win:
        state.result = Result(reason="asesino_social.end.criminals_win", winners=criminals(state),
                              params={"killer": state.killer, "accomplice": state.accomplice,
                                      "murders": state.murders})


def killer_judged(state: SocialState, accusers: list[int]) -> None:
    state.result = Result(reason="asesino_social.end.killer_judged",
                          winners=sorted(set(good_side(state)) | set(accusers)),
                          params={"killer": state.killer, "accusers": accusers})


def time_up(state: SocialState) -> None:
    state.result = Result(reason="asesino_social.end.time_up", winners=good_side(state),
                          params={"days": state.day, "killer": state.killer, "accomplice": state.accomplice,
                                  "murders": state.murders, "count": state.murders})


def publish_pending(ctx: Ctx) -> None:
    """Post today's Farewell Letters, clues from beyond (unsigned) and the journalist note to the official medium
    (at the day's end, or at once when the game ends mid-day)."""
    state, today = ctx.state, ctx.state.today
    for seat, text in today.letters.items():
        state.published.append(Published(day=state.day, kind="letter", seat=seat, text=text))
        ctx.announce("asesino_social.letter", medium=True, seat=seat, day=state.day, text=text)
    for text in today.clues.values():
        state.published.append(Published(day=state.day, kind="clue", seat=None, text=text))
        ctx.announce("asesino_social.clue", medium=True, day=state.day, text=text)
    if today.note is not None and today.interview is not None:
        state.published.append(Published(day=state.day, kind="note", seat=today.interview, text=today.note))
        ctx.announce("asesino_social.note", medium=True, interviewee=today.interview, day=state.day,
                     text=today.note)
    today.letters = {}
    today.clues = {}
    today.note = None


def finish(ctx: Ctx) -> None:
    """The end events: pending letters and note, the result (game channel and medium), every role, the authors
    of the anonymous posts and the full timeline (public)."""
    state = ctx.state
    assert state.result is not None
    publish_pending(ctx)
    for medium in (False, True):
        ctx.announce(state.result.reason, medium=medium, **state.result.params)
    ctx.announce("asesino_social.end.roles",
                 roles=[{"seat": i, "card": s.card.value, "role": s.role.value} for i, s in enumerate(state.seats)])
    ctx.announce("asesino_social.end.authors",
                 posts=[{"post": p.id, "character": p.character, "seat": p.seat} for p in state.posts])
    ctx.announce("asesino_social.end.timeline",
                 entries=[entry.model_dump(mode="json") for entry in state.timeline])

