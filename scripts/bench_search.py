"""Speed of the search players, and of a skill ladder.

Run from the project root (``scripts/bench.py --search`` and ``--skill`` run it too):

    python scripts/bench_search.py                      # every game's search players
    python scripts/bench_search.py --quick              # fewer games a measurement
    python scripts/bench_search.py --game la-planche --budgets 16 64
    python scripts/bench_search.py --skill              # the 4-player Walk the Plank ladder
    python scripts/bench_search.py --json runs/search.json

**Search players** (``mc:playouts=K``, ``ismcts:iterations=K``): for every game that ships
them, at each budget K, the search player in one seat and its rollout strategy in the
others, seats rotated: games per second, and decisions per second = games per second x
the search seat's decisions per game. A game that records its players' decisions (La
Planche's ``actions`` table) counts them; the others count the search seat's share of
the game's length (Walk the Plank and Lifeboats: one programme or vote a round, so the
rounds; Battle of Thieves: half the turns), and the record says which
(``decisions_counted_as``). A game without search players is skipped with a note.

**Skill ladder** (``--skill``): the wall time of ``balance skill walk-the-plank -p 4`` with
five rungs and 2,000 games a match, in a fresh interpreter (after one small run that
compiles or loads the engine): random, greedy, then ``mc`` at 1, 2 and 4 playouts with
greedy's playouts, guesses and three best cards a slot (``width=3``), the search rungs
that beat greedy; without ``mc``, the five rungs of the default ladder (random and the
four heuristics), and a note says so.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from balance.api import make_setup
from balance.games import get_game
from balance.run.runner import default_threads, run_games

#: The search players and their budget parameter.
SEARCH = {"mc": "playouts", "ismcts": "iterations"}
#: Budgets measured (playouts or iterations a decision).
BUDGETS = (16, 64, 256)
#: Players a table, and the rollout strategy of each game's search players.
PLAN = {
    "walk-the-plank": (4, "greedy"),
    "la-planche": (2, "detective"),
    "lifeboats": (4, "steward"),
    "battle-of-thieves": (2, "cannoneer"),
}
#: Battle of Thieves' decks for every measurement.
RULES = {"battle-of-thieves": [("decks", "cannon-battery,boarding-party")]}
#: The issue's target: a five-rung ladder of 4-player Walk the Plank, 2,000 games a match.
SKILL_GAMES = 2_000
SKILL_LIMIT_S = 600.0


def search_players(game_id: str) -> list[str]:
    """The search players ``game_id`` ships, in :data:`SEARCH` order."""
    shipped = get_game(game_id).strategies()
    return [name for name in SEARCH if name in shipped]


def spec(player: str, budget: int, rollout: str) -> str:
    """``ismcts:iterations=64,rollout=greedy``; a strategy with no budget parameter (a
    heuristic standing in for a search player) as its name alone."""
    if player not in SEARCH:
        return player
    return f"{player}:{SEARCH[player]}={budget},rollout={rollout}"


def decisions_per_game(game_id: str, run: Any, seats: Sequence[int]) -> tuple[float, str]:
    """The search seat's mean decisions a game, and what was counted.

    Parameters
    ----------
    run : a :class:`balance.api.Run` with its records; seats : ``(G,)`` the search
        player's seat in each game.
    """
    import numpy as np

    if game_id == "la-planche":
        actions = run.actions
        seat_of = dict(enumerate(seats))
        mine = actions[actions["seat"] == actions["game"].map(seat_of)]
        count_column = "count" if "count" in mine else mine.columns[-1]
        return float(mine[count_column].sum()) / len(seats), "actions taken (records)"
    length = np.concatenate([block.length for block in run.result.blocks]).astype(float)
    if game_id == "battle-of-thieves":
        return float(length.mean()) / 2, "half the turns (its own turns)"
    return float(length.mean()), "rounds (one programme or vote a round)"


def measure_case(
    game_id: str,
    players: int,
    player: str,
    budget: int,
    rollout: str,
    games: int,
    threads: int,
) -> dict[str, Any]:
    """One measurement: ``player`` at ``budget`` in one seat, ``rollout`` in the others,
    seats rotated; games per second (best of two runs) and decisions per second."""
    import numpy as np

    from balance.api import Run

    text = spec(player, budget, rollout)
    lineup = [text, *[rollout] * (players - 1)]
    rules = RULES.get(game_id, [])
    setup = make_setup(game_id, players, 0, lineup, (), rules, rotate_seats=True)
    run_games(setup, 2, threads=threads, progress=False)  # compile or load
    best = float("inf")
    result = None
    for _ in range(2):
        clock = time.perf_counter()
        result = run_games(setup, games, threads=threads, progress=False)
        best = min(best, time.perf_counter() - clock)
    assert result is not None
    index = np.arange(games, dtype=np.int64)
    entries = np.stack(
        [setup.lineup.strategy_index(index, seat) for seat in range(players)], axis=1
    )
    seats = np.argmax(entries == 0, axis=1)
    per_game, counted = decisions_per_game(game_id, Run(result), seats)
    rate = games / best
    return {
        "kind": "search",
        "game": game_id,
        "players": players,
        "strategy": text,
        "budget": budget if player in SEARCH else None,
        "rollout": rollout,
        "threads": threads,
        "games": games,
        "games_per_s": rate,
        "decisions_per_game": per_game,
        "decisions_per_s": rate * per_game,
        "decisions_counted_as": counted,
    }


def search_records(
    game_ids: Iterable[str], budgets: Sequence[int], quick: bool, threads: int
) -> Iterable[dict[str, Any]]:
    """Every game's search players at every budget; a note for a game without any."""
    for game_id in game_ids:
        players, rollout = PLAN[game_id]
        found = search_players(game_id)
        if not found:
            print(f"{game_id}: ships no search player (mc, ismcts) yet: skipped")
            continue
        for player in found:
            for budget in budgets:
                games = max(4, (200 if quick else 2_000) * 16 // budget)
                yield measure_case(game_id, players, player, budget, rollout, games, threads)


#: The search rungs of the ladder timed: the rollout player that beats greedy
#: (docs/skill.md), its programme search narrowed to greedy's three best cards a slot.
LADDER_SEARCH = "mc:playouts={},rollout=greedy,guess=rollout,width=3"


def skill_rungs() -> tuple[list[str], str]:
    """The five rungs of the ladder measured, and a note when it has no search rungs."""
    shipped = get_game("walk-the-plank").strategies()
    if "mc" in shipped:
        return ["random", "greedy", *(LADDER_SEARCH.format(2**k) for k in (0, 1, 2))], ""
    heuristics = [name for name in shipped if name != "random" and name not in SEARCH]
    return ["random", *heuristics][:5], (
        "Walk the Plank ships no mc yet: the five rungs are random and its heuristics"
    )


def skill_record(games: int = SKILL_GAMES, threads: int | None = None) -> dict[str, Any]:
    """Wall time of ``balance skill walk-the-plank -p 4`` on five rungs, ``games`` a match,
    in a fresh interpreter, after a small run that compiles or loads the engines."""
    rungs, note = skill_rungs()
    args = ["skill", "walk-the-plank", "-p", "4", *[x for r in rungs for x in ("--rung", r)]]
    if threads is not None:
        args += ["-t", str(threads)]
    program = [sys.executable, "-c", "from balance.cli import main; main()", *args]
    subprocess.run([*program, "-g", "24", "--json"], capture_output=True, check=True)
    clock = time.perf_counter()
    done = subprocess.run([*program, "-g", str(games), "--json"], capture_output=True, check=True)
    seconds = time.perf_counter() - clock
    depth = json.loads(done.stdout)["skill_depth"]
    return {
        "kind": "skill",
        "command": "balance " + " ".join(args) + f" -g {games}",
        "rungs": rungs,
        "games": games,
        "seconds": seconds,
        "within_target": seconds <= SKILL_LIMIT_S,
        "skill_depth": depth,
        "note": note,
    }


def row_text(r: dict[str, Any]) -> str:
    """One measurement as a printed line."""
    if r["kind"] == "skill":
        verdict = "within" if r["within_target"] else "OVER"
        return (
            f"skill ladder, {len(r['rungs'])} rungs x {r['games']:,} games a match: "
            f"{r['seconds']:.1f} s ({verdict} the {SKILL_LIMIT_S / 60:.0f}-minute target)"
            + (f"; note: {r['note']}" if r["note"] else "")
        )
    return (
        f"{r['game']:<18} {r['players']}p  {r['strategy']:<40} {r['games_per_s']:>10,.1f} "
        f"games/s {r['decisions_per_s']:>12,.0f} decisions/s  ({r['decisions_per_game']:.1f} "
        f"decisions a game: {r['decisions_counted_as']}; {r['threads']} thread(s), "
        f"{r['games']:,} games)"
    )


def measure(
    quick: bool = False,
    games: Sequence[str] | None = None,
    budgets: Sequence[int] = BUDGETS,
    skill: bool = False,
    search: bool = True,
    threads: int | None = None,
) -> list[dict[str, Any]]:
    """Print and return every measurement asked for."""
    records = []
    threads = threads or default_threads()
    if search:
        print("search players: games/s and decisions/s of the search seat")
        for r in search_records(games or list(PLAN), budgets, quick, threads):
            print(row_text(r), flush=True)
            records.append(r)
    if skill:
        r = skill_record(200 if quick else SKILL_GAMES, threads)
        print(row_text(r), flush=True)
        records.append(r)
    return records


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games a measurement")
    parser.add_argument("--game", choices=sorted(PLAN), nargs="*", default=None)
    parser.add_argument("--budgets", type=int, nargs="*", default=list(BUDGETS))
    parser.add_argument("--skill", action="store_true", help="also time the skill ladder")
    parser.add_argument("--only-skill", action="store_true", help="time the skill ladder only")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: all)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the records here")
    args = parser.parse_args(argv)
    if any(b < 1 for b in args.budgets):
        parser.error("--budgets must be whole numbers of 1 or more")
    records = measure(
        args.quick,
        args.game,
        args.budgets,
        skill=args.skill or args.only_skill,
        search=not args.only_skill,
        threads=args.threads,
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(records, indent=1) + "\n")
        print(f"wrote {len(records)} records to {args.json}")


if __name__ == "__main__":
    main()
