"""The detective's reading: how often its belief about each opponent's colour is right.

The ``detective`` strategy (``strategies/la_planche.py``) never sees another seat's
colour. It believes that opponent ``q`` owns colour ``c`` (any colour but its own) with
probability proportional to ``exp(sharpness * evidence[q, c])``, the public evidence of
``q``'s actions this round (docs/la-planche.md, "Evidence"). This module replays a run's
games with the reference engine (the same games as the compiled engine plays) and, after
every turn, checks each detective's belief about each opponent against the opponent's
true colour:

* **top guess right**: the colour it believes most likely is the opponent's (a tie of
  ``k`` colours at the top counts ``1/k`` if the true colour is among them); chance is
  1 in 3, the colours other than the detective's own;
* **belief on the truth**: the probability its belief gives the opponent's true colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from balance.core.game import Setup
from balance.games.la_planche import engine
from balance.games.la_planche.bridge import lineup_player_factory
from balance.games.la_planche.reference import Position, play_game
from balance.games.la_planche.rules import N_COLOURS
from balance.reports.charts import Chart, caption, new_axes, percent_axis
from balance.stats.intervals import share_interval

#: The strategy whose reading is measured, and its parameter for the belief.
DETECTIVE = "detective"
SHARPNESS = "sharpness"
#: Turns with fewer games still running than this are left off the figure.
MIN_GAMES = 30


def belief(evidence: Sequence[int], own: int, sharpness: float) -> list[float]:
    """The detective's belief about one opponent: a probability per colour (0 for its own).

    Parameters
    ----------
    evidence : ``(4,)`` the opponent's evidence row, per colour.
    own : the detective's own colour.
    sharpness : the detective's ``sharpness`` parameter.
    """
    top = max(evidence[c] for c in range(N_COLOURS) if c != own)
    weights = [
        0.0 if c == own else math.exp(sharpness * (evidence[c] - top)) for c in range(N_COLOURS)
    ]
    total = sum(weights)
    return [w / total for w in weights]


def top_guess_right(probability: Sequence[float], truth: int) -> float:
    """1/k if ``truth`` is among the ``k`` colours of highest belief, else 0."""
    best = max(probability)
    tied = [c for c, p in enumerate(probability) if p >= best - 1e-12]
    return 1.0 / len(tied) if truth in tied else 0.0


def detective_reading(setup: Setup, games: int, min_games: int = MIN_GAMES) -> pd.DataFrame:
    """Replay games ``0 .. games - 1`` of ``setup`` and measure every detective's reading.

    Returns
    -------
    DataFrame, one row a turn of the round (1, 2, ...) with at least ``min_games`` games
    still running at it: ``turn``, ``games`` (games with a detective still
    running), ``checks`` (detective-opponent pairs checked), ``right`` (top guesses
    right), ``rate``/``low``/``high`` (share right, Wilson at the effective number of
    checks, games as clusters), ``belief``/``belief_low``/``belief_high`` (mean
    probability on the true colour, the same interval), ``chance`` (1/3). Empty when the
    line-up has no detective.
    """
    lineup, rules, n = setup.lineup, setup.rules, setup.players
    names = [seat.strategy.name for seat in lineup.seats]
    if DETECTIVE not in names:
        return pd.DataFrame()
    rows: list[tuple[int, int, float, float]] = []  # game, turn, right, belief on truth
    for game in range(games):
        index = [int(lineup.strategy_index(game, seat)) for seat in range(n)]
        detectives = {}
        for seat, k in enumerate(index):
            chosen = lineup.seats[k]
            if chosen.strategy.name == DETECTIVE:
                names_k = [name for name, _ in chosen.strategy.params]
                detectives[seat] = float(chosen.values[names_k.index(SHARPNESS)])

        def watch(
            pos: Position, colours: Sequence[int], game: int = game, detectives: dict = detectives
        ) -> None:
            for seat, sharpness in detectives.items():
                own = colours[seat]
                for other in range(n):
                    if other == seat:
                        continue
                    probability = belief(pos.evidence[other], own, sharpness)
                    truth = colours[other]
                    rows.append(
                        (game, pos.turn, top_guess_right(probability, truth), probability[truth])
                    )

        play_game(
            rules,
            n,
            setup.seed,
            game,
            make_player=lineup_player_factory(lineup, rules, game),
            forbidden=[int(s) for s in engine.forbidden_by_seat(lineup, game)],
            watch=watch,
        )
    frame = pd.DataFrame(rows, columns=["game", "turn", "right", "belief"])
    out = []
    for turn, here in frame.groupby("turn"):
        per_game = here.groupby("game")[["right", "belief"]].agg(["sum", "size"])
        if len(per_game) < min_games:
            continue
        size = per_game[("right", "size")].to_numpy(float)
        rate, low, high = share_interval(per_game[("right", "sum")].to_numpy(float), size)
        mean, b_low, b_high = share_interval(per_game[("belief", "sum")].to_numpy(float), size)
        out.append(
            {
                "turn": int(turn),
                "games": len(per_game),
                "checks": int(size.sum()),
                "right": float(here["right"].sum()),
                "rate": rate,
                "low": low,
                "high": high,
                "belief": mean,
                "belief_low": b_low,
                "belief_high": b_high,
                "chance": 1 / (N_COLOURS - 1),
            }
        )
    return pd.DataFrame(out)


def reading_chart(table: pd.DataFrame, setup: Setup, games: int) -> Chart:
    """The detective's reading by turn: top guess right and belief on the truth."""
    figure, ax = new_axes()
    turn = table["turn"].to_numpy()
    for column, label, style in (
        ("rate", "top guess right", "-"),
        ("belief", "belief on the true colour", "--"),
    ):
        low = "low" if column == "rate" else "belief_low"
        high = "high" if column == "rate" else "belief_high"
        ax.fill_between(turn, table[low], table[high], step="mid", color="0.85", lw=0)
        ax.step(turn, table[column], where="mid", color="black", ls=style, label=label)
    ax.axhline(1 / (N_COLOURS - 1), color="0.4", ls=":", lw=1, label="chance (1 in 3)")
    ax.set_ylim(0, 1)
    percent_axis(ax)
    ax.set_xlabel("turn of the round")
    ax.set_ylabel("detective-opponent pairs")
    ax.set_title("the detective's reading of its opponents' colours, by turn")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="y", color="0.9")
    checks = int(table["checks"].sum()) if len(table) else 0
    caption(
        figure,
        f"The first {games:,} games of the run replayed by the reference engine "
        f"({setup.players} players, strategies {', '.join(setup.lineup.labels)}); "
        f"{checks:,} checks, one per detective, opponent and turn. After each turn, the "
        "detective's belief (softmax of sharpness x the opponent's public evidence, over "
        "the colours not its own) against the opponent's true colour. Turns with fewer "
        f"than {MIN_GAMES} games still running are left off. Grey bands: 95% Wilson "
        "intervals at the effective number of checks (games as clusters).",
    )
    return Chart("16-detective-reading", figure)


def reading_games(total: int) -> int:
    """How many of a run's games the report replays for the reading (at most 300)."""
    return int(np.clip(total, 0, 300))
