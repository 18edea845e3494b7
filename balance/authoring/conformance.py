"""Whether a game keeps the contract the shared layers rely on: ``balance game check``.

The checks are those the contract suite (``tests/contract``) runs on every built-in game,
as a library that any installed game can be put through, with a compiled engine or
without: its declaration, its shipped strategies, its records and summary, its two
engines playing the same games, records that do not depend on threads or block size,
replay, and bad rule values refused in one line. Each :class:`Finding` is one line: a game
that fails in any way, even with an exception of its own, gives failing findings, never a
traceback.

The runs find a game by its id (:func:`balance.games.get_game`), so the game checked must
be the one the registry gives for its id.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from balance.analyses.skill import SEARCH
from balance.core import game as core_game
from balance.core.catalog import listed_strategies
from balance.core.errors import BalanceError, error_line
from balance.core.game import Block, Capabilities, EngineGame, Game, RuleSet, Setup
from balance.core.records import RecordLayout
from balance.games import get_game
from balance.run.play import make_setup, simulate
from balance.run.results import json_safe, load_run
from balance.run.runner import RunResult, run_games
from balance.run.summary import summarize

#: The checks, in the order they run, as findings name them.
CHECKS = ("declaration", "strategies", "records", "engines", "threads", "replay", "rules")
#: Games each case plays, and the seed they are played from, unless told otherwise.
DEFAULT_GAMES = 200
DEFAULT_SEED = 20261128
#: Where the engines' games start for each declared rule set: not at 0, so that a game
#: index reaching the random streams wrongly shows.
FIRST_GAME = 1_000
#: The games each narrated game check replays.
REPLAYED = (0, 7)

#: Texts no rule takes as its value: not a value, below every range, not a switch.
BAD_TEXTS = ("%%", "-1", "maybe")

#: The keys every game's summary has, and the type of each.
COMMON_KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "players": int,
    "games": int,
    "requested_games": int,
    "partial": bool,
    "seed": int,
    "variants": list,
    "rules": dict,
    "strategies": list,
    "rotate_seats": bool,
    "seating": str,
    "restricted": list,
    "threads": int,
    "backend": str,
    "finished_rate": float,
    "finished_ci95": list,
    "length_mean": float,
    "length_ci95": list,
    "length_sd": float,
    "length_unit": str,
    "winner_count": dict,
    "winner_count_ci95": dict,
    "seat_win_rate": list,
    "balance_index": float,
    "balance_index_ci95": list,
    "elapsed_s": float,
    "games_per_s": float,
}
#: The summary keys that depend on the clock, the threads and where the games were played,
#: not on the games.
TIMING_KEYS = frozenset({"elapsed_s", "games_per_s", "threads", "backend"})

#: The methods a game overrides to implement each capability (beside the declaration).
IMPLEMENTED_BY: dict[str, tuple[str, ...]] = {
    "restricted_actions": ("actions", "check_restricted"),
    "decks": ("blank_setups", "card_values", "add_card_values", "manifest_extra", "check_saved"),
    "reference_engine": (),  # a module, not methods: see ``MODULES_FOR``
    "replay": (),
    "running_sums": ("sum_columns", "summarize_sums"),
    "slim_records": ("play_slim_block",),
    "search": (),  # shipped strategies, not methods: see ``implemented``
}
#: The module a game's package holds to implement a capability (EngineGame finds it there
#: and plays blocks and narrates games with it).
MODULES_FOR: dict[str, str] = {"reference_engine": "reference", "replay": "reference"}


@dataclass(frozen=True)
class Finding:
    """One case of one check.

    Attributes
    ----------
    check : the check it belongs to (one of :data:`CHECKS`, or ``registry``).
    ok : whether the game passed it.
    message : what was checked, and for a failure what was wrong, in one line.
    """

    check: str
    ok: bool
    message: str

    @property
    def line(self) -> str:
        """The finding as ``balance game check`` prints it."""
        return f"{'ok' if self.ok else 'FAIL'} {self.check}: {self.message}"


class Broken(Exception):
    """What a check found wrong with a game, said in one line."""


def require(condition: Any, message: str) -> None:
    """Raise :class:`Broken` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise Broken(message)


def first_line(text: str) -> str:
    """The first line of ``text`` that says anything (a message's first line)."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def one_line(error: BaseException) -> str:
    """An exception in one line: what a check found, or ``Type: first line``."""
    if isinstance(error, Broken):
        return first_line(str(error))
    return error_line(error)


# --- What a game declares against what it implements ---------------------------------


def implemented(game: Game, capability: str) -> bool:
    """Whether ``game`` implements ``capability``, whatever it declares: it overrides the
    capability's methods (all of them), or for ``search`` ships a search player."""
    if capability == "search":
        return any(name in SEARCH for name in game.strategies())
    if capability in MODULES_FOR:
        return getattr(game, MODULES_FOR[capability], None) is not None
    methods = IMPLEMENTED_BY[capability]
    overridden = [getattr(type(game), m) is not getattr(EngineGame, m) for m in methods]
    if all(overridden) and capability == "restricted_actions":
        return bool(game.actions())
    return all(overridden)


def mismatches(game: Game) -> list[str]:
    """Each capability ``game`` declares without implementing it, or implements without
    declaring it, as a sentence."""
    found = []
    for field in dataclasses.fields(Capabilities):
        declared = getattr(game.capabilities, field.name)
        if declared != implemented(game, field.name):
            said = "declares" if declared else "does not declare"
            done = "does not implement" if declared else "implements"
            found.append(f"{game.id} {said} {field.name} but {done} it")
    return found


# --- The set-ups the checks play, as the command line builds them ---------------------


def player_counts(game: Game) -> range:
    """Every player count the game declares."""
    return range(game.min_players, game.max_players + 1)


def rule_setup(game: Game, rule_set: RuleSet, players: int, seed: int = DEFAULT_SEED) -> Setup:
    """``rule_set`` at ``players`` players, every seat the uniform-random strategy."""
    return make_setup(game.id, players, seed, ["random"], rule_set.variants, rule_set.rules)


def plain_strategies(game: Game) -> list[str]:
    """The shipped strategies that are not search players (which compile a loop of
    their own, minutes long)."""
    return [name for name in game.strategies() if name not in SEARCH]


def mixed_lineups(game: Game, strategies: Sequence[str]) -> Iterator[list[str]]:
    """Line-ups at the most players that together seat each of ``strategies``: the
    strategies in turn, the last line-up filled up from the first ones."""
    n = game.max_players
    for start in range(0, len(strategies), n):
        chunk = list(strategies[start : start + n])
        yield (chunk + list(strategies) * n)[:n]


def mixed_setup(game: Game, restricted: Sequence[str] = (), seed: int = 5) -> Setup:
    """Every plain shipped strategy that fits at the table, seats rotated, and with
    ``restricted`` forbidden to one seat a game."""
    lineup = next(mixed_lineups(game, plain_strategies(game)))
    return make_setup(game.id, len(lineup), seed, lineup, rotate_seats=True, restricted=restricted)


def restricted_choices(game: Game) -> list[tuple[str, ...]]:
    """Nothing restricted, then the first and the last action the game may forbid, alone
    (the engines forbid every action by the same code, an action index)."""
    actions = tuple(game.actions())
    return [(), *((action,) for action in dict.fromkeys(actions[:1] + actions[-1:]))]


# --- Comparing what two runs recorded -------------------------------------------------


def block_difference(
    expected: Sequence[Block],
    got: Sequence[Block],
    names: tuple[str, str] = ("expected", "got"),
    layout: RecordLayout | None = None,
) -> str | None:
    """The first way two runs record different games, or None if they record the same:
    every array of every block, joined in game order, value for value and type for type.

    ``names`` names the two runs in the sentence; with the game's ``layout``, a record
    array's difference names the stat (and the index on its axes) where it first shows.
    """
    a, b = names
    firsts = [[block.first_game for block in blocks][:1] for blocks in (expected, got)]
    if firsts[0] != firsts[1]:
        return f"the first game is {firsts[0]} in {a}, {firsts[1]} in {b}"
    first = firsts[0][0] if firsts[0] else 0
    joined = [_joined(blocks) for blocks in (expected, got)]
    if joined[0].keys() != joined[1].keys():
        return f"{a} records {sorted(joined[0])}, {b} {sorted(joined[1])}"
    for name, array in joined[0].items():
        other = joined[1][name]
        if array.dtype != other.dtype:
            return f"{name} is {array.dtype} in {a}, {other.dtype} in {b}"
        if array.shape != other.shape:
            return f"{name} has the shape {array.shape} in {a}, {other.shape} in {b}"
        same = array == other
        if array.dtype.kind in "fc":  # NaN where both have NaN is the same record
            same |= np.isnan(array) & np.isnan(other)
        rows = np.flatnonzero(~same.reshape(len(array), -1).all(axis=1)) if array.ndim else []
        if len(rows):
            row = int(rows[0])
            where = _stat_where(layout, name, ~same[row]) if layout is not None else None
            if where is not None:
                at, index = where
                return (
                    f"{name.removeprefix('extra.')} differs first in game {first + row} at {at}: "
                    f"{array[row][index].item()} in {a}, {other[row][index].item()} in {b}"
                )
            values = ""
            if array[row].size <= 8:
                values = f": {np.asarray(array[row]).tolist()} in {a}, "
                values += f"{np.asarray(other[row]).tolist()} in {b}"
            return f"{name} differs first in game {first + row}{values}"
    return None


def _stat_where(
    layout: RecordLayout, name: str, differs: np.ndarray
) -> tuple[str, tuple[int, ...]] | None:
    """Where in one game's record array ``extra.<array>`` the first difference lies, in
    the layout's words (``stat 'sixes', seat 1``), and its index; None if not such."""
    array = name.removeprefix("extra.")
    if array == name or array not in {a.name for a in layout.arrays}:
        return None
    declared = layout[array]
    index = tuple(int(i) for i in np.argwhere(differs)[0])
    if not declared.stats or len(index) != len(declared.axes) + 1:
        return None
    slot, stat = index[-1], None
    for entry, start in zip(declared.stats, declared.slots, strict=False):
        if start <= slot < start + entry.width:
            stat = entry.name
    axes = [f"{axis.name} {i}" for axis, i in zip(declared.axes, index[:-1], strict=True)]
    return ", ".join([f"stat {stat!r}", *axes]), index


def _joined(blocks: Sequence[Block]) -> dict[str, np.ndarray]:
    """Every array of ``blocks``, joined in game order, by name (``extra.<name>``)."""
    if not blocks:
        return {}
    out = {
        "length": np.concatenate([np.asarray(b.length) for b in blocks]),
        "finished": np.concatenate([np.asarray(b.finished) for b in blocks]),
        "won": np.concatenate([np.asarray(b.won) for b in blocks]),
    }
    for name in blocks[0].extra:
        out[f"extra.{name}"] = np.concatenate([np.asarray(b.extra[name]) for b in blocks])
    return out


def _layout(game: Game) -> RecordLayout | None:
    """The game's record layout, if it says (an :class:`EngineGame` does)."""
    try:
        return getattr(game, "layout", None)
    except BalanceError:
        return None


def value_difference(a: Any, b: Any, path: str = "summary", rel: float = 1e-9) -> str | None:
    """The first place two summaries differ, or None: equal keys and values, floats equal
    to ``rel`` (rounding by default), NaN to NaN."""
    if isinstance(a, dict):
        if not isinstance(b, dict) or a.keys() != b.keys():
            keys = sorted(b) if isinstance(b, dict) else type(b).__name__
            return f"{path}: keys {sorted(a)} against {keys}"
        for key in a:
            found = value_difference(a[key], b[key], f"{path}.{key}", rel)
            if found:
                return found
        return None
    if isinstance(a, list | tuple):
        if not isinstance(b, list | tuple) or len(a) != len(b):
            return f"{path}: {a!r} against {b!r}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = value_difference(x, y, f"{path}[{i}]", rel)
            if found:
                return found
        return None
    if isinstance(a, float | np.floating) or isinstance(b, float | np.floating):
        numbers = all(
            isinstance(v, int | float | np.number) and not isinstance(v, bool) for v in (a, b)
        )
        if not numbers:
            return f"{path}: {a!r} against {b!r}"
        if math.isnan(a) or math.isnan(b):
            return None if math.isnan(a) and math.isnan(b) else f"{path}: {a!r} against {b!r}"
        close = math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)
        return None if close else f"{path}: {a!r} against {b!r}"
    return None if a == b else f"{path}: {a!r} against {b!r}"


def without_timing(summary: Mapping[str, Any]) -> dict[str, Any]:
    """``summary`` without what the clock and the threads decide."""
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


# --- The checks ----------------------------------------------------------------------


def check_game(
    game: Game,
    *,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str], None] | None = None,
) -> list[Finding]:
    """Put ``game`` through the conformance suite: :data:`CHECKS`, in that order.

    Parameters
    ----------
    game : the game, as :func:`balance.games.get_game` gives it by its id (the runs find
        it there).
    games : games each case plays (each declared rule set at each player count on both
        engines, each run...); at least 2.
    seed : the seed of every run.
    progress : told, in a sentence, which check starts and when an engine compiles.

    Returns
    -------
    One :class:`Finding` a case, passed or failed; only a ``registry`` finding if the
    registry gives another game for ``game.id``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise BalanceError(f"games: give a whole number of at least 2, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BalanceError(f"seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    checker = _Checker(game, games, seed, progress)
    broken = _unimportable(game)
    if broken is not None:  # one cause, said once, rather than every check failing on it
        return [Finding("declaration", False, broken)]
    if checker.registered():
        for check in CHECKS:
            checker.say(f"{game.id}: checking {check}...")
            getattr(checker, check)()
    return checker.findings


def _unimportable(game: Game) -> str | None:
    """The one-line error of a module of the game that fails to import (its strategies,
    compiled engine or reference engine), or None."""
    try:
        game.strategies()
        if getattr(game, "has_compiled_engine", True) and hasattr(game, "compiled"):
            game.compiled  # noqa: B018 (imports the engine)
        getattr(game, "reference", None)
    except BalanceError as error:
        return str(error)
    return None


def report_lines(game_id: str, findings: Sequence[Finding], every: bool = False) -> list[str]:
    """What ``balance game check`` prints: a line for each failure (each finding with
    ``every``), then how many cases of which checks passed and failed."""
    failed = sum(not finding.ok for finding in findings)
    passed = len(findings) - failed
    lines = [finding.line for finding in findings if every or not finding.ok]
    counts = Counter(finding.check for finding in findings)
    checked = ", ".join(f"{check} {count}" for check, count in counts.items())
    noun = "check" if passed == 1 else "checks"
    lines.append(f"{game_id}: {passed} {noun} passed, {failed} failed ({checked})")
    return lines


class _Checker:
    """The checks of one game, each a method named as its findings are, each case of it
    a :class:`Finding`."""

    def __init__(
        self, game: Game, games: int, seed: int, progress: Callable[[str], None] | None
    ) -> None:
        self.game = game
        self.games = games
        self.seed = seed
        self.progress = progress
        self.findings: list[Finding] = []

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    @contextmanager
    def case(self, check: str, what: str) -> Iterator[None]:
        """One case: passed if its body ends, failed with the reason if it raises."""
        try:
            yield
        except Exception as error:  # a game may fail in any way: one line, no traceback
            self.findings.append(Finding(check, False, f"{what}: {one_line(error)}"))
        else:
            self.findings.append(Finding(check, True, what))

    def attempt(self, check: str, what: str, play: Callable[[], Any]) -> Any:
        """``play()``, or None with a failing finding if it raises (nothing then rests on
        it); a passing one is left to the cases that read what it gave."""
        try:
            return play()
        except Exception as error:  # a game may fail in any way: one line, no traceback
            self.findings.append(Finding(check, False, f"{what}: {one_line(error)}"))
            return None

    @property
    def compiled(self) -> bool:
        # Before EngineGame says so, every game has a compiled engine.
        return bool(getattr(self.game, "has_compiled_engine", True))

    def registered(self) -> bool:
        """Whether the runs, which find a game by its id, will play this very game."""
        game_id = getattr(self.game, "id", None)
        try:
            found = get_game(game_id)  # type: ignore[arg-type]
        except Exception as error:  # a registry of plug-ins may fail in any way
            self.findings.append(Finding("registry", False, one_line(error)))
            return False
        if found is not self.game:
            self.findings.append(
                Finding(
                    "registry",
                    False,
                    f"balance.games.get_game({game_id!r}) gives another game than the one "
                    "checked, and the runs would play that one: register the game to check",
                )
            )
            return False
        return True

    def refused(self, attempt: Callable[[], Any], what: str, *fragments: str) -> None:
        """``attempt()`` must raise a one-line BalanceError naming each of ``fragments``."""
        try:
            attempt()
        except BalanceError as error:
            text = str(error)
            said = "several lines" if text.strip() else "no words"
            require(text.strip() and "\n" not in text, f"{what}: refused in {said}")
            for fragment in fragments:
                require(fragment in text, f"{what}: refused without naming {fragment} ({text})")
        except Exception as error:  # the point: anything but a BalanceError is a failure
            raise Broken(f"{what} raises {one_line(error)}, not a one-line BalanceError") from None
        else:
            raise Broken(f"{what} is accepted")

    # --- declaration ---

    def declaration(self) -> None:
        """Identity and player range, capabilities as implemented, rules described and
        every declared rule set parsed."""
        game = self.game
        with self.case("declaration", "identity, player range and words"):
            self.identity()
        with self.case("declaration", "capabilities declared as implemented"):
            found = mismatches(game)
            require(not found, "; ".join(found))
        with self.case("declaration", "rules described, declared rule sets parsed and read back"):
            self.declared_rules()

    def identity(self) -> None:
        game = self.game
        problems = getattr(core_game, "declaration_problems", None)  # the registry's own
        if problems is not None:
            found = problems(game, game.id)
            require(not found, "; ".join(found))
        for name in ("id", "title", "length_unit", "seat_note", "action_noun", "action_verb"):
            value = getattr(game, name, None)
            require(isinstance(value, str) and value.strip(), f"{name} is not a text")
        if game.capabilities.replay:
            require(isinstance(getattr(game, "replay_title", None), str), "no replay_title")
        for name, meaning in game.variants.items():
            require(
                isinstance(name, str) and isinstance(meaning, str) and meaning.strip(),
                f"variant {name!r} has no sentence",
            )
        require(isinstance(game.single_winner, bool), "single_winner is not True or False")
        low, high = game.min_players, game.max_players
        require(
            isinstance(low, int) and isinstance(high, int) and 1 <= low <= high,
            f"it plays {low!r} to {high!r} players",
        )
        for players in player_counts(game):
            game.check_players(players)
        for players in (low - 1, high + 1):
            self.refused(lambda p=players: game.check_players(p), f"{players} players")

    def declared_rules(self) -> None:
        game = self.game
        rows = game.describe_rules()
        defaults = game.default_rules()
        described = [row["name"] for row in rows]
        require(
            described == list(defaults.to_dict()),
            f"describe_rules names {described}, the rules hold {list(defaults.to_dict())}",
        )
        silent = [row["name"] for row in rows if not row.get("meaning")]
        require(not silent, f"rules without a meaning: {', '.join(silent)}")
        sets = tuple(game.checked_rules)
        require(sets and sets[0].name == "defaults", "checked_rules does not start with defaults")
        made = []
        for rule_set in sets:
            try:
                rules = game.make_rules(rule_set.variants, rule_set.rules)
            except Exception as error:  # a game's rules may fail in any way
                raise Broken(f"rule set {rule_set.name!r}: {one_line(error)}") from None
            # As a manifest keeps them: JSON, read back.
            saved = json.loads(json.dumps(json_safe(rules.to_dict())))
            require(
                game.rules_from_dict(saved) == rules,
                f"rule set {rule_set.name!r} is not read back from its JSON form",
            )
            if hasattr(rules, "variants"):
                expected = [v for v in game.variants if v in rule_set.variants]
                require(
                    list(rules.variants) == expected,
                    f"rule set {rule_set.name!r} has the variants {list(rules.variants)}",
                )
            made.append(rules)
        require(made[0] == defaults, "the rule set 'defaults' is not the default rules")
        require(len({repr(r) for r in made}) == len(made), "two declared rule sets are alike")
        require(len({r.name for r in sets}) == len(sets), "two declared rule sets share a name")
        for variant in game.variants:
            require(
                any(variant in r.variants for r in sets),
                f"no declared rule set plays the variant {variant!r}",
            )

    # --- strategies ---

    def strategies(self) -> None:
        """The shipped strategies listed as shipped, the uniform-random one first, and
        every plain one seated and played."""
        game = self.game
        with self.case("strategies", "listed as shipped, the uniform-random one first"):
            names = list(game.strategies())
            require(names and names[0] == "random", f"the first strategy is not random: {names}")
            listed = [s.name for s in listed_strategies(game)]
            require(listed == names, f"listed as {listed}, shipped as {names}")
            for name, strategy in game.strategies().items():
                require(strategy.name == name, f"strategy {name!r} is named {strategy.name!r}")
                require(strategy.game == game.id, f"strategy {name!r} plays {strategy.game!r}")
                require(strategy.description, f"strategy {name!r} has no description")
        lineups = self.attempt("strategies", "plain strategies", lambda: plain_lineups(game))
        for lineup in lineups or []:
            with self.case("strategies", f"{', '.join(lineup)} play {self.games} games"):
                setup = make_setup(game.id, len(lineup), self.seed, lineup, rotate_seats=True)
                block = game.play_block(setup, 0, self.games)
                seats = game.tables(block, setup)["seats"]
                labels = set(seats.column("strategy").to_pylist())
                require(labels == set(setup.lineup.labels), f"the records seat {sorted(labels)}")

    # --- records ---

    def records(self) -> None:
        """A run's tables, winners and summary, saved and read back; slim records and
        running sums that summarise as the whole records do."""
        game, games = self.game, self.games
        batch = max(1, -(-games // 3))  # tables of several blocks must join
        setup = self.attempt(
            "records",
            "the shipped strategies with restricted play",
            lambda: mixed_setup(game, game.actions()[:1], self.seed),
        )
        run = None
        if setup is not None:
            run = self.attempt(
                "records",
                f"{games} games of the shipped strategies",
                lambda: run_games(
                    setup, games, threads=1, batch=batch, progress=False, on_compile=self.say
                ),
            )
        if run is not None:
            self.played(run)
            with self.case("records", "a saved run read back as it was played"):
                self.saved(run.setup, batch)
        cases = self.attempt(
            "records", "the declared rule sets", lambda: summary_setups(game, self.seed)
        )
        for name, make in cases or []:
            with self.case("records", f"slim records and running sums summarise alike: {name}"):
                self.slim_and_sums(make())

    def played(self, run: RunResult) -> None:
        """The tables, winners and summary of ``run``'s records."""
        game, setup, blocks = self.game, run.setup, run.blocks
        with self.case("records", "tables: games, seats and the game's own, a row a game"):
            self.tables(list(game.tables(blocks[0], setup)), blocks, setup)
        if game.single_winner:
            with self.case("records", "at most one winner, none in an unfinished game"):
                won = np.concatenate([b.won for b in blocks])
                finished = np.concatenate([b.finished for b in blocks])
                winners = won.sum(axis=1)
                for g in np.flatnonzero(winners > 1)[:1]:
                    raise Broken(f"game {g} has {winners[g]} winners")
                for g in np.flatnonzero(~finished & (winners > 0))[:1]:
                    raise Broken(f"game {g} is unfinished and has a winner")
        with self.case("records", "summary keys and types, the game's own keys and lines"):
            self.summary(summarize(run), blocks, setup)

    def saved(self, setup: Setup, batch: int) -> None:
        """``setup``'s games saved as ``--out`` saves them, and read back alike."""
        game, games = self.game, self.games
        with tempfile.TemporaryDirectory(prefix="balance-check-") as name:
            directory = Path(name)
            lineup = setup.lineup
            run = simulate(
                game.id,
                setup.players,
                games,
                seed=setup.seed,
                strategies=lineup.labels,
                rotate_seats=lineup.rotate,
                restricted=lineup.restricted,
                threads=1,
                batch=batch,
                out=directory,
                on_compile=self.say,
            )
            saved = load_run(directory)
            require(saved.setup == setup, "the saved set-up is not the run's")
            require(saved.games == games, f"{saved.games} games saved of {games}")
            names = list(game.tables(run.result.blocks[0], setup))
            files = {p.name for p in directory.iterdir()}
            expected = {*(f"{name}.parquet" for name in names), "manifest.json", "summary.json"}
            require(files == expected, f"the run directory holds {sorted(files)}")
            for name in names:
                require(saved.table(name).equals(run.table(name)), f"table {name} read back")

    def tables(self, names: list[str], blocks: Sequence[Block], setup: Setup) -> None:
        game, games, n = self.game, self.games, setup.players
        require(names[:2] == ["games", "seats"], f"the tables are {names}, not games, seats...")
        for name in names:
            parts = [game.tables(block, setup)[name] for block in blocks]
            require(
                all(part.schema == parts[0].schema for part in parts),
                f"table {name}: blocks' schemas differ",
            )
            table = pa.concat_tables(parts)
            require(
                "game" in table.column_names and table.schema.field("game").type == pa.int64(),
                f"table {name} has no int64 game column",
            )
            index = table.column("game").to_numpy()
            require(
                (np.diff(index) >= 0).all() and set(index.tolist()) == set(range(games)),
                f"table {name}: the game column is not every game in order",
            )
        table = pa.concat_tables([game.tables(b, setup)["games"] for b in blocks])
        require(table.column("game").to_pylist() == list(range(games)), "games: a row a game")
        finished = np.concatenate([b.finished for b in blocks])
        require("finished" in table.column_names, "games has no finished column")
        require(
            table.column("finished").to_pylist() == finished.tolist(),
            "games: finished is not the block's",
        )
        won = np.concatenate([b.won for b in blocks])
        if "winners" in table.column_names:  # EngineGame's; a game may record its own
            require(
                table.column("winners").to_numpy().tolist() == won.sum(axis=1).tolist(),
                "games: winners is not the number of seats that won",
            )
        column, _ = game.report_length(setup.rules)
        require(column in table.column_names, f"games has no length column {column!r}")
        if column == game.length_unit:
            length = np.concatenate([b.length for b in blocks])
            require(
                table.column(column).to_numpy().tolist() == length.tolist(),
                f"games: {column} is not the block's length",
            )
        seats = pa.concat_tables([game.tables(b, setup)["seats"] for b in blocks])
        kinds = {
            "game": pa.types.is_int64,
            "seat": pa.types.is_integer,
            "won": pa.types.is_boolean,
            "strategy": pa.types.is_dictionary,
        }
        for name, kind in kinds.items():
            require(
                name in seats.column_names and kind(seats.schema.field(name).type),
                f"seats: no {name} column of the right type",
            )
        expected_games = np.repeat(np.arange(games), n).tolist()
        require(seats.column("game").to_pylist() == expected_games, "seats: a row a game and seat")
        require(seats.column("seat").to_pylist() == list(range(n)) * games, "seats: seat order")
        require(seats.column("won").to_pylist() == won.ravel().tolist(), "seats: won is not won")
        lineup = setup.lineup
        expected = [
            lineup.labels[int(lineup.strategy_index(g, s))] for g in range(games) for s in range(n)
        ]
        strategy = seats.column("strategy").combine_chunks().to_pylist()
        require(strategy == expected, "seats: strategy is not the line-up's")

    def summary(self, summary: dict[str, Any], blocks: Sequence[Block], setup: Setup) -> None:
        game = self.game
        for key, kind in COMMON_KEYS.items():
            require(key in summary, f"no {key!r}")
            value = summary[key]
            if kind in (int, float):  # a rate of no games is NaN, still a float
                right = isinstance(value, kind) and not isinstance(value, bool)
            else:
                right = isinstance(value, kind)
            require(right, f"{key!r} is {type(value).__name__}, not {kind.__name__}")
        plain = _not_json(summary, "summary")
        require(plain is None, f"{plain} is not a plain JSON value")
        json.dumps(json_safe(summary), allow_nan=False)
        require(summary["game"] == game.id and summary["players"] == setup.players, "game")
        require(summary["games"] == self.games, f"{summary['games']} games")
        require(summary["rules"] == json_safe(setup.rules.to_dict()), "rules are not the run's")
        require(summary["length_unit"] == game.length_unit, "length_unit")
        require(summary["strategies"] == setup.lineup.labels, "strategies")
        seats = [row["seat"] for row in summary["seat_win_rate"]]
        require(seats == list(range(setup.players)), f"seat_win_rate seats {seats}")
        if setup.lineup.mixed:
            rates = {row["strategy"] for row in summary.get("strategy_win_rate", [])}
            require(rates == set(setup.lineup.labels), "strategy_win_rate")
        own = game.summarize(blocks, setup)
        require(isinstance(own, dict), f"summarize gives {type(own).__name__}, not a dict")
        require(own.keys() <= summary.keys(), "the game's own keys are not in the summary")
        taken = sorted(own.keys() & (COMMON_KEYS.keys() - {"length_unit"}))
        require(not taken, f"the game's own keys replace the shared {taken}")
        lines = game.summary_lines(summary)
        require(
            all(isinstance(line, str) and "\n" not in line for line in lines),
            "summary_lines are not lines of text",
        )

    def slim_and_sums(self, setup: Setup) -> None:
        """Slim blocks (the engine's own where it records them) and running sums summarise
        as the whole records do."""
        game, games = self.game, self.games
        batch = max(1, -(-games // 3))

        def run(**options: Any) -> RunResult:
            return run_games(
                setup, games, threads=1, batch=batch, progress=False, on_compile=self.say, **options
            )

        full = run(keep_records=True)
        slim = run(keep_records=False)
        sums = run(keep_records=False, sums_only=True)
        for whole, part in zip(full.blocks, slim.blocks, strict=True):
            found = block_difference([game.slim(whole)], [part], ("slimmed", "slim"))
            require(found is None, f"the slim block is not the whole one slimmed: {found}")
        expected = without_timing(summarize(full))
        found = value_difference(expected, without_timing(summarize(slim)))
        require(found is None, f"slim records summarise otherwise: {found}")
        declared = game.capabilities.running_sums
        require((sums.sums is not None) == declared, "running sums kept as not declared")
        # Intervals found by bisection from sums stop within 1e-8 of the records' ones.
        found = value_difference(expected, without_timing(summarize(sums)), rel=1e-7)
        require(found is None, f"running sums summarise otherwise: {found}")

    # --- engines ---

    def engines(self) -> None:
        """The reference and compiled engines play the same games: every declared rule set
        (the defaults at every player count, the others at the fewest and the most players
        their rules fit), and every plain shipped strategy, with restricted play."""
        game = self.game
        if not self.compiled:
            self.findings.append(
                Finding("engines", True, "no compiled engine: the reference engine is the game")
            )
            return
        if not game.capabilities.reference_engine or getattr(game, "reference", None) is None:
            self.findings.append(
                Finding("engines", True, "no reference engine: nothing to compare")
            )
            return
        every = list(player_counts(game))
        for k, rule_set in enumerate(game.checked_rules):
            counts = every
            if k:  # the fewest and the most players its rules fit
                fit = self.attempt(
                    "engines", f"rules {rule_set.name!r}", lambda r=rule_set: fitting(game, r)
                )
                counts = sorted({fit[0], fit[-1]}) if fit else []
            for players in counts:
                with self.case("engines", f"rules {rule_set.name!r} at {players} players"):
                    self.agree(rule_setup(game, rule_set, players, self.seed), FIRST_GAME)
        cases = self.attempt(
            "engines", "the shipped strategies", lambda: lineup_setups(game, self.seed)
        )
        for what, make in cases or []:
            with self.case("engines", what):
                self.agree(make(), 0)

    def agree(self, setup: Setup, first: int) -> None:
        compiled = self.game.play_block(setup, first, self.games)
        reference = self.game.reference_block(setup, first, self.games)
        require(
            reference.first_game == compiled.first_game == first,
            f"blocks start at game {compiled.first_game} and {reference.first_game}, not {first}",
        )
        found = block_difference(
            [compiled], [reference], ("compiled", "reference"), layout=_layout(self.game)
        )
        require(found is None, f"the engines play other games: {found}")

    # --- threads ---

    def threads(self) -> None:
        """A run records the same games with 1 and 2 threads and in blocks of two sizes."""
        game, games = self.game, self.games
        setup = self.attempt(
            "threads",
            "the shipped strategies with restricted play",
            lambda: mixed_setup(game, game.actions()[:1], self.seed),
        )
        if setup is None:
            return
        one = self.attempt(
            "threads",
            f"{games} games with 1 thread in one block",
            lambda: run_games(setup, games, threads=1, batch=games, progress=False),
        )
        if one is None:
            return
        small, large = max(1, -(-games // 8)), max(1, -(-games // 3))
        for threads, batch in ((1, small), (2, small), (2, large)):
            what = f"{threads} thread{'s' * (threads > 1)} in blocks of {batch} games"
            with self.case("threads", f"the same records with {what} as in one block"):
                other = run_games(setup, games, threads=threads, batch=batch, progress=False)
                require(other.threads == threads, f"played with {other.threads} threads")
                blocks = len(other.blocks)
                require(blocks == -(-games // batch), f"{blocks} blocks")
                found = block_difference(one.blocks, other.blocks, ("one block", what))
                require(found is None, found or "")

    # --- replay ---

    def replay(self) -> None:
        """Narrated games are the games the runs record; without replay, one is refused."""
        game = self.game
        setup = self.attempt(
            "replay",
            "the shipped strategies with restricted play",
            lambda: mixed_setup(game, game.actions()[:1], self.seed),
        )
        if setup is None:
            return
        if not game.capabilities.replay:
            with self.case("replay", "not declared: a narrated game is refused in one line"):
                self.refused(lambda: game.replay(setup, 0), "replay")
            return
        for index in REPLAYED:
            with self.case("replay", f"game {index} narrated, seats and header as played"):
                lines = game.replay(setup, index).splitlines()
                title = f"{game.replay_title}, game {index} of the run seeded {self.seed}"
                require(lines and lines[0].startswith(title), f"the first line is not {title!r}")
                lineup = setup.lineup
                for s in range(setup.players):
                    label = lineup.seats[int(lineup.strategy_index(index, s))].label
                    require(f"seat {s}: {label}" in lines[1], f"seat {s} is not {label}")
                require(len(lines) > 6, "no lines of the game's own after the header")
        if self.compiled:
            with self.case("replay", "a narrated game that is not the recorded one is refused"):
                self.narrated_otherwise(setup)

    def narrated_otherwise(self, setup: Setup) -> None:
        """Replay refuses a narration of another game than the compiled engine recorded
        (here, the same index of another seed)."""
        game = self.game
        own = vars(game).get("narrate")  # the game's own, if it set one on itself
        narrate = game.narrate  # type: ignore[attr-defined]
        other = dataclasses.replace(setup, seed=setup.seed + 1)
        game.narrate = lambda s, i, say: narrate(other, i, say)  # type: ignore[attr-defined]
        try:
            self.refused(lambda: game.replay(setup, 0), "another game's narration")
        finally:
            if own is None:
                del game.narrate  # type: ignore[attr-defined]
            else:
                game.narrate = own  # type: ignore[attr-defined]

    # --- rules ---

    def rules(self) -> None:
        """Bad values of every rule, unknown rules and variants and a player too many are
        refused in one line naming them."""
        game = self.game
        rows = self.attempt("rules", "the rules described", game.describe_rules)
        for row in rows or []:
            name = row["name"]
            texts = ", ".join(f"{name}={text}" for text in BAD_TEXTS)
            with self.case("rules", f"{texts} refused in one line naming {name}"):
                for text in BAD_TEXTS:
                    self.refused(
                        lambda t=text, n=name: make_setup(
                            game.id, game.max_players, rules=[(n, t)]
                        ),
                        f"{name}={text}",
                        name,
                    )
        with self.case("rules", "an unknown rule, variant and player count refused"):
            players = game.max_players
            self.refused(
                lambda: make_setup(game.id, players, rules=[("no_such_rule", "1")]),
                "the rule no_such_rule",
                "no_such_rule",
            )
            self.refused(
                lambda: make_setup(game.id, players, variants=["no-such-variant"]),
                "the variant no-such-variant",
                "no-such-variant",
            )
            self.refused(lambda: make_setup(game.id, players + 1), f"{players + 1} players")


def plain_lineups(game: Game) -> list[list[str]]:
    """Line-ups that together seat every plain shipped strategy."""
    return list(mixed_lineups(game, plain_strategies(game)))


def fitting(game: Game, rule_set: RuleSet) -> list[int]:
    """The player counts whose table ``rule_set`` fits (a hand size may leave too few
    cards for the most players: refused in one line, as :meth:`Game.check_rules` says)."""
    rules = game.make_rules(rule_set.variants, rule_set.rules)
    counts, refusal = [], ""
    for players in player_counts(game):
        try:
            game.check_rules(rules, players)
        except BalanceError as error:
            refusal = one_line(error)
            continue
        counts.append(players)
    require(counts, f"the rule set {rule_set.name!r} fits no table: {refusal}")
    return counts


#: A named set-up, made when its case runs (so that a set-up the game refuses fails that
#: case alone).
Case = tuple[str, Callable[[], Setup]]


def summary_setups(game: Game, seed: int) -> list[Case]:
    """Every declared rule set at the most players it fits, then the shipped strategies
    rotated with each restricted choice."""
    rules: list[Case] = [
        (
            f"rules {r.name!r} at the most players",
            lambda r=r: rule_setup(game, r, fitting(game, r)[-1], seed),
        )
        for r in game.checked_rules
    ]
    mixed: list[Case] = [
        (
            f"the shipped strategies, restricted {', '.join(r) or 'nothing'}",
            lambda r=r: mixed_setup(game, r, seed),
        )
        for r in restricted_choices(game)
    ]
    return [*rules, *mixed]


def lineup_setups(game: Game, seed: int) -> list[Case]:
    """Each line-up of plain shipped strategies, seats rotated, then the first with each
    action restricted alone: what the engines must agree on."""
    lineups = plain_lineups(game)
    cases = [(lineup, ()) for lineup in lineups]
    cases += [(lineups[0], r) for r in restricted_choices(game)[1:]]
    return [
        (
            f"{', '.join(lineup)}, seats rotated"
            + (f", restricted {', '.join(restricted)}" if restricted else ""),
            lambda lineup=lineup, restricted=restricted: make_setup(
                game.id, len(lineup), seed, lineup, rotate_seats=True, restricted=restricted
            ),
        )
        for lineup, restricted in cases
    ]


def _not_json(value: Any, key: str) -> str | None:
    """The first key under ``value`` that is not plain JSON (numpy scalars would not
    serialise), or None."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{key}.{k!r}"
            found = _not_json(v, f"{key}.{k}")
            if found:
                return found
        return None
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _not_json(v, f"{key}[{i}]")
            if found:
                return found
        return None
    return None if value is None or type(value) in (str, int, float, bool) else key
