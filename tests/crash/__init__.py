"""The crash test: the bot runs as a separate process against the Discord double and is killed with SIGKILL at
random points during a scripted stream of Hot Potato moves over many games (``python -m tests.crash --help``).
"""
