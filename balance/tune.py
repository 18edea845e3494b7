"""``balance.tune.tune(...)``: race rule sets against design targets from Python.

>>> from balance.tune import tune
>>> result = tune("walk-the-plank", players=[5], axes=["plank_max=3..6"],
...               targets=["length_mean=6..10"])          # doctest: +SKIP
>>> [p["rules"] for p in result.feasible()]               # doctest: +SKIP

The same as ``balance tune`` (docs/tune.md): :class:`TuneResult` holds every raced rule
set's verdict, intervals and games (``.points``, ``.to_json()``), the tidy table
(``.table``) and the verdicts (``.verdicts``).
"""

from balance.analyses.tune import TuneResult, load_tune, tune

__all__ = ["TuneResult", "load_tune", "tune"]
