"""How much better than the detective's choice La Planche's best option is, by playouts.

``python scripts/option_gaps_la_planche.py [--positions N] [--playouts P] [--width W]``
plays 2-player games between two detectives (seed 2026) to a turn drawn in 2..14, takes
the seat to move and a spin of Swap with Advance or Move, keeps the ``W`` options the
detective rates best (the first is the detective's own choice) and plays ``P`` playouts
of each (``guess=evidence``, or the true colours with ``--truth``; detective playouts,
common random numbers, as ``mc`` does). It prints, per position, the mean gain in win
share of the best other option over
the detective's choice with its 95% t interval, and over all positions how often some
option beats the choice significantly. docs/la-planche.md ("How strong they are")
quotes its output.
"""

from __future__ import annotations

import argparse

import numpy as np

from balance.core.random_nb import next_u64_nb, seed_stream_nb
from balance.games.la_planche import engine, search_nb
from balance.games.la_planche.moves_nb import ADVANCE, MOVE, SWAP
from balance.games.la_planche.rules import LaPlancheRules
from balance.stats.intervals import mean_interval

# The kernels as the shipped strategies play them: their dispatchers bound in.
search_nb = engine.DISPATCH.bound(search_nb)

DETECTIVE = 2


def main() -> None:
    """Measure the gaps the command line asks for and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=2000)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument(
        "--truth", action="store_true", help="play out from the true colours, not a guess"
    )
    args = parser.parse_args()
    n, rules = 2, LaPlancheRules().to_array()
    codes, params = search_nb._rollout_table_nb(n, DETECTIVE)
    rows = np.arange(n + 1, dtype=np.int64)
    work = search_nb.new_work_nb(n)
    picker = np.array([2026, 1, 2, 3], dtype=np.uint64)
    gains, significant = [], 0
    for g in range(args.positions):
        pos = search_nb.new_position_nb(n)
        rng = np.zeros((n + 1, 4), dtype=np.uint64)
        search_nb.start_game_nb(pos, rules, n, 2026, g, rng)
        stop = 2 + int(next_u64_nb(picker) % np.uint64(13))
        if search_nb.run_nb(pos, rules, n, codes, params, rng, rows, work, stop):
            continue
        seat, colour = int(pos[6][search_nb.Meta.SEAT]), int(pos[3][pos[6][0]])
        second = ADVANCE if g % 2 else MOVE
        obs = (pos[0], pos[1], rules, n, pos[2], work[3], work[4], work[5], work[6], work[7])
        cand = np.zeros((search_nb.MAX_CANDIDATES, 3), dtype=np.int64)
        count = search_nb.candidates_nb(
            pos[0], pos[1], rules, SWAP, second, -1, cand, work[3], work[4]
        )
        rating = np.zeros(search_nb.MAX_CANDIDATES)
        count = search_nb.prune_nb(obs, seat, colour, cand, count, args.width, DETECTIVE, rating)
        results = np.zeros((count, args.playouts))
        play = search_nb.new_position_nb(n)
        play_work = search_nb.new_work_nb(n)
        streams = np.zeros((n + 1, 4), dtype=np.uint64)
        script = np.zeros(8)
        key = np.uint64(g + 1)
        for i in range(args.playouts):
            for c in range(count):
                for s in range(n + 1):
                    seed_stream_nb(streams[s], key, i, s)
                if args.truth:
                    search_nb.copy_position_nb(pos, play)
                else:
                    search_nb.determinize_as_nb(obs, seat, colour, play, streams[0], 1)
                search_nb.play_candidate_nb(
                    play,
                    rules,
                    n,
                    SWAP,
                    second,
                    cand[c, 0],
                    cand[c, 1],
                    script,
                    streams[0],
                    play_work,
                )
                search_nb.run_nb(play, rules, n, codes, params, streams, rows, play_work, 1 << 62)
                results[c, i] = play[6][search_nb.Meta.WON + seat]
        diffs = results[1:] - results[0]
        best = int(np.argmax(diffs.mean(axis=1)))
        mean, low, high = mean_interval(diffs[best])
        significant += low > 0
        gains.append(mean)
        print(
            f"game {g} turn {stop + 1}: {count} options, the choice wins "
            f"{results[0].mean():.1%}; best other {mean:+.2%} [{low:+.2%}, {high:+.2%}]"
        )
    mean, low, high = mean_interval(np.array(gains))
    print(
        f"{len(gains)} positions, {args.playouts} playouts an option: best other option's "
        f"gain {mean:+.2%} [{low:+.2%}, {high:+.2%}] on average (the best of {args.width - 1} "
        f"estimates, so biased upward); significantly better in {significant}"
    )


if __name__ == "__main__":
    main()
