"""What ``balance strategy`` does: a template to start from, and a quick check of a file.

:func:`template` is a strategy file for a game that runs as it is; :func:`check` loads a
user's strategy, compiles its decisions alone with the argument types the game loop
passes, then plays a few games against the uniform-random strategy on the compiled
engine and on the reference engine (the strategy as plain Python), which must agree.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from balance.core.errors import BalanceError
from balance.games import get_game, registry
from balance.run.play import make_setup
from balance.run.runner import RunResult, run_games
from balance.stats.intervals import wilson_interval


def template(game: str) -> str:
    """A strategy file for ``game`` (named ``mine``) that runs as it is."""
    chosen = get_game(game)
    name = chosen.id.replace("-", "_") + ".py"
    built_in = resources.files("balance.authoring.templates").joinpath(name)
    if built_in.is_file():
        return built_in.read_text()
    # A game from a package: its own template beside its game module, if it ships one.
    found = importlib.util.find_spec(f"{chosen.package}.strategy_template")
    if found is not None and found.origin:
        return Path(found.origin).read_text(encoding="utf-8")
    shipped = importlib.util.find_spec(chosen.strategies_module)
    where = f" ({shipped.origin})" if shipped is not None and shipped.origin else ""
    raise BalanceError(
        f"{game} ships no strategy template: copy its strategies file{where} and play FILE.py:NAME"
    )


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found.

    Attributes
    ----------
    label : the strategy as the run names it.
    games : games played on each engine.
    seats : seats the strategy played (one a game).
    won : of those, seats that won (base rules).
    loaded : True if the strategy's compiled functions came from the cache, False if
        they were compiled.
    players : players at the table.
    variants : the variants it also played, all at once.
    """

    label: str
    games: int
    seats: int
    won: int
    loaded: bool
    players: int = 2
    variants: tuple[str, ...] = ()
    #: Whether the game has a compiled engine (else both runs are the reference engine's).
    compiled_engine: bool = True

    def lines(self) -> list[str]:
        """The check's report, as ``balance strategy check`` prints it."""
        low, high = wilson_interval(self.won, self.seats)
        how = "loaded from the cache" if self.loaded else "compiled"
        again = (
            f", then again with every variant ({', '.join(self.variants)})" if self.variants else ""
        )
        engines = (
            f"on the compiled engine ({how}) and the reference engine"
            if self.compiled_engine
            else "as it is and as plain Python (--debug), on the game's reference engine"
        )
        return [
            f"ok: {self.label} compiles, and plays {self.games} games against random at "
            f"{self.players} players with the same results {engines}, base rules{again}",
            f"  won {self.won} of {self.seats} games of the base rules "
            f"({self.won / self.seats:.0%}, 95% interval {low:.0%} to {high:.0%}; one seat a "
            f"game among {self.players} players, seats rotated)",
        ]


def check(
    text: str,
    game: str,
    games: int = 100,
    on_compile: Callable[[str], None] | None = None,
) -> CheckResult:
    """Load ``FILE.py:NAME``, type-check it, and play ``games`` games against random on
    both engines, with the base rules and again with every variant of the game at once (a
    variant may ask decisions the base game never does); a :class:`BalanceError` says what
    is wrong."""
    if ".py:" not in text:
        raise BalanceError(f"give a strategy file and name, FILE.py:NAME, not {text!r}")
    chosen = get_game(game)
    players = 2 if chosen.min_players <= 2 <= chosen.max_players else chosen.min_players
    setup = make_setup(
        chosen.id, players, strategies=[text] + ["random"] * (players - 1), rotate_seats=True
    )
    mine = setup.lineup.seats[0]
    # The runner type-checks the decisions before it compiles the strategy's functions
    # (functions loaded from the cache passed that check when they were compiled).
    compiled = run_games(setup, games, threads=1, progress=False, on_compile=on_compile)
    # A game without a compiled engine plays the strategy as it is: nothing is compiled.
    loaded = not chosen.has_compiled_engine or chosen.compiled.dispatch.from_cache(mine.strategy)
    reference = run_games(dataclasses.replace(setup, debug=True), games, threads=1, progress=False)
    _same_games(compiled, reference)
    if chosen.variants:
        # Some decisions only a variant asks (Walk the Plank's dolphin die asks 'push'):
        # the same games again with every variant, on the same compiled loop.
        every = dataclasses.replace(
            setup,
            rules=make_setup(chosen.id, players, variants=tuple(chosen.variants)).rules,
        )
        try:
            varied = run_games(every, games, threads=1, progress=False)
            debug = dataclasses.replace(every, debug=True)
            _same_games(varied, run_games(debug, games, threads=1, progress=False))
        except BalanceError as exc:
            named = ", ".join(chosen.variants)
            raise BalanceError(f"with every variant ({named}): {exc}") from None
    won = 0
    for block in compiled.blocks:
        rows = np.arange(block.first_game, block.first_game + block.size)
        seat_of_mine = np.stack(
            [setup.lineup.strategy_index(rows, s) for s in range(players)], axis=1
        )
        won += int((block.won & (seat_of_mine == 0)).sum())
    return CheckResult(
        mine.label,
        games,
        games,
        won,
        bool(loaded),
        players,
        tuple(chosen.variants),
        chosen.has_compiled_engine,
    )


def _same_games(compiled: RunResult, reference: RunResult) -> None:
    """The compiled and reference runs' records, game by game; an error at the first
    game where they differ."""
    for a, b in zip(compiled.blocks, reference.blocks, strict=True):
        for name in ("length", "finished", "won"):
            x, y = getattr(a, name), getattr(b, name)
            if not np.array_equal(x, y):
                rows = np.nonzero((x != y).reshape(len(x), -1).any(axis=1))[0]
                raise BalanceError(
                    f"the compiled and reference engines disagree from game "
                    f"{a.first_game + int(rows[0])} ({name}): does the strategy depend on "
                    "something other than its arguments and its rng?"
                )


def games_with_templates() -> list[str]:
    """Every game id, for the CLI's help."""
    return list(registry())
