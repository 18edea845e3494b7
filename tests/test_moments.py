"""Running sums: a run that keeps no records prints the figures its records give."""

from __future__ import annotations

import math

import numpy as np
import pytest

from balance import api
from balance.core.game import Block, Setup
from balance.run.moments import RunSums
from balance.run.runner import RunResult, run_games
from balance.run.summary import summarize
from balance.stats.intervals import (
    length_counts,
    mean_interval,
    mean_interval_from_sums,
    ratio_interval,
    ratio_interval_from_sums,
    share_interval,
)
from balance.stats.metrics import (
    balance_index_from_moments,
    balance_index_interval,
    length_summary,
    length_summary_from_counts,
)

#: name: (game, options, games). A few hundred games each: the figures are compared,
#: not estimated, and the slower engines (heuristics, Battle of Thieves) stay fast.
SETUPS = {
    "five-random-seed-0": ("walk-the-plank", dict(players=5, seed=0), 1500),
    "three-ghost-dolphin": (
        "walk-the-plank",
        dict(players=3, seed=7, variants=("ghost", "dolphin")),
        1500,
    ),
    "two-kraken": ("walk-the-plank", dict(players=2, seed=123, variants=("kraken",)), 1500),
    "mixed-rotated": (
        "walk-the-plank",
        dict(
            players=4,
            seed=5,
            strategies=["aggressor", "random", "greedy", "weighted:leader=2"],
            variants=("dolphin", "kraken"),
            rotate_seats=True,
        ),
        1500,
    ),
    "capped": ("walk-the-plank", dict(players=4, seed=2, rules={"round_cap": 5}), 1500),
    "la-planche-four": ("la-planche", dict(players=4, seed=0), 600),
    "la-planche-two-rounds": (
        "la-planche",
        dict(players=2, seed=3, variants=("rounds",), rules={"target": 8}),
        300,
    ),
    "la-planche-mixed-restricted": (
        "la-planche",
        dict(
            players=3,
            seed=11,
            strategies=["protector", "random", "random"],
            rotate_seats=True,
            restricted=("swap",),
        ),
        300,
    ),
    "la-planche-rounds-mixed": (
        "la-planche",
        dict(players=3, seed=4, strategies=["detective", "random", "random"], variants=("rounds",)),
        200,
    ),
    "la-planche-capped": ("la-planche", dict(players=4, seed=9, rules={"turn_cap": 12}), 400),
    "lifeboats-three": ("lifeboats", dict(players=3, seed=0), 400),
    "lifeboats-six-one-hat": ("lifeboats", dict(players=6, seed=1, rules={"hats": 1}), 200),
    "lifeboats-mixed-restricted": (
        "lifeboats",
        dict(
            players=4,
            seed=6,
            strategies=["steward", "random", "random", "random"],
            rotate_seats=True,
            restricted=("hat",),
        ),
        150,
    ),
    "lifeboats-capped": ("lifeboats", dict(players=4, seed=2, rules={"round_cap": 3}), 300),
    "battle-of-thieves": ("battle-of-thieves", dict(players=2, seed=0), 300),
    "battle-of-thieves-mirror": (
        "battle-of-thieves",
        dict(players=2, seed=3, rules={"decks": "cannon-battery,cannon-battery"}),
        300,
    ),
    "battle-of-thieves-mixed-blank": (
        "battle-of-thieves",
        dict(
            players=2,
            seed=8,
            strategies=["boarder", "random"],
            rotate_seats=True,
            rules={"decks": "cannon-battery,boarding-party", "blanks": "1:Saboteurs"},
        ),
        100,
    ),
    "battle-of-thieves-capped": (
        "battle-of-thieves",
        dict(players=2, seed=5, rules={"turn_cap": 8, "cannon_hits_on": 3}),
        200,
    ),
}


def make(name: str) -> tuple[Setup, int]:
    game, options, games = SETUPS[name]
    return api.make_setup(game, **options), games


def wtp(**options) -> Setup:
    return api.make_setup("walk-the-plank", **options)


def run(setup, games: int, **options) -> RunResult:
    return run_games(setup, games, progress=False, **options)


def assert_close(a, b, path: str = "summary") -> None:
    """Equal keys and values; floats equal to rounding, NaN equal to NaN."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            assert_close(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_close(x, y, f"{path}[{i}]")
    elif isinstance(a, float | np.floating) or isinstance(b, float | np.floating):
        if math.isnan(a) or math.isnan(b):
            assert math.isnan(a) and math.isnan(b), (path, a, b)
        else:
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (path, a, b)
    else:
        assert a == b, (path, a, b)


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in {"elapsed_s", "games_per_s"}}


@pytest.mark.parametrize("name", list(SETUPS))
def test_running_sums_give_the_summary_of_the_records(name: str) -> None:
    setup, games = make(name)
    batch = games // 7 + 1  # blocks of different sizes, the last one short
    records = run(setup, games, threads=2, batch=batch, keep_records=True)
    sums = run(setup, games, threads=2, batch=batch, keep_records=False, sums_only=True)
    assert sums.blocks == [] and sums.sums is not None and sums.games == games
    expected = without_timing(summarize(records))
    assert_close(expected, without_timing(summarize(sums)))
    if name.endswith("capped"):  # the length figures with unfinished games were compared
        assert expected["length_unfinished"] > 0
    if setup.lineup.mixed:
        assert len(expected["strategy_win_rate"]) == len(set(setup.lineup.labels))


@pytest.mark.parametrize(
    "name",
    [
        "three-ghost-dolphin",
        "la-planche-mixed-restricted",
        "lifeboats-mixed-restricted",
        "battle-of-thieves-mirror",
    ],
)
def test_sums_do_not_depend_on_blocks_or_threads(name: str) -> None:
    setup, games = make(name)
    one = run(setup, games, threads=1, batch=games, keep_records=False, sums_only=True).sums
    many = run(setup, games, threads=2, batch=37, keep_records=False, sums_only=True).sums
    assert one.columns == many.columns and one.games == many.games == games
    np.testing.assert_array_equal(one.total, many.total)
    np.testing.assert_array_equal(one.cross, many.cross)
    assert one.counts.keys() == many.counts.keys()
    for key in one.counts:
        np.testing.assert_array_equal(one.counts[key], many.counts[key])


def test_running_sums_do_not_grow_with_games() -> None:
    setup = wtp(players=5, seed=1)

    def size(games: int) -> int:
        sums = run(setup, games, threads=2, batch=250, keep_records=False, sums_only=True).sums
        arrays = [sums.total, sums.cross, *sums.counts.values()]
        return sum(a.nbytes for a in arrays)

    assert size(4000) <= size(500) + 8 * 4  # a longer game may add a few length bins


@pytest.mark.parametrize("name", ["mixed-rotated", "la-planche-mixed-restricted"])
def test_an_interruption_keeps_the_sums_of_a_whole_prefix(name: str) -> None:
    setup = make(name)[0]
    handed: list[int] = []

    def interrupting_sink(block: Block) -> None:
        handed.append(block.first_game)
        if len(handed) == 2:
            raise KeyboardInterrupt

    result = run(
        setup,
        3000,
        threads=2,
        batch=100,
        sinks=[interrupting_sink],
        sums_only=True,
        keep_records=False,
    )
    assert result.partial and handed == [0, 100] and result.games == 200
    prefix = run(setup, 200, threads=1, batch=100, keep_records=True)
    expected = without_timing(summarize(prefix))
    got = without_timing(summarize(result))
    assert (got["partial"], got["requested_games"]) == (True, 3000)
    for key in ("partial", "requested_games", "threads"):
        expected.pop(key)
        got.pop(key)
    assert_close(expected, got)


def test_the_api_keeps_sums_only_when_asked_for_no_records(tmp_path) -> None:
    lean = api.simulate("walk-the-plank", players=3, games=600, keep_records=False, threads=1)
    assert lean.result.sums is not None and lean.result.blocks == []
    full = api.simulate("walk-the-plank", players=3, games=600, threads=1)
    assert full.result.sums is None and full.games.shape[0] == 600
    assert_close(without_timing(full.summary()), without_timing(lean.summary()))


def random_games(seed: int, games: int = 3000) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    lengths = rng.poisson(6, size=games)
    return {
        "lengths": lengths,
        "finished": rng.random(games) > 0.2 * (lengths > 8),
        "y": rng.binomial(lengths, 0.3),
        "x": lengths,
        "won": rng.random((games, 4)) < np.array([0.2, 0.25, 0.3, 0.1]),
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_figures_from_sums_equal_figures_from_values(seed: int) -> None:
    data = random_games(seed)
    y, x = data["y"].astype(np.int64), data["x"].astype(np.int64)
    g = int(y.size)
    sums = RunSums.of_block(g, np.stack([y, x], axis=1), ["y", "x"], {})
    assert_close(mean_interval(y), sums.mean_interval("y"))
    assert_close(ratio_interval(y, x), sums.ratio_interval("y", "x"))
    assert_close(share_interval(y, x), sums.share_interval("y", "x"))
    sy, sx = int(y.sum()), int(x.sum())
    raw = ratio_interval_from_sums(g, sy, sx, int(y @ y), int(y @ x), int(x @ x))
    assert_close(ratio_interval(y, x), raw)
    assert_close(mean_interval(x), mean_interval_from_sums(g, sx, int(x @ x)))
    ended, stopped = length_counts(data["lengths"], data["finished"])
    assert (~data["finished"]).any()
    assert_close(
        length_summary(data["lengths"], data["finished"]),
        length_summary_from_counts(ended, stopped),
    )
    won = data["won"].astype(np.int64)
    names = [f"won_{s}" for s in range(4)]
    seats = RunSums.of_block(g, won, names, {})
    np.testing.assert_allclose(seats.covariance(names), np.cov(won, rowvar=False), rtol=1e-12)
    assert_close(
        balance_index_interval(data["won"]),
        balance_index_from_moments(g, seats.rates(names), seats.covariance(names)),
    )


def test_merged_sums_equal_the_sums_of_all_games() -> None:
    data = random_games(3, 1000)
    values = np.stack([data["y"], data["x"]], axis=1)
    whole = RunSums.of_block(1000, values, ["y", "x"], {"h": np.bincount(data["x"])})
    parts = RunSums.of_block(300, values[:300], ["y", "x"], {"h": np.bincount(data["x"][:300])})
    parts.merge(
        RunSums.of_block(700, values[300:], ["y", "x"], {"h": np.bincount(data["x"][300:])})
    )
    assert parts.games == whole.games
    np.testing.assert_array_equal(parts.total, whole.total)
    np.testing.assert_array_equal(parts.cross, whole.cross)
    np.testing.assert_array_equal(parts.count("h"), whole.count("h"))
    with pytest.raises(ValueError, match="share their columns"):
        parts.merge(RunSums.of_block(1, values[:1], ["a", "b"], {}))
