"""Who belongs in a game's threads, read from what the engines publish (never from hidden state).

* ``dead``: the seats the public view shows out of the game: the social mode's players who are no longer alive
  (``seats[].alive``), the 5-10 tabletop's murdered (``seats[].murdered``; the rulebook has them play out their hand,
  which the engine still asks of them), Verdugo's prisoners dead this round (``dead``; they are back in play, and out
  of the thread, when the next round begins). Cereal Killer, Let's Kill! and the 2-4 player mode have nobody out:
  their thread holds the watchers only. Rulings: ``games/asesino/README.md`` and ``games/verdugo/README.md`` ("The
  thread of the dead and the watchers").
* ``pair``: the Killer and the Accomplice: made from the recruitment's private event (told to the Killer, naming the
  Accomplice); afterwards, as seats change hands, the holders of the two seats the state names (:func:`plotters`;
  the bot's own copy of the state, read only to add those two people).
* ``interview:<day>``: the Journalist and the interviewee, from the interview's opening event.
"""

from __future__ import annotations

from typing import Any

from games.asesino.social.state import SocialState
from games.core import Event

RECRUITED = "asesino_social.recruit.done"
INTERVIEW_OPENED = "asesino_social.interview.opened"
#: the interview's talk, relayed to the other side (``games.asesino.social.night.do_say``)
INTERVIEW_TALK = ("asesino_social.interview.asked", "asesino_social.interview.answered")


def out_seats(public: dict[str, Any]) -> set[int]:
    """The seats a public view shows out of the game (see the module docstring); empty for games without."""
    seats = public.get("seats")
    out: set[int] = set()
    if isinstance(seats, list):
        for entry in seats:
            if isinstance(entry, dict) and (entry.get("alive") is False or entry.get("murdered") is True):
                out.add(int(entry["seat"]))
    dead = public.get("dead")
    if isinstance(dead, list) and public.get("phase") == "round":
        out |= {int(seat) for seat in dead}
    return out


def plotters(state: SocialState) -> tuple[int, ...]:
    """The social mode's ``(killer, accomplice)`` seats once the Accomplice is recruited, else ``()``."""
    return (state.killer, state.accomplice) if state.accomplice is not None else ()


def recruited_pair(events: list[Event]) -> tuple[int, int] | None:
    """``(killer, accomplice)`` when one of ``events`` is the recruitment, else None."""
    for event in events:
        if event.key == RECRUITED and event.audience.seats:
            return event.audience.seats[0], int(event.params["accomplice"])
    return None


def opened_interview(events: list[Event]) -> tuple[int, int] | None:
    """``(journalist, interviewee)`` when one of ``events`` opens an interview, else None."""
    for event in events:
        if event.key == INTERVIEW_OPENED:
            return int(event.params["journalist"]), int(event.params["target"])
    return None
