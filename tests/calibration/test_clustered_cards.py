"""Coverage of a mirror match's card figures, with the game as the unit, from known truth.

A card pooled over both seats of a mirror match is observed twice a game, and the two
observations go together. Synthetic games make that happen in a known way: each game
is "long" or "short" (half and half), which moves both seats' draws together; a seat
that plays the card wins more often, and exactly one seat wins unless the game is
capped. The true means and win rates are computed exactly by enumerating every game,
and each figure's 95% interval must cover them in 93% to 97.5% of simulated runs (too
narrow and too wide both fail). The intervals that count each seat as an independent
observation fail this check both ways: the means' too narrow, the played win rate's too
wide (the two seats' wins in one game are negatively correlated).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from balance.games.battle_of_thieves.usefulness import card_totals, figures, pair_totals

CAP = 0.1  # share of games with no winner
DRAW_CHANCE = (0.15, 0.85)  # per draw, in a short game and in a long one
DRAWS = 3
PLAY_CHANCE = 0.5  # each copy drawn is played with this chance
EDGE = 0.2  # a seat that played a copy and an opponent who did not: 0.5 + EDGE to win
LONG_HELD = 2  # a long game adds this many held turns to each seat's card
FIGURES = (
    "drawn_per_game",
    "played_per_game",
    "held_turns_per_game",
    "win_rate_played",
    "win_rate_held",
    "played_minus_held",
)
LOW, HIGH = 0.93, 0.975


def truth() -> dict[str, float]:
    """Every figure's true value, by enumerating each (long, draws, plays) of both seats.

    Returns
    -------
    dict, one float a name in :data:`FIGURES`: means per seat and game, and the win rates
    as ratios of expected sums over games (what a ratio of sums over many games tends to).
    """
    e = dict.fromkeys(("drawn", "played", "held", "n", "w", "h", "v"), 0.0)
    for long in (0, 1):
        chance = DRAW_CHANCE[long]
        for d0, d1 in itertools.product(range(DRAWS + 1), repeat=2):
            p_draws = stats.binom.pmf(d0, DRAWS, chance) * stats.binom.pmf(d1, DRAWS, chance)
            for p0, p1 in itertools.product(range(d0 + 1), range(d1 + 1)):
                p = (
                    0.5
                    * p_draws
                    * stats.binom.pmf(p0, d0, PLAY_CHANCE)
                    * stats.binom.pmf(p1, d1, PLAY_CHANCE)
                )
                a = (p0 > 0, p1 > 0)
                b = (d0 > 0 and p0 == 0, d1 > 0 and p1 == 0)
                win0 = (1 - CAP) * (0.5 + EDGE * (a[0] - a[1]))
                win = (win0, 1 - CAP - win0)
                e["drawn"] += p * (d0 + d1) / 2
                e["played"] += p * (p0 + p1) / 2
                e["held"] += p * (d0 - p0 + d1 - p1 + 2 * LONG_HELD * long) / 2
                e["n"] += p * (a[0] + a[1])
                e["w"] += p * (a[0] * win[0] + a[1] * win[1])
                e["h"] += p * (b[0] + b[1])
                e["v"] += p * (b[0] * win[0] + b[1] * win[1])
    played, held = e["w"] / e["n"], e["v"] / e["h"]
    return {
        "drawn_per_game": e["drawn"],
        "played_per_game": e["played"],
        "held_turns_per_game": e["held"],
        "win_rate_played": played,
        "win_rate_held": held,
        "played_minus_held": played - held,
    }


def mirror_games(rng: np.random.Generator, games: int, runs: int) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` independent runs of ``games`` synthetic mirror-match games, one card.

    Returns
    -------
    cards : int32 ``(games, 2, runs, 3)``, per-card records (drawn, played, held turns),
        a run in each row (the rows of a deck's cards, here one card a run).
    won : bool ``(games, 2, runs)``.
    """
    long = rng.random((games, 1, runs)) < 0.5
    chance = np.where(long, DRAW_CHANCE[1], DRAW_CHANCE[0])
    drawn = rng.binomial(DRAWS, np.broadcast_to(chance, (games, 2, runs)))
    played = rng.binomial(drawn, PLAY_CHANCE)
    held = drawn - played + LONG_HELD * long
    did = (played > 0).astype(float)
    win0 = (1 - CAP) * (0.5 + EDGE * (did[:, 0] - did[:, 1]))
    u = rng.random((games, runs))
    won = np.stack([u < win0, (u >= win0) & (u < 1 - CAP)], axis=1)
    return np.stack([drawn, played, held], axis=-1).astype(np.int32), won


def coverage(games: int, runs: int, seed: int, chunk: int = 2_000) -> dict[str, np.ndarray]:
    """Share of runs whose interval covers the truth, per figure, for the game-as-unit
    intervals (``clustered``) and for seats counted as independent (``independent``).

    Returns
    -------
    dict of two float ``(len(FIGURES),)`` arrays, in :data:`FIGURES` order.
    """
    true = truth()
    rng = np.random.default_rng(seed)
    hits = {"clustered": np.zeros(len(FIGURES)), "independent": np.zeros(len(FIGURES))}
    for first in range(0, runs, chunk):
        cards, won = mirror_games(rng, games, min(chunk, runs - first))
        both = {
            "clustered": figures(pair_totals(cards, won)),
            "independent": figures(card_totals(cards, won).sum(axis=0)),
        }
        for kind, fig in both.items():
            for k, name in enumerate(FIGURES):
                value = true[name]
                hits[kind][k] += np.sum(
                    (fig[f"{name}_low"] <= value) & (value <= fig[f"{name}_high"])
                )
    return {kind: count / runs for kind, count in hits.items()}


def check(found: dict[str, np.ndarray]) -> None:
    shown = {name: round(float(c), 4) for name, c in zip(FIGURES, found["clustered"], strict=True)}
    assert np.all((found["clustered"] >= LOW) & (found["clustered"] <= HIGH)), shown
    # The check can fail both ways: seats counted apart are too narrow for the means...
    independent = dict(zip(FIGURES, found["independent"], strict=True))
    for name in ("drawn_per_game", "held_turns_per_game"):
        assert independent[name] < LOW, (name, independent[name])
    # ... and too wide for the win rate when played (one seat's win is the other's loss).
    assert independent["win_rate_played"] > HIGH, independent["win_rate_played"]


def test_truth_is_a_probability_weighted_enumeration() -> None:
    true = truth()
    assert true["drawn_per_game"] == pytest.approx(DRAWS * np.mean(DRAW_CHANCE))
    assert true["played_per_game"] == pytest.approx(true["drawn_per_game"] * PLAY_CHANCE)
    assert 0 < true["win_rate_held"] < true["win_rate_played"] < 1


def test_clustered_card_intervals_cover_the_truth_fast() -> None:
    check(coverage(games=100, runs=2_000, seed=11))


@pytest.mark.slow
@pytest.mark.parametrize("games", [30, 300, 1_000])
def test_clustered_card_intervals_cover_the_truth(games: int) -> None:
    check(coverage(games=games, runs=20_000, seed=games))
