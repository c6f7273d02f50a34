"""Asesino en Serie: a hidden-role deduction game with intention cards.

Each mode lives in its own package and registers its engine on import (see ``games.core.registry.BUILTIN``):

* ``games.asesino.tabletop`` — the 5-10 player table game (mode ``tabletop``);
* ``games.asesino.small`` — the 2-4 player column game (mode ``small``);
* ``games.asesino.social`` — the real-time social game (mode ``social``).

``games.asesino.common`` holds the cards and the destiny arithmetic shared by the card modes;
``games.asesino.series`` scores the three-round points series. Our rules summary and rulings: ``README.md``.
"""
