"""Dealing the tabletop game: the role table per player count and the hands (edition ruling "Role table"
and "The discard icon")."""

from __future__ import annotations

from games.asesino.common import Card, side_of
from games.asesino.tabletop.models import Player, Prompt, TabletopOptions, TabletopState
from games.core import IllegalAction, rng_for

_COLUMNS: tuple[Card, ...] = ("victim", "detective", "prosecutor", "journalist", "doctor", "killer", "accomplice")

#: players -> how many of each role card (rulebook rows 5-7, edition rows 8-10)
ROLE_TABLE: dict[int, tuple[int, ...]] = {
    5: (3, 1, 0, 0, 0, 1, 0),
    6: (2, 1, 1, 0, 0, 1, 1),
    7: (3, 1, 1, 0, 0, 1, 1),
    8: (3, 1, 1, 1, 0, 1, 1),
    9: (3, 1, 1, 1, 1, 1, 1),
    10: (4, 1, 1, 1, 1, 1, 1),
}


def roles_for(players: int) -> list[Card]:
    """The role cards in play for ``players`` (in table order). Raises ``KeyError`` outside 5-10."""
    return [role for role, count in zip(_COLUMNS, ROLE_TABLE[players], strict=True) for _ in range(count)]


def hand_for(role: Card) -> tuple[list[Card], Card]:
    """The kept hand and the discarded card of a seat dealt ``role`` (it also takes 1 Good + 2 Bad):
    good roles keep Good + Bad, Killer and Accomplice keep Bad + Bad."""
    if side_of(role) == "evil":
        return [role, "bad", "bad"], "good"
    return [role, "good", "bad"], "bad"


def deal(options: TabletopOptions, players: int, seed: int) -> TabletopState:
    """A fresh game: roles shuffled from the seed, hands dealt, the first player drawn (or
    ``options.first_player``) and asked for the direction. Raises ``core.bad_player_count`` and
    ``asesino.error.bad_first_player``."""
    if players not in ROLE_TABLE:
        raise IllegalAction("core.bad_player_count", count=players)
    if options.first_player is not None and options.first_player >= players:
        raise IllegalAction("asesino.error.bad_first_player", seat=options.first_player)
    rng = rng_for(seed, "deal")
    roles = roles_for(players)
    rng.shuffle(roles)
    seats: list[Player] = []
    discard: list[Card] = []
    for role in roles:
        hand, dropped = hand_for(role)
        seats.append(Player(role=role, hand=hand))
        discard.append(dropped)
    first = options.first_player if options.first_player is not None else rng.randrange(players)
    return TabletopState(seed=seed, seats=seats, discard=discard, first=first, turn=first,
                         prompt=Prompt(kind="direction", seat=first))
