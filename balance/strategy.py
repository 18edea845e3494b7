"""What a strategy file imports: the :class:`Strategy` that names its compiled functions.

The type lives in :mod:`balance.core.strategy`, beside the parsing and checking the
runner uses; this module is its public name, the one the templates and docs show.
"""

from balance.core.strategy import MAX_PARAMS, Strategy

__all__ = ["MAX_PARAMS", "Strategy"]
