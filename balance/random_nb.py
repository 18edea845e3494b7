"""The random draws a strategy file may call, under the name earlier templates imported
(``from balance.random_nb import below_nb``): they live in :mod:`balance.core.random_nb`,
and strategy files written before keep loading. New files take them from their game's kit.
"""

from balance.core.random_nb import below_nb, next_u64_nb

__all__ = ["below_nb", "next_u64_nb"]
