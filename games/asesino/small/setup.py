"""Dealing the 2-4 player game (rulebook "How to Play, 2-4 Player Mode", 1; edition ruling on identities:
"Identity role cards ... are each player's identity AND a card in their hand, on top of the deal")."""

from __future__ import annotations

from random import Random

from games.asesino.common import Card
from games.asesino.small.models import Column, Slot, SmallOptions, SmallPlayer, SmallState
from games.core import IllegalAction, rng_for

MODE_ROLES: tuple[Card, ...] = ("killer", "accomplice", "detective", "prosecutor", "doctor", "journalist")
COLUMNS = 6
BAD_COUNT = 7
GOOD_COUNT = 5
#: players -> (cards dealt to each player, face-down cards in the first row)
DEAL: dict[int, tuple[int, int]] = {2: (6, 4), 3: (4, 3), 4: (3, 2)}


def identities_for(players: int, rng: Random) -> list[Card]:
    """The identity cards for ``players`` (unshuffled): Detective and Killer, plus one random other role at 3
    players, plus Prosecutor and Accomplice at 4."""
    if players == 2:
        return ["detective", "killer"]
    if players == 3:
        return ["detective", "killer", rng.choice(["accomplice", "prosecutor", "doctor", "journalist"])]
    return ["detective", "killer", "prosecutor", "accomplice"]


def deck_for(identities: list[Card]) -> list[Card]:
    """Every mode role card that is nobody's identity, plus 7 Bad and 5 Good (16/15/14 cards)."""
    return [card for card in MODE_ROLES if card not in identities] + ["bad"] * BAD_COUNT + ["good"] * GOOD_COUNT


def deal(options: SmallOptions, players: int, seed: int) -> SmallState:
    """Identities drawn, the deck dealt (6/4/3 cards each, 4/3/2 in the first row); each hand starts with its
    owner's identity card on top of the deal. Raises ``core.bad_player_count`` and
    ``asesino.error.bad_first_player``."""
    if players not in DEAL:
        raise IllegalAction("core.bad_player_count", count=players)
    if options.first_player is not None and options.first_player >= players:
        raise IllegalAction("asesino.error.bad_first_player", seat=options.first_player)
    rng = rng_for(seed, "deal")
    identities = identities_for(players, rng)
    rng.shuffle(identities)
    deck = deck_for(identities)
    rng.shuffle(deck)
    per_player, first_row = DEAL[players]
    seats = [SmallPlayer(identity=identity, hand=[identity] + [deck.pop() for _ in range(per_player)])
             for identity in identities]
    columns = [Column(slots=[Slot(card=deck.pop())] if index < first_row else []) for index in range(COLUMNS)]
    assert not deck, "the deal uses the whole deck"
    first = options.first_player if options.first_player is not None else rng.randrange(players)
    return SmallState(seed=seed, seats=seats, columns=columns, turn=first)
