"""Battle of Thieves: processor time per game turn of each shipped heuristic and random.

Run from the project root:

    python scripts/bench_bot_heuristics.py                       # this tree
    python scripts/bench_bot_heuristics.py --against /tmp/old    # and another tree, in turns

Games per second says little here: the heuristics' games run much longer than random
ones (most to the 200-turn cap), so each strategy is measured in microseconds of process
CPU time (``time.process_time``) per game turn, the turns counted from the games' records.
Each strategy plays itself (both seats), cannon-battery v boarding-party, one thread,
through ``balance.run.runner.run_games``, its engine compiled (or loaded from the cache) before
timing. Each round runs every tree once in a fresh interpreter (``--against`` names the
root of another source tree, e.g. an older commit's ``git archive``), so that the trees
take turns under the same load; the best of the rounds is kept, with the load average
(1 minute) of the runs it was taken from, and printed as µs and as turns per second, with
the machine (processor, cores, versions, load) at the start and at the end.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import balance
from balance.run.machine import one_line as machine

ROOT = Path(__file__).resolve().parents[1]
DECKS = "cannon-battery,boarding-party"
STRATEGIES = ("random", "cannoneer", "boarder", "bailer", "finisher")
#: Games per run by default: random games are short (about 20 turns), heuristic ones long.
GAMES = {"random": 2_000}
HEURISTIC_GAMES = 100


def measure(strategies: list[str], scale: float) -> dict[str, dict[str, float]]:
    """One timed run of each strategy in this interpreter: games, turns, CPU seconds,
    µs per turn and the load average at the end of the run."""
    from balance.api import make_setup
    from balance.games import get_game
    from balance.run.runner import run_games

    game = get_game("battle-of-thieves")
    out: dict[str, dict[str, float]] = {}
    for name in strategies:
        setup = make_setup(game.id, 2, 1, [name, name], (), [("decks", DECKS)])
        game.prepare(setup)
        run_games(setup, 2, threads=1, progress=False)  # compiled or loaded before timing
        games = max(1, int(GAMES.get(name, HEURISTIC_GAMES) * scale))
        clock = time.process_time()
        result = run_games(setup, games, threads=1, progress=False, keep_records=True)
        cpu = time.process_time() - clock
        turns = int(sum(int(block.length.sum()) for block in result.blocks))
        out[name] = {
            "games": result.games,
            "turns": turns,
            "cpu_s": cpu,
            "us_per_turn": 1e6 * cpu / turns,
            "load": os.getloadavg()[0],
        }
    return out


def use_strategies_of(tree: Path) -> None:
    """Import ``balance.strategies`` from ``tree/strategies`` (an editable install maps it
    to the installed checkout's, whatever ``PYTHONPATH`` says)."""
    init = tree / "strategies" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "balance.strategies", init, submodule_search_locations=[str(init.parent)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["balance.strategies"] = module
    spec.loader.exec_module(module)


def child(tree: Path, strategies: list[str], scale: float) -> dict[str, dict[str, float]]:
    """:func:`measure` in a fresh interpreter that imports balance from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    args = [sys.executable, __file__, "--child", "--scale", str(scale), *strategies]
    done = subprocess.run(args, env=env, capture_output=True, text=True, cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"the run in {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategies", nargs="*", default=list(STRATEGIES))
    parser.add_argument("--against", type=Path, help="root of another source tree to time")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (best kept)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the games")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        tree = Path.cwd().resolve()
        use_strategies_of(tree)
        import balance.strategies.battle_of_thieves as shipped

        for module in (balance, shipped):
            if tree not in Path(module.__file__).resolve().parents:
                raise SystemExit(f"imported {module.__name__} from {module.__file__}, not {tree}")
        print(json.dumps(measure(options.strategies, options.scale)))
        return
    trees = {"this tree": ROOT}
    if options.against:
        trees = {"against": options.against.resolve(), "this tree": ROOT}
    best: dict[str, dict[str, dict[str, float]]] = {name: {} for name in trees}
    print(machine(), flush=True)
    for round_ in range(options.rounds):
        for name, tree in trees.items():
            for strategy, run in child(tree, options.strategies, options.scale).items():
                print(
                    f"round {round_ + 1} {name:<9} {strategy:<10} {run['us_per_turn']:7.2f} µs/turn"
                    f" {1e6 / run['us_per_turn']:9,.0f} turns/s"
                    f"  ({run['games']:.0f} games, {run['turns']:.0f} turns, "
                    f"load {run['load']:.1f})",
                    flush=True,
                )
                kept = best[name].get(strategy)
                if kept is None or run["us_per_turn"] < kept["us_per_turn"]:
                    best[name][strategy] = run
    print(f"\nBest of {options.rounds} rounds, µs of process CPU time per game turn and turns/s:")
    print(machine())
    header = f"{'strategy':<10}" + "".join(f"{name:>34}" for name in trees)
    print(header + ("      ratio" if len(trees) == 2 else ""))
    for strategy in options.strategies:
        cells = []
        for name in trees:
            run = best[name][strategy]
            rate = 1e6 / run["us_per_turn"]
            cells.append(
                f"{run['us_per_turn']:6.2f} µs {rate:9,.0f}/s ({run['turns']:6.0f} t,"
                f" ld {run['load']:4.1f})"
            )
        line = f"{strategy:<10}" + "".join(f"{cell:>34}" for cell in cells)
        if len(trees) == 2:
            old, new = (best[name][strategy]["us_per_turn"] for name in trees)
            line += f"  {old / new:8.2f}×"
        print(line)


if __name__ == "__main__":
    main()
