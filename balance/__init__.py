"""balance: a Monte Carlo game-balance analyser.

Compiled rules engines play many games of a board or card game with pluggable
strategies; the Python layer validates, orchestrates and reports.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("balance")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
