"""Intervals for rates, means and ratios, checked against published values and scipy."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from balance.stats.intervals import (
    mean_interval,
    mean_interval_from_sums,
    ratio_interval,
    ratio_interval_from_sums,
    wilson_interval,
)

ROOT = Path(__file__).resolve().parents[1]


def wilson_closed_form(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval written out (Newcombe 1998, method 3), independently."""
    z = stats.norm.ppf(0.5 + level / 2)
    p = successes / trials
    centre = 2 * successes + z**2
    spread = z * math.sqrt(z**2 + 4 * successes * (1 - p))
    denominator = 2 * (trials + z**2)
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


# Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (score interval).
NEWCOMBE_TABLE_I = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE_TABLE_I)
def test_published_values_agree_with_the_closed_form(successes, trials, low, high) -> None:
    # Check the reference values themselves before holding the library to them.
    expected_low, expected_high = wilson_closed_form(successes, trials)
    assert round(expected_low, 4) == pytest.approx(low, abs=1e-12)
    assert round(expected_high, 4) == pytest.approx(high, abs=1e-12)


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE_TABLE_I)
def test_wilson_matches_newcombe_table_i(successes, trials, low, high) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert round(float(got_low), 4) == pytest.approx(low, abs=1e-12)
    assert round(float(got_high), 4) == pytest.approx(high, abs=1e-12)
    expected_low, expected_high = wilson_closed_form(successes, trials)
    assert float(got_low) == pytest.approx(expected_low, abs=1e-12)
    assert float(got_high) == pytest.approx(expected_high, abs=1e-12)


def test_wilson_other_level() -> None:
    low, high = wilson_interval(81, 263, level=0.99)
    expected = wilson_closed_form(81, 263, level=0.99)
    assert (float(low), float(high)) == pytest.approx(expected, abs=1e-12)
    # A 99% interval is wider than the 95% one.
    assert float(low) < 0.2553 and float(high) > 0.3662


def test_wilson_is_vectorised() -> None:
    successes = np.array([[0, 3, 7], [10, 81, 15]])
    trials = np.array([[10, 10, 10], [10, 263, 148]])
    low, high = wilson_interval(successes, trials)
    assert low.shape == high.shape == (2, 3)
    for index in np.ndindex(successes.shape):
        expected = wilson_closed_form(int(successes[index]), int(trials[index]))
        assert (low[index], high[index]) == pytest.approx(expected, abs=1e-12), index


def test_wilson_broadcasts_a_scalar_number_of_trials() -> None:
    low, high = wilson_interval(np.array([0, 5, 20]), 20)
    assert low.shape == (3,)
    for k, successes in enumerate([0, 5, 20]):
        expected = wilson_closed_form(successes, 20)
        assert (low[k], high[k]) == pytest.approx(expected, abs=1e-12)
    assert high[2] == pytest.approx(1.0, abs=1e-12)
    assert low[0] == 0.0


def test_wilson_with_no_trials_is_uninformative() -> None:
    low, high = wilson_interval(0, 0)
    assert (float(low), float(high)) == (0.0, 1.0)
    low, high = wilson_interval(np.array([0, 4, 0]), np.array([0, 8, 0]))
    assert low.tolist()[0::2] == [0.0, 0.0]
    assert high.tolist()[0::2] == [1.0, 1.0]
    # The entry with trials is a real interval, not the uninformative one.
    assert (low[1], high[1]) == pytest.approx(wilson_closed_form(4, 8), abs=1e-12)


def test_wilson_contains_the_rate() -> None:
    successes = np.arange(1, 50)
    low, high = wilson_interval(successes, 50)
    rate = successes / 50
    assert np.all(low < rate) and np.all(rate < high)
    assert np.all(low > 0) and np.all(high < 1)
    assert np.all(np.diff(low) > 0) and np.all(np.diff(high) > 0)


def test_wilson_bounds_are_exact_at_zero_and_all_successes() -> None:
    trials = np.arange(1, 2001)
    low, _ = wilson_interval(0, trials)
    _, high = wilson_interval(trials, trials)
    assert np.all(low == 0.0), trials[low != 0.0][:10]
    assert np.all(high == 1.0), trials[high != 1.0][:10]


SAMPLE = np.array([2.0, 4.0, 4.0, 5.0, 7.0, 8.0])


def test_mean_interval_matches_student_t() -> None:
    mean, low, high = mean_interval(SAMPLE)
    assert mean == 5.0  # 30 / 6
    # Sum of squared deviations 24, so the sample variance is 24 / 5.
    sem = math.sqrt(24 / 5) / math.sqrt(6)
    expected = stats.t.interval(0.95, df=5, loc=5.0, scale=sem)
    assert (low, high) == pytest.approx(expected, rel=1e-12)
    # t(0.975, 5) = 2.5706 in printed tables (2.570581835636315 to 16 digits).
    assert high - low == pytest.approx(2 * 2.570581835636315 * sem, rel=1e-12)


def test_mean_interval_other_level() -> None:
    _, low, high = mean_interval(SAMPLE, level=0.9)
    sem = math.sqrt(24 / 5) / math.sqrt(6)
    assert (low, high) == pytest.approx(stats.t.interval(0.9, df=5, loc=5.0, scale=sem))


def test_a_count_s_interval_stops_at_zero() -> None:
    # Twenty games, two of them with a few reveals: the t interval reaches below zero.
    counts = np.array([0] * 18 + [4, 13], dtype=float)
    mean, low, high = mean_interval(counts)
    assert low < 0
    cut = mean_interval(counts, floor=0.0)
    assert cut == (mean, 0.0, high)
    sums = mean_interval_from_sums(20, 17, 16 + 169, floor=0.0)
    assert sums[1] == 0.0 and sums[2] == pytest.approx(high)
    assert mean_interval(counts + 50, floor=0.0) == mean_interval(counts + 50)


def test_a_count_per_use_interval_stops_at_zero() -> None:
    # Pirates felled per use: one felled in 20 games of 3 uses each reaches below zero.
    felled = np.array([0] * 19 + [1], dtype=float)
    uses = np.full(20, 3.0)
    ratio, low, high = ratio_interval(felled, uses)
    assert low < 0
    assert ratio_interval(felled, uses, floor=0.0) == (ratio, 0.0, high)
    sums = ratio_interval_from_sums(20, 1, 60, 1, 3, 180, floor=0.0)
    assert sums == pytest.approx((ratio, 0.0, high))
    assert ratio_interval(felled + 5, uses, floor=0.0) == ratio_interval(felled + 5, uses)


def test_mean_interval_of_too_few_values() -> None:
    mean, low, high = mean_interval(np.array([3.5]))
    assert mean == 3.5 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in mean_interval(np.array([])))


def test_ratio_on_a_hand_made_table() -> None:
    effects = np.array([1, 0, 2, 3])
    reveals = np.array([2, 1, 2, 5])
    ratio, low, high = ratio_interval(effects, reveals)
    assert ratio == pytest.approx(0.6, abs=1e-15)  # 6 / 10
    # Delta method by hand: residuals y - 0.6 x are -0.2, -0.6, 0.8, 0.
    variance = 4 / 3 * (0.04 + 0.36 + 0.64 + 0.0) / 10**2
    half = stats.norm.ppf(0.975) * math.sqrt(variance)
    assert (low, high) == pytest.approx((0.6 - half, 0.6 + half), rel=1e-12)


def test_ratio_interval_covers_the_true_ratio_about_95_percent() -> None:
    rng = np.random.default_rng(20261125)
    repetitions, games, true_ratio = 400, 300, 0.4
    covered = 0
    for _ in range(repetitions):
        # Clustered events: each game has its own success probability (mean 0.4).
        reveals = rng.poisson(2.0, games)
        chance = rng.beta(2.0, 3.0, games)
        effects = rng.binomial(reveals, chance)
        _, low, high = ratio_interval(effects, reveals)
        covered += low <= true_ratio <= high
    coverage = covered / repetitions
    assert 0.90 <= coverage <= 0.99, coverage


def test_ratio_with_zero_denominators_is_nan() -> None:
    assert all(math.isnan(v) for v in ratio_interval(np.zeros(5), np.zeros(5)))
    assert all(math.isnan(v) for v in ratio_interval(np.array([]), np.array([])))


def test_ratio_of_a_single_game_has_no_interval() -> None:
    ratio, low, high = ratio_interval(np.array([1]), np.array([4]))
    assert ratio == 0.25 and math.isnan(low) and math.isnan(high)


def declared_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = set()
    for requirement in project["dependencies"]:
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
        names.add(name.lower().replace("_", "-"))
    return names


def test_wilson_interval_is_statsmodels_wilson_term_for_term() -> None:
    from statsmodels.stats.proportion import proportion_confint

    trials = np.array([1, 2, 7, 20, 263, 10_000, 3_000_000])
    for level in (0.95, 0.9, 0.99):
        for share in (0.0, 0.003, 0.31, 0.5, 0.97, 1.0):
            wins = np.rint(trials * share)
            low, high = wilson_interval(wins, trials, level)
            ref_low, ref_high = proportion_confint(wins, trials, 1 - level, method="wilson")
            inside = (wins > 0) & (wins < trials)  # balance pins the edges at 0 and 1
            np.testing.assert_allclose(low[inside], ref_low[inside], rtol=1e-14, atol=0)
            np.testing.assert_allclose(high[inside], ref_high[inside], rtol=1e-14, atol=0)
            assert np.all(low[wins == 0] == 0) and np.all(high[wins == trials] == 1)
    assert "statsmodels" in declared_dependencies()  # Holm's correction and the oracle


def test_quantiles_are_scipy_stats_quantiles() -> None:
    from balance.stats.intervals import normal_quantile, t_quantile

    for p in (0.025, 0.5, 0.95, 0.975, 0.995):
        assert normal_quantile(p) == stats.norm.ppf(p)
        for df in (1, 2, 9, 999, 10**8):
            assert t_quantile(p, df) == stats.t.ppf(p, df)


def test_share_interval_stays_within_zero_and_one() -> None:
    from balance.stats.intervals import ratio_interval, share_interval

    wins = np.zeros(1000)
    wins[3] = 1
    plays = np.ones(1000)
    rate, low, high = share_interval(wins, plays)
    raw = ratio_interval(wins, plays)
    assert raw[1] < 0  # the normal interval of a rare share reaches below 0
    # One trial a game: no clustering, so the interval is Wilson's on the trials (999 of
    # them: the delta method's variance carries the factor games / (games - 1)).
    assert rate == raw[0] == 0.001
    assert (low, high) == pytest.approx(wilson_closed_form(0.999, 999), abs=1e-12)
    assert low > 0
    # 999 of 1,000: the normal interval passes 1, the share's does not.
    most = plays.copy()
    most[0] = 0
    rate, low, high = share_interval(most, plays)
    assert rate == 0.999 and ratio_interval(most, plays)[2] > 1
    assert (low, high) == pytest.approx(wilson_closed_form(0.999 * 999, 999), abs=1e-12)
    assert 0.99 < low < 0.999 < high < 1
    # All successes: the upper bound is 1, the lower bound below it.
    rate, low, high = share_interval(plays, plays)
    assert (rate, high) == (1.0, 1.0)
    assert low == pytest.approx(wilson_closed_form(1000, 1000)[0], abs=1e-12) and low < 1


def test_share_interval_widens_by_the_design_effect() -> None:
    """Trials clustered in games: Wilson at the trials divided by the design effect."""
    from balance.stats.intervals import ratio_interval, share_interval

    # Games of 4 trials that succeed or fail together: 4 trials carry one game's worth.
    successes = np.array([4, 0, 4, 4, 0, 4, 0, 4, 4, 4] * 10)
    trials = np.full(100, 4)
    rate, low, high = share_interval(successes, trials)
    assert rate == 0.7
    _, r_low, r_high = ratio_interval(successes, trials)
    z = stats.norm.ppf(0.975)
    variance = ((r_high - r_low) / (2 * z)) ** 2
    effective = 0.7 * 0.3 / variance  # about 100 games' worth, not 400 trials
    assert 95 < effective < 105
    assert (low, high) == pytest.approx(wilson_closed_form(0.7 * effective, effective), rel=1e-9)
    independent = wilson_closed_form(280, 400)
    assert high - low > 1.9 * (independent[1] - independent[0])


def test_share_interval_never_narrower_than_the_trials_allow() -> None:
    """A design effect below 1 (games that spread successes evenly) counts as 1."""
    from balance.stats.intervals import share_interval

    successes = np.array([2] * 198 + [1, 3])
    trials = np.full(200, 4)
    rate, low, high = share_interval(successes, trials)
    assert rate == 0.5
    assert (low, high) == pytest.approx(wilson_closed_form(400, 800), abs=1e-12)


def test_share_interval_without_trials_or_with_one_game() -> None:
    from balance.stats.intervals import share_interval

    assert all(math.isnan(v) for v in share_interval(np.zeros(3), np.zeros(3)))
    rate, low, high = share_interval(np.array([2]), np.array([3]))
    assert rate == pytest.approx(2 / 3) and math.isnan(low) and math.isnan(high)


def test_still_running_curve_is_scipys_kaplan_meier() -> None:
    from balance.stats.intervals import still_running_curve

    rng = np.random.default_rng(3)
    length, stop = rng.integers(1, 12, 300), rng.integers(3, 15, 300)
    lengths, finished = np.minimum(length, stop), length <= stop
    running, variance, at_risk = still_running_curve(lengths, finished)
    assert running.shape == variance.shape == at_risk.shape == (lengths.max() + 1,)
    fit = stats.ecdf(stats.CensoredData(uncensored=lengths[finished], right=lengths[~finished]))
    after = np.arange(running.size)
    assert running == pytest.approx(fit.sf.evaluate(after), abs=1e-12)
    # scipy's linear interval is Greenwood's: S ± z sqrt(variance), cut to [0, 1].
    with pytest.warns(RuntimeWarning):  # scipy warns where the interval is undefined
        low = fit.sf.confidence_interval(0.95).low.evaluate(after)
    z = stats.norm.ppf(0.975)
    known = ~np.isnan(low)
    expected = np.clip(running - z * np.sqrt(variance), 0, 1)
    assert low[known] == pytest.approx(expected[known], abs=1e-12)
    assert at_risk.tolist() == [int((lengths >= r).sum()) for r in after]


def test_still_running_curve_with_one_cap_is_the_plain_share() -> None:
    from balance.stats.intervals import still_running_curve

    lengths = np.array([1, 2, 2, 3, 5, 5, 5])
    finished = np.array([True, True, True, True, True, False, False])  # two stopped at 5
    running, variance, _ = still_running_curve(lengths, finished)
    # Running after r: longer than r, or stopped unfinished at r (still running then).
    plain = np.array([((lengths > r) | ~finished & (lengths == r)).mean() for r in range(6)])
    assert running == pytest.approx(plain, abs=1e-12)
    assert variance == pytest.approx(plain * (1 - plain) / 7, abs=1e-12)


def test_length_median_worked_by_hand() -> None:
    from balance.stats.intervals import length_median

    # 10 games: 2 of length 3, 6 of length 4, 2 of length 5. Still running after 3: 0.8,
    # after 4: 0.2. Read at 3.5 and 4.5 and joined: 0.5 is crossed at 3.5 + 0.3 / 0.6.
    lengths = np.array([3, 3, 4, 4, 4, 4, 4, 4, 5, 5])
    median, low, high = length_median(lengths, np.ones(10, dtype=bool))
    assert median == pytest.approx(4.0, abs=1e-12)
    # Where the band S ± z sd holds 0.5, S and its variance joined linearly.
    z = stats.norm.ppf(0.975)

    def band_holds_half(m: float) -> bool:
        w = m - 3.5
        s = (1 - w) * 0.8 + w * 0.2
        # Per game, the value spread over the segment: 1 past 4, 1 - w at 4, 0 before.
        second = 0.2 + (1 - w) ** 2 * 0.6
        return abs(s - 0.5) <= z * math.sqrt((second - s**2) / 10 * (1 - 1e-12))

    grid = np.linspace(3.5, 4.5, 100_001)
    inside = grid[[band_holds_half(m) for m in grid]]
    assert (low, high) == pytest.approx((inside.min(), inside.max()), abs=1e-4)
    assert low < median < high


def test_length_median_with_most_games_unfinished_lies_beyond() -> None:
    from balance.stats.intervals import length_median

    lengths = np.array([2, 3, 10, 10, 10, 10])
    finished = np.array([True, True, False, False, False, False])
    median, low, high = length_median(lengths, finished)
    assert math.isnan(median) and math.isnan(high)
    # Half of the games still running is not ruled out past 2.5, but beyond the cap it is
    # unknown: the interval has a lower bound only.
    assert 2.5 <= low < 10


def test_restricted_mean_with_one_cap_is_the_mean_of_the_lengths() -> None:
    from balance.stats.intervals import restricted_mean

    rng = np.random.default_rng(5)
    length = rng.geometric(0.1, 2000)
    lengths, finished = np.minimum(length, 20), length <= 20
    mean, low, high = restricted_mean(lengths, finished, 20)
    assert mean == pytest.approx(lengths.mean(), rel=1e-12)
    # Greenwood's variance of the area: about the variance of the capped lengths over n.
    half = stats.norm.ppf(0.975) * lengths.std() / math.sqrt(lengths.size)
    assert (high - low) / 2 == pytest.approx(half, rel=0.01)
    # Restricted to less, the mean of min(length, 10).
    assert restricted_mean(lengths, finished, 10)[0] == pytest.approx(
        np.minimum(lengths, 10).mean(), rel=1e-12
    )


def test_restricted_mean_counts_unfinished_games_as_running_where_they_stopped() -> None:
    from balance.stats.intervals import restricted_mean

    # Game lengths 1, 2, 3, 4; one more stopped after 2 (unfinished). Kaplan-Meier:
    # running after 0: 1; after 1: 4/5; after 2: 4/5 * 3/4 (4 followed at 2, the
    # unfinished one among them, 1 ended); after 3: 0.6 * 1/2 (2 followed, 1 ended).
    # Area up to 4: 1 + 0.8 + 0.6 + 0.3.
    lengths = np.array([1, 2, 3, 4, 2])
    finished = np.array([True, True, True, True, False])
    mean, _, _ = restricted_mean(lengths, finished, 4)
    assert mean == pytest.approx(1 + 0.8 + 0.6 + 0.3, abs=1e-12)
    assert mean > lengths.mean()  # the plain mean counts the unfinished game at 2
    with pytest.raises(ValueError, match="unknown"):
        restricted_mean(np.array([3, 5]), np.array([True, False]), 7)
