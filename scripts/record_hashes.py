"""Fingerprints of seeded runs: every game, every shipped strategy, both engines.

A change meant to leave behaviour alone (a refactoring) must leave these unchanged::

    python scripts/record_hashes.py --save before.json     # on the old code
    python scripts/record_hashes.py --check before.json    # on the new code

Each line hashes the record tables (as the run's Parquet files hold them) and the
summary ``balance simulate --json`` prints, of a seeded run of one game with one shipped
strategy in every seat, then with every shipped strategy round the table, then per named
variant; the reference engine's records are hashed beside the compiled engine's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from typing import Any

import numpy as np

from balance import api
from balance.games import MODULES, get_game

#: Games per run: enough for every kind of event to happen, few enough for search players.
GAMES = {"random": 400, "search": 4}
SEARCHING = ("mc", "ismcts")
#: Summary entries that measure the machine, not the games.
TIMING = ("elapsed_s", "games_per_s", "threads")


def digest(run: api.Run) -> str:
    """One hash of a run's record tables and its summary."""
    game = get_game(run.setup.game)
    hasher = hashlib.sha256()
    for block in run.result.blocks:
        for name, table in sorted(game.tables(block, run.setup).items()):
            hasher.update(name.encode())
            for column in table.column_names:
                hasher.update(column.encode())
                hasher.update(repr(table.column(column).to_pylist()).encode())
    summary = {k: v for k, v in run.summary().items() if k not in TIMING}
    hasher.update(json.dumps(summary, sort_keys=True, default=str).encode())
    return hasher.hexdigest()[:16]


def reference_digest(setup: Any, games: int) -> str:
    """One hash of the reference engine's records of the same games."""
    game = get_game(setup.game)
    block = game.reference_block(setup, 0, games)
    hasher = hashlib.sha256()
    for name, table in sorted(game.tables(block, setup).items()):
        hasher.update(name.encode())
        hasher.update(repr(table.to_pylist()).encode())
    return hasher.hexdigest()[:16]


def runs() -> list[tuple[str, dict[str, Any]]]:
    """Every run fingerprinted, by label."""
    plan: list[tuple[str, dict[str, Any]]] = []
    for game_id in MODULES:
        game = get_game(game_id)
        players = game.min_players if game.min_players == game.max_players else 3
        names = list(game.strategies())
        for name in names:
            searching = any(word in name for word in SEARCHING)
            games = GAMES["search" if searching else "random"]
            plan.append(
                (
                    f"{game_id} {players}p {name}",
                    dict(game=game_id, players=players, strategies=[name], games=games),
                )
            )
        quick = [n for n in names if not any(word in n for word in SEARCHING)]
        lineup = [quick[i % len(quick)] for i in range(players)]
        plan.append(
            (
                f"{game_id} {players}p {'/'.join(lineup)} rotated",
                dict(game=game_id, players=players, strategies=lineup, games=600),
            )
        )
        for variant in _variants(game_id):
            plan.append(
                (
                    f"{game_id} {players}p random +{variant}",
                    dict(game=game_id, players=players, variants=[variant], games=600),
                )
            )
    return plan


def _variants(game_id: str) -> tuple[str, ...]:
    module = __import__(MODULES[game_id].rsplit(".", 1)[0] + ".rules", fromlist=["VARIANTS"])
    return tuple(getattr(module, "VARIANTS", ()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", help="write the fingerprints to this JSON file")
    parser.add_argument("--check", help="compare with fingerprints saved earlier")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    print(f"# {platform.node()} {platform.machine()} {platform.python_version()}", flush=True)
    found: dict[str, str] = {}
    start = time.perf_counter()
    for label, kwargs in runs():
        rotate = label.endswith("rotated")
        run = api.simulate(seed=20261128, rotate_seats=rotate, threads=args.threads, **kwargs)
        found[label] = digest(run)
        reference_games = min(kwargs["games"], 60 if kwargs["games"] > 4 else 1)
        found[label + " reference"] = reference_digest(run.setup, reference_games)
        print(f"{found[label]} {found[label + ' reference']}  {label}", flush=True)
    print(f"# {len(found)} fingerprints in {time.perf_counter() - start:.0f} s")
    if args.save:
        with open(args.save, "w") as out:
            json.dump(found, out, indent=1)
    if args.check:
        with open(args.check) as saved_file:
            saved = json.load(saved_file)
        differ = sorted(k for k in saved.keys() | found.keys() if saved.get(k) != found.get(k))
        for key in differ:
            print(f"DIFFERS {key}: {saved.get(key)} -> {found.get(key)}")
        print(f"{len(saved) - len(differ)} of {len(saved)} fingerprints unchanged")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
