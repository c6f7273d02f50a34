"""No-leak checks: what a public (game channel) or medium event and the public view may contain before the end."""

from __future__ import annotations

import json
from typing import Any

from games.asesino.social import SocialRole, SocialState
from games.core import Event

#: public/medium event key -> its exact parameter names (none of them a role or a secret action's author)
PUBLIC_PARAMS: dict[str, set[str]] = {
    "asesino_social.intro.start": {"players", "to_win", "ends_at"},
    "asesino_social.death": {"seat", "murders", "to_win"},
    "asesino_social.judgement.opened": {"judgement", "accused", "opener", "expires_at", "needed"},
    "asesino_social.judgement.backed": {"judgement", "accused", "backer", "backers", "needed"},
    "asesino_social.judgement.stood": {"judgement", "accused", "card", "backers"},
    "asesino_social.judgement.expired": {"judgement", "accused"},
    "asesino_social.judgement.void": {"judgement", "accused"},
    "asesino_social.anonymous_post": {"post", "character", "text"},
    "asesino_social.letter": {"seat", "day", "text"},
    "asesino_social.note": {"interviewee", "day", "text"},
    "asesino_social.day.ended": {"day", "next_day", "ends_at"},
    "asesino_social.day.last": {"day", "ends_at"},
    "asesino_social.clue": {"day", "text"},
}
END_KEYS = {"asesino_social.end.killer_judged", "asesino_social.end.maniac_killed_killer", "asesino_social.end.time_up",
            "asesino_social.end.criminals_win", "asesino_social.end.roles", "asesino_social.end.authors",
            "asesino_social.end.timeline"}
ROLE_WORDS = {f'"{role.value}"' for role in SocialRole}


def check_public_event(event: Event, state: SocialState) -> None:
    """``event`` (public or medium) reveals nothing secret; end events only once ``state`` is over."""
    if event.key in END_KEYS:
        assert state.result is not None, event.key
        return
    assert set(event.params) == PUBLIC_PARAMS[event.key], event
    if event.key == "asesino_social.judgement.stood":
        accused = state.seats[event.params["accused"]]
        assert accused.judged_day is not None and event.params["card"] == accused.card.value
        return
    assert not ROLE_WORDS & {json.dumps(value) for value in event.params.values()}, event


def check_public_view(view: dict[str, Any], state: SocialState) -> None:
    """Before the end the public view has no role (except judged players' shown cards), no death cause, no
    author of a post or private action."""
    if state.result is not None:
        return
    assert not {"result", "roles", "authors", "timeline"} & set(view)
    for seat in view["seats"]:
        assert set(seat) == {"seat", "alive", "deprived", "shown_card"}
        assert (seat["shown_card"] is None) is (not seat["deprived"])
    stripped = {**view, "seats": [{**s, "shown_card": None} for s in view["seats"]]}
    text = json.dumps(stripped)
    assert not any(word in text for word in ROLE_WORDS), text
    assert all(set(post) == {"id", "character", "day", "text"} for post in view["posts"])
