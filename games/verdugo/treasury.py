"""Crowns: losses to the Treasury, rewards from it, the Jester's steal (edition §9.3, R2, R25, R26).

The Treasury is ``total_crowns - sum(crowns)`` at every moment. A payment out of the Treasury that cannot be
made in full, or that leaves it at 0, ends the match at once: :class:`TreasuryEmpty` unwinds the round and the
engine closes the match with every payment made so far standing.
"""

from __future__ import annotations

from games.core import Event
from games.verdugo.cards import rewards
from games.verdugo.models import VerdugoState


class TreasuryEmpty(Exception):
    """The Treasury ran out (R26): the match ends at once."""


def treasury(s: VerdugoState) -> int:
    """Crowns left in the Treasury."""
    return rewards().total_crowns - sum(s.crowns)


def lose(s: VerdugoState, seat: int, amount: int, ev: list[Event]) -> int:
    """``seat`` pays up to ``amount`` to the Treasury (never below 0, R25); returns what was paid."""
    paid = min(amount, s.crowns[seat])
    s.crowns[seat] -= paid
    if paid:
        ev.append(Event(key="verdugo.crowns.lost", params={"seat": seat, "amount": paid, "crowns": s.crowns[seat]}))
    return paid


def gain(s: VerdugoState, seat: int, amount: int, ev: list[Event]) -> None:
    """The Treasury pays ``amount`` to ``seat``, or what it has. Raises :class:`TreasuryEmpty` when it could not
    pay in full or is left at 0 (§9.3)."""
    if amount <= 0:
        return
    paid = min(amount, treasury(s))
    s.crowns[seat] += paid
    ev.append(Event(key="verdugo.crowns.gained", params={"seat": seat, "amount": paid, "crowns": s.crowns[seat]}))
    if paid < amount or treasury(s) == 0:
        raise TreasuryEmpty


def steal(s: VerdugoState, jester: int, times: int, ev: list[Event]) -> None:
    """JESTER_STEAL (§7.3): from every other player in seating order from the Jester's left, ``times`` Crowns
    each; the Treasury pays for a player at 0. One public event sums it up (``amount`` in all, ``from_treasury`` of
    it paid by the Treasury). Raises :class:`TreasuryEmpty` as :func:`gain`."""
    n = len(s.seats)
    before, bank = s.crowns[jester], treasury(s)
    try:
        for i in range(1, n):
            victim = (jester + i) % n
            for _ in range(times):
                if s.crowns[victim] >= 1:
                    s.crowns[victim] -= 1
                    s.crowns[jester] += 1
                    continue
                if treasury(s) < 1:
                    raise TreasuryEmpty
                s.crowns[jester] += 1
                if treasury(s) == 0:
                    raise TreasuryEmpty
    finally:
        ev.append(Event(key="verdugo.crowns.stolen", params={
            "seat": jester, "amount": s.crowns[jester] - before, "from_treasury": bank - treasury(s),
            "crowns": s.crowns[jester]}))
