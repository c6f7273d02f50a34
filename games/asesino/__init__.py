"""Asesino en Serie: a hidden-role deduction game with intention cards.

Each mode lives in its own package and registers its engine on import; importing this package registers all three
(``games.core.registry`` discovers games by importing their packages):

* ``games.asesino.tabletop`` — the 5-10 player table game (mode ``tabletop``);
* ``games.asesino.small`` — the 2-4 player column game (mode ``small``);
* ``games.asesino.social`` — the real-time social game (mode ``social``).

``games.asesino.common`` holds the cards and the destiny arithmetic shared by the card modes;
``games.asesino.series`` scores the three-round points series. Our rules summary and rulings: ``README.md``.
"""

import importlib as _importlib

for _mode in ("tabletop", "small", "social"):  # registers the three modes, in the order the lobby lists them
    _importlib.import_module(f"games.asesino.{_mode}")
_importlib.import_module("games.asesino.ai")  # registers the computer players of the three modes
