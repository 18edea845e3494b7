"""A user's strategy, first run against later runs: what the compile cache saves.

Run from the project root:

    python scripts/bench_strategy.py                          # Walk the Plank, 50,000 games
    python scripts/bench_strategy.py --game la-planche --games 20000

Each run is a fresh ``balance simulate`` process, as a designer's are: the game's template
strategy (``balance strategy new``) against random, with an empty strategy cache
(``BALANCE_CACHE_DIR`` in a temporary directory), then the same command again, after a
one-line edit of a decision function, after an edit of a comment only, then the same
table with shipped strategies only; and ``--debug`` on a few hundred games. It prints the
machine first, each run's wall-clock time and whether it compiled (the runner's
"compiling ..." line on stderr), and the edited runs' time against the shipped one's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from balance.authoring.strategy_tools import template
from balance.run.machine import one_line as machine


def timed(args: list[str], env: dict[str, str]) -> tuple[float, bool, str]:
    """Wall-clock seconds of ``balance ARGS``, whether it said it was compiling, and the
    play's own rate as it reports it (``N games/s``)."""
    clock = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "balance.cli", *args], env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - clock
    if done.returncode != 0:
        raise SystemExit(f"balance {' '.join(args)} failed:\n{done.stderr}")
    rate = re.search(r"\(([\d,]+ games/s)", done.stdout)
    return elapsed, "compiling" in done.stderr, rate[1] if rate else ""


def edited(text: str) -> str:
    """``text`` with one line added to its first decision function, after its docstring."""
    start = text.index("@njit\ndef ")
    end = text.index('"""', text.index('"""', start) + 3) + 3
    return text[:end] + "\n    _edited = 1  # one line more" + text[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="walk-the-plank")
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--debug-games", type=int, default=300)
    options = parser.parse_args()
    players = "3" if options.game == "lifeboats" else "2"
    print(machine())
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "mine.py"
        path.write_text(template(options.game))
        env = dict(os.environ, BALANCE_CACHE_DIR=str(Path(directory) / "cache"))
        table = ["simulate", options.game, "-p", players, "--rotate-seats"]
        others = ["--strategy", "random"] * (int(players) - 1)
        mine = [*table, "--strategy", f"{path}:mine", *others]
        games = ["-g", str(options.games)]
        text = template(options.game)
        runs = [
            ("first run, user strategy", None, [*mine, *games]),
            ("second run, unchanged file", None, [*mine, *games]),
            ("one-line edit", edited(text), [*mine, *games]),
            ("comment edit", edited(text) + "\n# a comment\n", [*mine, *games]),
            ("shipped strategies only", None, [*table, *games]),
            (
                f"--debug, {options.debug_games} games",
                None,
                [*mine, "-g", str(options.debug_games), "--debug"],
            ),
        ]
        print(f"{options.game}, {players} players, {options.games:,} games a run:")
        times = {}
        for name, source, args in runs:
            if source is not None:
                path.write_text(source)
            seconds, compiled, rate = timed(args, env)
            times[name] = seconds
            what = "compiled" if compiled else "no compile"
            print(f"  {name:<30} {seconds:7.1f} s  ({what}; playing {rate})")
        shipped = times["shipped strategies only"]
        for name in ("one-line edit", "comment edit"):
            print(f"  {name} / shipped only: {times[name] / shipped:.1f}x")


if __name__ == "__main__":
    main()
