"""La Planche's guided search: the evidence guess, pruning and the margin over the heuristic.

``guess=evidence`` draws the colours a seat cannot see as the detective reads the
evidence; ``width`` keeps the options the rollout strategy rates best, its own choice
first; ``margin`` keeps that choice unless the paired playouts clearly favour another.
Each is checked on hand-built positions against what the heuristic itself computes.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from balance.strategies.la_planche import detective, ismcts, mc, protector
from balance.strategies.la_planche import random as random_strategy
from cli_helpers import assert_one_line_error, call_main
from scipy.stats import chisquare

from balance.core.errors import BalanceError
from balance.core.strategy import MAX_PARAMS, parse_strategy
from balance.games.la_planche import engine, search_nb
from balance.games.la_planche.bridge import option_arrays, pack_position
from balance.games.la_planche.moves_nb import ADVANCE, MOVE, SWAP
from balance.games.la_planche.reading import belief
from balance.games.la_planche.reference import Position, legal_options
from balance.games.la_planche.rules import COLOURS, N_COLOURS, LaPlancheRules

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

SHARPNESS = dict(detective.params)["sharpness"]
SHIPPED = {s.name: s for s in (random_strategy, protector, detective, mc, ismcts)}


def _obs(text: str, players: int, evidence) -> tuple:
    line = [-1 if ch == "." else COLOURS.index(ch) for ch in text]
    pos = Position(
        players=players,
        spaces=len(line),
        line=line,
        evidence=[list(r) for r in evidence],
        scores=[0] * players,
        round=1,
        turn=6,
    )
    return pos, pack_position(pos, LaPlancheRules(spaces=len(line)))


def _draws(obs, seat: int, colour: int, draws: int, seed: int) -> np.ndarray:
    """``(draws, n)`` colours of every seat under ``guess=evidence``."""
    n = obs[3]
    pos = search_nb.new_position_nb(n)
    rng = np.array([seed, 7, 11, 13], dtype=np.uint64)
    out = np.zeros((draws, n), dtype=np.int64)
    for i in range(draws):
        search_nb.determinize_as_nb(obs, seat, colour, pos, rng, search_nb.EVIDENCE)
        colours, owner = pos[3], pos[4]
        assert colours[seat] == colour
        assert all(owner[colours[s]] == s for s in range(n))
        assert int((owner >= 0).sum()) == n
        out[i] = colours
    return out


def test_the_shared_sharpness_is_the_detectives() -> None:
    assert search_nb.GUESS_SHARPNESS == SHARPNESS


def test_two_players_the_evidence_guess_is_the_detectives_belief() -> None:
    evidence = [[0, 0, 0, 0], [-2, 5, 0, 1]]  # seat 1 saved red, sent yellow on
    _, obs = _obs("YRGBYRGB..YRGBYR..", 2, evidence)
    seen = [np.array(obs[k]).copy() for k in (0, 1, 4)]
    own = COLOURS.index("G")
    drawn = _draws(obs, 0, own, 4000, seed=3)[:, 1]
    counts = np.bincount(drawn, minlength=N_COLOURS)
    assert counts[own] == 0
    expected = np.array(belief(evidence[1], own, SHARPNESS)) * len(drawn)
    keep = [c for c in range(N_COLOURS) if c != own]
    assert chisquare(counts[keep], expected[keep]).pvalue > 1e-3, counts
    # ... and it is not the uniform guess: red, the colour seat 1 protects, dominates
    assert chisquare(counts[keep]).pvalue < 1e-9
    assert counts[COLOURS.index("R")] > 0.8 * len(drawn)
    for k, before in zip((0, 1, 4), seen, strict=True):  # the observation is untouched
        assert np.array_equal(np.array(obs[k]), before)


def test_four_players_the_evidence_guess_weighs_each_assignment_by_its_seats() -> None:
    evidence = [[2, -1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, -3, 1]]
    _, obs = _obs("YRGBYRGB..YRGBYR..", 4, evidence)
    seat, own = 1, COLOURS.index("R")
    others = [0, 2, 3]
    free = [c for c in range(N_COLOURS) if c != own]
    assignments = list(itertools.permutations(free))
    weights = np.array(
        [
            math.exp(SHARPNESS * sum(evidence[q][c] for q, c in zip(others, a, strict=True)))
            for a in assignments
        ]
    )
    drawn = _draws(obs, seat, own, 6000, seed=5)
    counts = np.array(
        [int(np.all(drawn[:, others] == np.array(a), axis=1).sum()) for a in assignments]
    )
    assert counts.sum() == len(drawn)
    assert chisquare(counts, weights / weights.sum() * len(drawn)).pvalue > 1e-3, counts
    assert chisquare(counts).pvalue < 1e-9


def test_the_uniform_guess_is_the_plain_determinization() -> None:
    _, obs = _obs("YRGBYRGB..YRGBYR..", 3, [[0, 4, 0, 0], [1, 0, 0, 0], [0, 0, 0, -2]])
    one, two = search_nb.new_position_nb(3), search_nb.new_position_nb(3)
    rng_one = np.array([9, 8, 7, 6], dtype=np.uint64)
    rng_two = rng_one.copy()
    for _ in range(50):
        search_nb.determinize_nb(obs, 2, 0, one, rng_one)
        search_nb.determinize_as_nb(obs, 2, 0, two, rng_two, search_nb.UNIFORM)
        for a, b in zip(one, two, strict=True):
            assert np.array_equal(a, b)


def _candidates(obs, first: int, second: int, fixed: int = -1) -> tuple[np.ndarray, int]:
    cand = np.zeros((search_nb.MAX_CANDIDATES, 3), dtype=np.int64)
    count = search_nb.candidates_nb(
        obs[0], obs[1], obs[2], first, second, fixed, cand, obs[5], obs[6]
    )
    return cand, count


@pytest.mark.parametrize(
    ("rollout", "heuristic"),
    [(2, detective), (1, protector), (0, protector)],
    ids=["detective", "protector", "random"],
)
def test_pruning_keeps_the_options_the_heuristic_rates_best(rollout, heuristic) -> None:
    evidence = [[0, 3, -1, 0], [1, 0, 0, -2]]
    pos, obs = _obs("YRGBYRGB..YRGBYR..", 2, evidence)
    seat, own = 0, COLOURS.index("B")
    for first, second in ((SWAP, ADVANCE), (MOVE, ADVANCE)):
        cand, count = _candidates(obs, first, second)
        keys = {int(k) for k in cand[:count, 2]}
        rating = np.zeros(search_nb.MAX_CANDIDATES)
        pruned = cand.copy()
        width = 6
        kept = search_nb.prune_nb(obs, seat, own, pruned, count, width, rollout, rating)
        assert kept == width
        assert {int(k) for k in pruned[:kept, 2]} <= keys
        assert np.all(np.diff(rating[:kept]) <= 1e-9)  # best first
        # every option left out rates no better than the last one kept
        everything = cand.copy()
        all_rating = np.zeros(search_nb.MAX_CANDIDATES)
        search_nb.prune_nb(obs, seat, own, everything, count, count, rollout, all_rating)
        assert sorted(everything[:count, 2]) == sorted(cand[:count, 2])
        assert np.all(all_rating[width:count] <= rating[kept - 1] + 1e-9)
        # rows still name their option: the key decodes to the (pick, k) option
        for row in pruned[:kept]:
            symbol = first if row[0] == 0 else second
            a, b = legal_options(pos, symbol)[row[1]]
            assert search_nb.decode_key_nb(row[2]) == (symbol, a, b)
        # the heuristic's own choice among the first symbol's options rates best of them
        params = np.zeros(MAX_PARAMS)
        params[: len(heuristic.params)] = [v for _, v in heuristic.params]
        options = legal_options(pos, first)
        opt_a, opt_b = option_arrays(options)
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        choose = heuristic.decisions["choose"]
        k = choose(obs, seat, own, first, opt_a, opt_b, len(options), params, rng)
        only, only_count = _candidates(obs, first, second, fixed=0)
        only_rating = np.zeros(search_nb.MAX_CANDIDATES)
        search_nb.prune_nb(obs, seat, own, only, only_count, only_count, rollout, only_rating)
        row = int(np.flatnonzero(only[:only_count, 1] == k)[0])
        assert only_rating[row] >= only_rating[0] - 1e-9


def test_no_width_keeps_every_option_in_place() -> None:
    _, obs = _obs("YRGBYRGB..YRGBYR..", 2, [[0] * 4, [0] * 4])
    cand, count = _candidates(obs, SWAP, MOVE)
    before = cand.copy()
    rating = np.zeros(search_nb.MAX_CANDIDATES)
    assert search_nb.prune_nb(obs, 0, 1, cand, count, 0, 2, rating) == count
    assert np.array_equal(cand, before)


def test_the_margin_keeps_the_heuristics_choice_unless_a_gain_is_clear() -> None:
    cand = np.zeros((search_nb.MAX_CANDIDATES, 3), dtype=np.int64)
    cand[:4, 0] = [0, 0, 1, 1]
    cand[:4, 1] = [5, 6, 7, 8]
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)

    def pick(gains: list[list[float]], margin: float) -> int:
        g = np.array(gains)  # (options, playouts) of result - the first option's
        total = np.zeros(search_nb.MAX_CANDIDATES)
        total2 = np.zeros(search_nb.MAX_CANDIDATES)
        total[: len(g)] = g.sum(axis=1)
        total2[: len(g)] = (g**2).sum(axis=1)
        _, k = search_nb._clear_gain_nb(cand, len(g), total, total2, g.shape[1], margin, rng)
        return int(k)

    zero = [0.0] * 10
    noisy = [1, -1, 1, 0, 0, 1, -1, 0, 1, 0]  # mean 0.2, standard error 0.25
    clear = [1, 1, 1, 0, 1, 1, 1, 1, 0, 1]  # mean 0.8, standard error 0.13
    assert pick([zero, noisy, zero, zero], 2.0) == 5  # noisy: not enough
    assert pick([zero, noisy, zero, zero], 0.5) == 6  # ... unless the margin is small
    assert pick([zero, noisy, clear, zero], 2.0) == 7
    assert pick([zero, noisy, [1.0] * 10, clear], 2.0) == 7  # the largest clear gain
    assert pick([zero, [-1.0] * 10, zero, zero], 2.0) == 5  # losses never replace it
    assert pick([[0.0], [1.0], [0.0], [0.0]], 2.0) == 5  # one playout shows nothing


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("mc:guess=evidence,width=8,margin=2", [16, 0, 1, 8, 2]),
        ("mc:rollout=detective,guess=uniform", [16, 2, 0, 0, 0]),
        ("ismcts:guess=evidence,width=5", [256, 0, 0.7, 1, 5]),
    ],
)
def test_the_new_search_parameters_parse(text: str, values: list[float]) -> None:
    seat = parse_strategy(text, SHIPPED, "la-planche")
    assert list(seat.values) == values
    if "guess=evidence" in text:
        assert "guess=evidence" in seat.label


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("mc:guess=maybe", "guess"),
        ("mc:width=300", "width"),
        ("mc:margin=-1", "margin"),
        ("ismcts:guess=detective", "guess"),
    ],
)
def test_bad_guided_search_parameters_are_one_line_errors(
    monkeypatch, capsys, text: str, fragment: str
) -> None:
    with pytest.raises(BalanceError) as error:
        parse_strategy(text, SHIPPED, "la-planche")
    assert "\n" not in str(error.value)
    code, out, err = call_main(
        monkeypatch, capsys, "simulate", "la-planche", "-p", "2", "--strategy", text, "-g", "5"
    )
    assert_one_line_error(code, out, err, fragment)
