"""Errors a user can cause and fix: the CLI prints them as one line and exits with code 2."""


class BalanceError(ValueError):
    """Invalid input from the user: a rule value, a player count, a name, a file."""


class Interrupted(BalanceError):
    """Ctrl-C stopped a run before it had anything to show; the CLI exits with code 130."""
