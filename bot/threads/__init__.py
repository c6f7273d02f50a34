"""Private threads of a game: the dead and watchers, the Killer and Accomplice, interviews (:mod:`.service`)."""

from bot.threads.service import GameThreads

__all__ = ["GameThreads"]
