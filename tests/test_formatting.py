"""How shares read in the CLI's text."""

from __future__ import annotations

import math

from balance.formatting import interval, percent


def test_a_share_reads_with_one_decimal() -> None:
    assert percent(0.344) == "34.4%"
    assert percent(0.0) == "0.0%"
    assert percent(1.0) == "100.0%"
    assert percent(math.nan) == "n/a"


def test_a_share_near_but_not_at_the_ends_never_reads_as_none_or_all() -> None:
    # One game in a million stopped by the cap: not "100.0% finished".
    assert percent(1 - 1e-6) == ">99.9%"
    assert percent(0.9995) == ">99.9%"
    assert percent(0.99949) == "99.9%"
    assert percent(1e-6) == "<0.1%"
    assert percent(0.0004999) == "<0.1%"
    assert percent(0.0005) == "0.1%"
    assert interval([0.999990, 1.0]) == "[>99.9%, 100.0%]"
