"""Errors a user can cause and fix: the CLI prints them as one line and exits with code 2."""


class BalanceError(ValueError):
    """Invalid input from the user: a rule value, a player count, a name, a file."""


class Interrupted(BalanceError):
    """Ctrl-C stopped a run before it had anything to show; the CLI exits with code 130."""


def error_line(error: BaseException) -> str:
    """Any exception in one line, ``Type: first line of its message`` (a game's own code
    may raise anything; the user reads one line, not a traceback)."""
    said = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    return f"{type(error).__name__}: {said}" if said else type(error).__name__
