"""How shares read in the CLI's text."""

from __future__ import annotations

import math

from balance.core.formatting import interval, percent


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


def test_a_difference_of_shares_is_ticked_in_signed_points_without_a_percent_sign() -> None:
    from balance.reports.charts import plot_intervals

    figure = plot_intervals(
        ["a", "b"],
        [-0.03, 0.01],
        [-0.045, 0.0],
        [-0.015, 0.02],
        title="t",
        xlabel="change (percentage points)",
        note="",
        points=True,
    )
    ax = figure.axes[0]
    ax.set_xlim(-0.05, 0.03)
    figure.canvas.draw()
    labels = [tick.get_text() for tick in ax.get_xticklabels() if tick.get_text()]
    assert labels and not any("%" in text for text in labels)
    assert "0" in labels and "\u22124.0" in labels and "+2.0" in labels
