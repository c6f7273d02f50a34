"""Finished games' records: read back from the store (:mod:`bot.history.store`), replayed step by step and checked
against their stored outcome (:mod:`bot.history.record`, ``coroner replay``: :mod:`bot.history.command`), and told
as a timeline with every secret revealed (:mod:`bot.history.timeline`, shown by ``/history``)."""
