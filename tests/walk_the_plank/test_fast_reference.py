"""scripts/wtp_fast.py, the bench's single-file yardstick, plays Walk the Plank's rules.

It draws from other streams than balance, so its games are not balance's games: what
must agree is their distribution. Seat win rates (the set of winners of each game) and
game lengths are compared with balance's compiled engine by chi-square tests of
homogeneity; a rule played differently (a card's options, who is out, the captain's
rotation, the end) moves them by far more than the noise of these sample sizes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from balance.games.walk_the_plank.engine import play_games
from balance.games.walk_the_plank.rules import WalkThePlankRules

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("wtp_fast", ROOT / "scripts" / "wtp_fast.py")
assert SPEC is not None and SPEC.loader is not None
wtp_fast = importlib.util.module_from_spec(SPEC)
sys.modules["wtp_fast"] = wtp_fast  # numba finds its compiled functions' module by name
SPEC.loader.exec_module(wtp_fast)

#: Rounds from here on are pooled into one length class (few games last so long).
LONG = 16


def _p_values(players: int, games: int) -> tuple[float, float]:
    """Chi-square p-values: winner sets, then lengths, balance against wtp_fast."""
    ours = play_games(WalkThePlankRules(), players, seed=20261126, n_games=games)
    rounds, finished, won = wtp_fast.play(players, games, seed=4242)
    assert finished.all() and ours.games[:, 1].all()  # random play always ends
    powers = 1 << np.arange(players)
    sets = np.vstack(
        [
            np.bincount(ours.seats[:, :, 0].astype(np.int64) @ powers, minlength=1 << players),
            np.bincount(won.astype(np.int64) @ powers, minlength=1 << players),
        ]
    )
    lengths = np.vstack(
        [
            np.bincount(np.minimum(ours.games[:, 0], LONG), minlength=LONG + 1),
            np.bincount(np.minimum(rounds, LONG), minlength=LONG + 1),
        ]
    )
    p_sets = chi2_contingency(sets[:, sets.sum(axis=0) > 0])[1]
    p_lengths = chi2_contingency(lengths[:, lengths.sum(axis=0) > 0])[1]
    return float(p_sets), float(p_lengths)


@pytest.mark.parametrize("players", [3, 5])
def test_winners_and_lengths_agree_with_balance_on_4000_games(players: int) -> None:
    # The fast check; the slow suite plays 200,000 games at every player count.
    p_sets, p_lengths = _p_values(players, 4_000)
    assert p_sets > 1e-4 and p_lengths > 1e-4


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_winners_and_lengths_agree_with_balance_on_200000_games(players: int) -> None:
    p_sets, p_lengths = _p_values(players, 200_000)
    assert p_sets > 1e-4 and p_lengths > 1e-4


def test_a_game_is_its_seed_and_index() -> None:
    one = wtp_fast.play(5, 300, seed=9, first_game=100)
    again = wtp_fast.play(5, 100, seed=9, first_game=300)
    for whole, part in zip(one, again, strict=True):
        assert np.array_equal(whole[200:], part)
    assert not np.array_equal(one[0], wtp_fast.play(5, 300, seed=10, first_game=100)[0])


def test_the_length_comparison_sees_a_small_shift() -> None:
    # The fast test can fail: a third of the games one round longer, as a rule played
    # differently would make them, is far outside the noise of 4,000 games.
    ours = play_games(WalkThePlankRules(), 5, seed=1, n_games=4_000).games[:, 0]
    rounds = wtp_fast.play(5, 4_000, seed=2)[0]
    shifted = rounds + (rounds % 3 == 0)  # a third of the games one round longer
    table = np.vstack(
        [
            np.bincount(np.minimum(ours, LONG), minlength=LONG + 2),
            np.bincount(np.minimum(shifted, LONG), minlength=LONG + 2),
        ]
    )
    assert chi2_contingency(table[:, table.sum(axis=0) > 0])[1] < 1e-4
