"""What each player sees. The public view never holds a role, a death's cause or a secret action's author
before the game ends; a murdered player's card goes to the killers, so only judged players' cards are public."""

from __future__ import annotations

from typing import Any

from games.asesino.social.roles import SocialRole
from games.asesino.social.rules import judgements_left, may_send_clue, may_write_letter, require_player
from games.asesino.social.state import SocialState
from games.core.controls import cancelled


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def public_view(state: SocialState) -> dict[str, Any]:
    """``{day, day_started_at, day_ends_at, players, murders, murders_to_win, over,
    seats: [{seat, alive, deprived, shown_card}], judgements: [{id, accused, opener, backers, opened_at,
    expires_at, status}], published: [{day, kind: letter|note, seat, text}] (a note's seat is the interviewee),
    posts: [{id, character, day, text}]}``; once the game is over also ``result: {reason, winners, params}``,
    ``roles: [{seat, card, role}]``, ``authors: {post id: seat}`` and ``timeline``."""
    view: dict[str, Any] = {
        "day": state.day,
        "day_started_at": _iso(state.day_started_at),
        "day_ends_at": _iso(state.day_ends_at),
        "players": state.players,
        "murders": state.murders,
        "murders_to_win": state.murders_to_win,
        "over": state.result is not None or cancelled(state),
        "seats": [{"seat": i, "alive": s.alive, "deprived": s.judged_day is not None,
                   "shown_card": s.card.value if s.judged_day is not None else None}
                  for i, s in enumerate(state.seats)],
        "judgements": [j.model_dump(mode="json", exclude={"day"}) for j in state.judgements],
        "published": [p.model_dump(mode="json") for p in state.published],
        "posts": [{"id": p.id, "character": p.character, "day": p.day, "text": p.text} for p in state.posts],
    }
    if state.result is not None or cancelled(state):
        view |= {
            "result": None if state.result is None else state.result.model_dump(mode="json"),
            "roles": [{"seat": i, "card": s.card.value, "role": s.role.value} for i, s in enumerate(state.seats)],
            "authors": {str(p.id): p.seat for p in state.posts},
            "timeline": [entry.model_dump(mode="json") for entry in state.timeline],
        }
    return view


def seat_view(state: SocialState, seat: int) -> dict[str, Any]:
    """The public view plus ``me``: ``{seat, card, role, character, alive, deprived, may_write_letter,
    letter_draft, may_send_clue, clue_draft, reviews: [{id, day, status}] (this seat's letters sent to the host),
    judgements_left, inbox: [{day, key, params}], ...}`` and, by role: killers ``partner``,
    ``recruit_available``, ``crime_available``, ``collected_cards: [{seat, card}]``; Doctor ``protecting``,
    ``last_protected``; Detective ``inspections: [{day, target, card}]``; Journalist ``interview``,
    ``note_draft``; Maniac ``kill_available``. Raises ``IllegalAction("asesino_social.not_a_player")`` for a
    seat that is not in the game."""
    require_player(state, seat)
    me = state.seats[seat]
    today = state.today
    mine: dict[str, Any] = {
        "seat": seat,
        "card": me.card.value,
        "role": me.role.value,
        "character": me.character,
        "alive": me.alive,
        "deprived": me.judged_day is not None,
        "may_write_letter": may_write_letter(state, seat),
        "letter_draft": today.letters.get(seat),
        "may_send_clue": may_send_clue(state, seat),
        "clue_draft": today.clues.get(seat),
        "reviews": [{"id": r.id, "day": r.day, "status": r.status} for r in state.reviews if r.seat == seat],
        "judgements_left": judgements_left(state, seat) if me.alive and me.judged_day is None else 0,
        "inbox": list(me.inbox),
    }
    if seat in (state.killer, state.accomplice):
        partner = state.accomplice if seat == state.killer else state.killer
        mine |= {
            "partner": partner,
            "recruit_available": seat == state.killer and state.accomplice is None,
            "crime_available": state.accomplice is not None and not today.crime,
            "collected_cards": [{"seat": i, "card": s.card.value} for i, s in enumerate(state.seats)
                                if s.death == "crime"],
        }
    if state.seat_with_power(SocialRole.DOCTOR) == seat:
        mine |= {"protecting": today.protected, "last_protected": state.last_protected}
    if state.seat_with_power(SocialRole.DETECTIVE) == seat:
        mine["inspections"] = [{"day": e.day, "target": e.target, "card": state.seats[e.target].card.value}
                               for e in state.timeline
                               if e.kind == "inspect" and e.seat == seat and e.target is not None]
    if state.seat_with_power(SocialRole.JOURNALIST) == seat:
        mine |= {"interview": today.interview, "note_draft": today.note}
    if state.seat_with_power(SocialRole.MANIAC) == seat:
        mine["kill_available"] = not today.maniac_kill
    return public_view(state) | {"me": mine}
