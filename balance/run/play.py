"""A run in one call: a run's choices validated into a :class:`Setup`, its games played
(to a count or to a precision), kept in memory and saved; the facade :mod:`balance.api`
and every analysis start here."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.core.errors import BalanceError
from balance.core.game import Lineup, Setup
from balance.core.lazy import pa, pd  # loaded when records are read
from balance.core.strategy import parse_strategy
from balance.games import get_game
from balance.run.results import RunWriter, manifest_for
from balance.run.runner import RunResult, check_run, run_games
from balance.run.summary import summarize


def make_setup(
    game: str,
    players: int | None,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    variants: Sequence[str] = (),
    rules: Mapping[str, Any] | Iterable[tuple[str, str]] = (),
    rotate_seats: bool = False,
    restricted: Sequence[str] = (),
) -> Setup:
    """Validate a run's choices and turn them into a :class:`Setup`.

    ``strategies`` holds one entry for every seat, or one per seat in seat order; each is
    a shipped strategy's name, ``name:param=value,...`` or ``path/to/file.py:name``.
    ``rules`` maps rule names to values (or is a list of ``(name, text)`` pairs).
    ``restricted`` names actions (cards) that one seat of every game may never choose
    (:meth:`Lineup.restricted_seat`): restricted play (:mod:`balance.analyses.restricted`). With
    ``rotate_seats``, games go through every order of the strategies round the table.
    ``players`` None: the game's only player count, or 4.
    """
    chosen = get_game(game)
    if players is None:  # a game played by one number of players needs no choice
        players = chosen.min_players if chosen.min_players == chosen.max_players else 4
    chosen.check_players(players)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BalanceError(f"seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    pairs = list(rules.items()) if isinstance(rules, Mapping) else list(rules)
    if any(name == "decks" for name, _ in pairs) and not chosen.capabilities.decks:
        raise BalanceError(f"decks (--deck) are for battle-of-thieves; {game} is played without")
    values = chosen.make_rules(list(variants), [(k, _as_text(v)) for k, v in pairs])
    chosen.check_rules(values, players)
    texts = list(strategies) or ["random"]
    if len(texts) == 1:
        texts = texts * players
    if len(texts) != players:
        raise BalanceError(
            f"give one strategy for every seat, or one per seat: {len(texts)} given "
            f"for {players} players"
        )
    shipped = chosen.strategies()
    seats = tuple(parse_strategy(text, shipped, chosen.id) for text in texts)
    for seat in seats:
        if seat.strategy.code is None:
            chosen.check_strategy(seat.strategy)
    restricted = tuple(restricted)
    chosen.check_restricted(restricted)
    return Setup(chosen.id, players, values, Lineup(seats, rotate_seats, restricted), seed)


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple | set | frozenset):
        return ",".join(value) if value else "none"
    return str(value)


class Run:
    """A finished (or interrupted) run: its summary and its records as DataFrames."""

    def __init__(self, result: RunResult, tracker: Any = None) -> None:
        self.result = result
        self.setup = result.setup
        self.tracker = tracker  # a precision run's SeatTracker (balance.run.precision)
        self._tables: dict[str, pd.DataFrame] = {}

    @property
    def games_played(self) -> int:
        return self.result.games

    def summary(self) -> dict[str, Any]:
        """The numbers ``balance simulate --json`` prints."""
        summary = summarize(self.result)
        if self.tracker is not None:
            from balance.run.precision import add_precision

            add_precision(summary, self.tracker, self.result.requested)
        return summary

    def _table(self, name: str) -> pd.DataFrame:
        game = get_game(self.setup.game)
        if not self.result.blocks:
            raise BalanceError("the run played no games")
        if not self.result.keep_records:
            raise BalanceError(
                "this run kept only its summary (keep_records=False); "
                "run it with keep_records=True, or read the records saved with out=..."
            )
        first = game.tables(self.result.blocks[0], self.setup)
        if name not in first:
            raise BalanceError(
                f"{game.id} records no {name!r} table; its tables: {', '.join(first)}"
            )
        tables = [game.tables(block, self.setup)[name] for block in self.result.blocks]
        return pa.concat_tables(tables).to_pandas()

    def table(self, name: str) -> pd.DataFrame:
        """Any of the game's record tables by name, as in the run's Parquet files."""
        if name not in self._tables:
            self._tables[name] = self._table(name)
        return self._tables[name]

    @property
    def games(self) -> pd.DataFrame:
        """One row per game."""
        return self.table("games")

    @property
    def seats(self) -> pd.DataFrame:
        """One row per game and seat: strategy, won, what was left."""
        return self.table("seats")

    @property
    def cards(self) -> pd.DataFrame:
        """One row per game and card, summed over the seats (Walk the Plank)."""
        return self.table("cards")

    @property
    def actions(self) -> pd.DataFrame:
        """One row per game, seat and action (La Planche)."""
        return self.table("actions")


def simulate(
    game: str = "walk-the-plank",
    players: int | None = 4,
    games: int = 10_000,
    seed: int = 0,
    strategies: Sequence[str] = ("random",),
    variants: Sequence[str] = (),
    rules: Mapping[str, Any] | Iterable[tuple[str, str]] = (),
    rotate_seats: bool = False,
    restricted: Sequence[str] = (),
    threads: int | None = None,
    batch: int | None = None,
    out: str | Path | None = None,
    progress: bool = False,
    keep_records: bool = True,
    on_compile: Callable[[str], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    debug: bool = False,
) -> Run:
    """Play ``games`` games and return them; with ``out``, also save them to that directory.

    ``restricted`` names cards that one seat of every game may never program
    (restricted play, and :meth:`Lineup.restricted_seat`).
    With ``precision`` H, ``games`` is ignored: blocks of games are played until every
    seat's win rate and the balance index have a 95% anytime-valid interval at most H
    either side, or until ``max_games`` (10 million by default); see
    :mod:`balance.run.precision`.
    ``keep_records`` False keeps no records in memory, only the running sums the summary
    needs (:mod:`balance.run.moments`): memory does not grow with games (``out`` still saves
    every record, block by block).
    ``debug`` plays on the reference engine with a user's strategies as plain Python (a
    ``print()`` or breakpoint in them works): the same games as the compiled run, slowly.
    ``on_compile`` is told, in a sentence, when an engine compiles and when ``out`` held a
    saved run that this one replaces.
    """
    from balance.run.precision import DEFAULT_MAX_GAMES, SeatTracker, check_precision, play_until

    setup = make_setup(game, players, seed, strategies, variants, rules, rotate_seats, restricted)
    tracker = None
    if debug:
        setup = dataclasses.replace(setup, debug=True)
    if precision is not None:
        max_games = DEFAULT_MAX_GAMES if max_games is None else max_games
        check_precision(precision, max_games)
        check_run(max_games, threads, None)
        games = max_games
        tracker = SeatTracker(setup.players, precision)
    else:
        check_run(games, threads, batch)  # before an old run in ``out`` is replaced
    writer = RunWriter(Path(out), setup) if out is not None else None
    if writer is not None and writer.replaced and on_compile:
        on_compile(f"replacing the run saved in {str(out)!r} ({writer.replaced})")
    try:
        if tracker is not None:
            result = play_until(
                setup,
                tracker,
                games,
                threads=threads,
                sinks=[writer] if writer else [],
                keep_records=keep_records,
                progress=progress,
                on_compile=on_compile,
                sums_only=not keep_records,
            )
            tracker.finish()
        else:
            result = run_games(
                setup,
                games,
                threads=threads,
                batch=batch,
                sinks=[writer] if writer else [],
                keep_records=keep_records,
                progress=progress,
                on_compile=on_compile,
                sums_only=not keep_records,
            )
    except BalanceError as error:
        if writer is not None:  # keep what was played, marked as stopped by the error
            writer.close(manifest_for(setup, games, True, error=str(error)), None)
        raise
    run = Run(result, tracker)
    if writer is not None:
        summary = run.summary()
        writer.close(
            manifest_for(
                setup,
                games,
                result.partial,
                threads=result.threads,
                **({"precision": precision} if precision is not None else {}),
            ),
            summary,
        )
    return run
