"""The one exception an operator's mistake becomes (a setting, the database, the token, the API base)."""


class StartupError(Exception):
    """Something the operator must fix before the bot can run; the message is one line naming what to fix and
    never contains a password. ``coroner`` prints it as ``coroner: <message>`` and exits 2."""
