"""``coroner simulate``: watch a whole game of any registered mode, played by computer seats (each game's own policy,
seeded), with no
Discord, token or database (the driver: :mod:`bot.simulate.driver`; the words: :mod:`bot.simulate.transcript`).

``coroner simulate GAME [--mode M] [--players N] [--seed S] [--lang en|es] [--option KEY=VALUE ...] [--reveal]
[--json]`` (options checked as ``/newgame`` checks them, :mod:`bot.simulate.options`) prints the public
transcript (``--reveal`` adds every private message), or with ``--json`` the game's record for replay
(:func:`bot.simulate.record.record`), checked first: the printed actions must rebuild the final state from the seed.
"""
