"""An independent rules checker for Let's Kill!, written from the rulebook (RB) and the card edition v1.1 alone.

It reads the card tables straight from ``shared/rules/editions/lets-kill-edition.md`` and models, without the
engine's internals: placement options (LK-04, LK-13..15), Step-2 legality (LK-05, W1, LK-10, LK-22..27, §9.1, §9.8,
§9.10), response legality (LK-16..21), shootout pledges (§7.7, §9.14), scoring (§7.5), card conservation, the 20-point
declaration and the end of the game (LK-30..33, §9.9, §9.11).
"""
