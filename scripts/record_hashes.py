"""Fingerprints of seeded runs: every game, every shipped strategy, both engines.

A change meant to leave behaviour alone (a refactoring) must leave these unchanged::

    python scripts/record_hashes.py --save before.json     # on the old code
    python scripts/record_hashes.py --check before.json    # on the new code

``--game`` and ``--players`` narrow or widen the runs to some games and player counts
(each game's own range), ``--no-search`` leaves out the search players (minutes a run),
and ``--lineup`` adds a table of strategies with parameters::

    python scripts/record_hashes.py --game lifeboats --players 3 4 5 6 --no-search \\
        --lineup hatkeeper:stake=0,spite=0.5 --save before.json

Each line hashes the record tables (as the run's Parquet files hold them), then the
summary ``balance simulate --json`` prints, of a seeded run of one game with one shipped
strategy in every seat, then with every shipped strategy round the table, then per named
variant; the reference engine's records are hashed beside the compiled engine's. The
summary is hashed apart from the records: a change to how a summary is worked out shows
in its hash alone, a change to the games played in the records' too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from balance import api
from balance.games import MODULES, get_game

#: Games per run: enough for every kind of event to happen, few enough for search players.
GAMES = {"random": 400, "search": 4}
SEARCHING = ("mc", "ismcts")
#: Summary entries that measure the machine, not the games.
TIMING = ("elapsed_s", "games_per_s", "threads")


def digest(run: api.Run) -> tuple[str, str]:
    """A hash of a run's record tables, and one of its summary."""
    game = get_game(run.setup.game)
    hasher = hashlib.sha256()
    for block in run.result.blocks:
        for name, table in sorted(game.tables(block, run.setup).items()):
            hasher.update(name.encode())
            for column in table.column_names:
                hasher.update(column.encode())
                hasher.update(repr(table.column(column).to_pylist()).encode())
    summary = {k: v for k, v in run.summary().items() if k not in TIMING}
    text = json.dumps(summary, sort_keys=True, default=str).encode()
    return hasher.hexdigest()[:16], hashlib.sha256(text).hexdigest()[:16]


def reference_digest(setup: Any, games: int) -> str:
    """One hash of the reference engine's records of the same games."""
    game = get_game(setup.game)
    block = game.reference_block(setup, 0, games)
    hasher = hashlib.sha256()
    for name, table in sorted(game.tables(block, setup).items()):
        hasher.update(name.encode())
        hasher.update(repr(table.to_pylist()).encode())
    return hasher.hexdigest()[:16]


def runs(
    games: Sequence[str] = (),
    counts: Sequence[int] = (),
    lineups: Sequence[str] = (),
    search: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """Every run fingerprinted, by label.

    Parameters
    ----------
    games : the games to run (all if empty).
    counts : the player counts, each within a game's range (3, or a game's only count,
        if empty).
    lineups : extra tables, each one strategy (with parameters) in every seat, or several
        separated by ``/`` round the table (rotated); played for every game and count.
    search : whether to run the search players too (slow: minutes a game and count).
    """
    plan: list[tuple[str, dict[str, Any]]] = []
    for game_id in games or MODULES:
        game = get_game(game_id)
        default = game.min_players if game.min_players == game.max_players else 3
        for players in counts or (default,):
            if game.min_players <= players <= game.max_players:
                plan.extend(_game_runs(game, players, lineups, search))
    return plan


def _game_runs(
    game: Any, players: int, lineups: Sequence[str], search: bool
) -> list[tuple[str, dict[str, Any]]]:
    """The runs of one game at one player count."""
    game_id = game.id
    plan: list[tuple[str, dict[str, Any]]] = []
    names = list(game.strategies())
    for name in names:
        searching = any(word in name for word in SEARCHING)
        if searching and not search:
            continue
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
    for text in lineups:
        table = text.split("/")
        seated = [table[i % len(table)] for i in range(players)]
        plan.append(
            (
                f"{game_id} {players}p {text}" + (" rotated" if len(table) > 1 else ""),
                dict(game=game_id, players=players, strategies=seated, games=600),
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
    parser.add_argument("--game", action="append", default=[], help="only this game (repeat)")
    parser.add_argument("--players", type=int, nargs="+", default=[], help="player counts")
    parser.add_argument("--no-search", action="store_true", help="leave the search players out")
    parser.add_argument(
        "--lineup",
        action="append",
        default=[],
        help="an extra table: STRATEGY[:PARAMS], or several joined by / (repeat)",
    )
    args = parser.parse_args()
    print(f"# {platform.node()} {platform.machine()} {platform.python_version()}", flush=True)
    found: dict[str, str] = {}
    start = time.perf_counter()
    for label, kwargs in runs(args.game, args.players, args.lineup, not args.no_search):
        rotate = label.endswith("rotated")
        run = api.simulate(seed=20261128, rotate_seats=rotate, threads=args.threads, **kwargs)
        found[label], found[label + " summary"] = digest(run)
        reference_games = min(kwargs["games"], 60 if kwargs["games"] > 4 else 1)
        found[label + " reference"] = reference_digest(run.setup, reference_games)
        print(
            f"{found[label]} {found[label + ' summary']} {found[label + ' reference']}  {label}",
            flush=True,
        )
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
