"""balance: a Monte Carlo game-balance analyser.

Compiled rules engines play many games of a board or card game with pluggable
strategies; the Python layer validates, orchestrates and reports.
"""

from __future__ import annotations

from functools import cache

__all__ = ["__version__"]


@cache
def _version() -> str:
    """The installed package's version (read once: importlib.metadata is slow to load)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("balance")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0+unknown"


def __getattr__(name: str) -> str:
    """``balance.__version__``, looked up when first asked for (PEP 562)."""
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
