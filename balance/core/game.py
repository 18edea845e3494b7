"""What a game module gives the shared runner, results, statistics and CLI.

The shared layers never say "card" or "pirate": a game hands them blocks of
per-game records as named columns (:class:`Block`) and knows how to summarise its
own columns. Everything game-agnostic (seat win rates, lengths, winners) is read
from the columns every game provides: ``rounds``/``turns`` length, ``finished``,
and per seat ``won``.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.util
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from balance.core.errors import BalanceError, error_line
from balance.core.lazy import pa
from balance.core.records import (
    RecordArray,
    RecordLayout,
    Records,
    labels_column,
    records_from_games,
)
from balance.core.strategy import SeatStrategy, Strategy, check_strategy

if TYPE_CHECKING:
    from balance.core.engine import CompiledEngine


@dataclass(frozen=True)
class Block:
    """Records of consecutive games ``first_game .. first_game + size - 1``.

    Attributes
    ----------
    first_game : index of the first game.
    length : int ``(G,)``, game length in the game's unit.
    finished : bool ``(G,)``, False for games stopped by a cap.
    won : bool ``(G, n)``, which seats won.
    extra : game-specific arrays, each with leading axis G.
    """

    first_game: int
    length: np.ndarray
    finished: np.ndarray
    won: np.ndarray
    extra: Mapping[str, np.ndarray]

    @property
    def size(self) -> int:
        return int(self.length.shape[0])


#: The manifest's name for each way of seating a line-up (see :class:`Lineup`).
SEATING_FIXED = "fixed"
SEATING_ORDERS = "every-order"
SEATINGS = (SEATING_FIXED, SEATING_ORDERS)


@functools.cache
def seating_orders(n: int) -> np.ndarray:
    """Every order of ``n`` strategies round a table, in the order rotation plays them.

    Row ``k`` (game ``k`` of every ``n!``) seats entry ``row[s]`` of the line-up in seat
    ``s``. Rows come in blocks of ``n`` cyclic shifts of one order that keeps the first
    listed strategy first: ``block[r][s] = base[(s + r) % n]``, the bases being the
    ``(n - 1)!`` orders of the other strategies in lexicographic order. So every ``n``
    consecutive games seat every strategy in every seat once, and every ``n!`` games seat
    every order once (every strategy beside every other, on each side, equally often).

    Returns
    -------
    int64 ``(n!, n)``.
    """
    bases = [(0, *rest) for rest in itertools.permutations(range(1, n))]
    shift = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n  # (r, s) -> base index
    return np.concatenate([np.asarray(base)[shift] for base in bases]).astype(np.int64)


@dataclass(frozen=True)
class Lineup:
    """The strategies of a run, seat by seat, and whether they rotate across games.

    With ``rotate``, games go through every order of the strategies round the table
    (:func:`seating_orders`): game ``i`` plays order ``i % n!``, so that every strategy
    plays every seat, and sits beside every other on each side, equally often. Without
    it, seat ``s`` always holds entry ``s`` of :attr:`seats`.
    """

    seats: tuple[SeatStrategy, ...]
    rotate: bool = False
    #: Actions (cards, symbols) that one seat of every game may never choose (restricted
    #: play, Jaffe et al. 2012), a seat chosen so that every (seat, strategy) pair is
    #: restricted equally often (:meth:`restricted_seat`). Empty: nobody is restricted.
    restricted: tuple[str, ...] = ()

    @property
    def seating(self) -> str:
        """The seating scheme's name in a manifest (one of :data:`SEATINGS`)."""
        return SEATING_ORDERS if self.rotate else SEATING_FIXED

    def seating_text(self) -> str:
        """How seats were given out, as a header says it."""
        n = len(self.seats)
        if not self.rotate:
            return "seats fixed: the strategies sit in the order listed in every game"
        return (
            f"seats rotated over all {math.factorial(n)} orders of the {n} strategies "
            f"(game i plays order i mod {math.factorial(n)}: every strategy in every seat "
            "and beside every other on each side equally often)"
        )

    def restriction_text(self) -> str:
        """Which seat restricted play restricts in each game, as a header says it."""
        n = len(self.seats)
        if not self.rotate:
            return f"in game i, seat i mod {n} is restricted"
        period = math.factorial(n) * n
        return (
            f"each block of {n} games restricts one seat, and so each of the {n} strategies "
            f"once; the seat moves on from block to block, so every (seat, strategy) pair and "
            f"every order is restricted equally often over {period:,} games"
        )

    @property
    def period(self) -> int:
        """Games after which the seating and the restricted seat repeat."""
        n = len(self.seats)
        if self.rotate:
            return math.factorial(n) * (n if self.restricted else 1)
        return n if self.restricted else 1

    def restricted_seat(self, game: np.ndarray | int) -> np.ndarray:
        """The restricted seat of each game index (-1 where nobody is restricted)."""
        game = np.asarray(game, dtype=np.int64)
        if not self.restricted:
            return np.full(game.shape, -1, dtype=np.int64)
        return self.restriction_seat(game)

    def restriction_seat(self, game: np.ndarray | int) -> np.ndarray:
        """The seat restricted play restricts in each game index, whether or not this
        line-up restricts anything (an unrestricted run pairs that seat's wins).

        Without rotation, seat ``i % n`` in game ``i``. With rotation, games come in
        blocks of ``n`` (``b = i // n``) that shift one order round the table
        (:func:`seating_orders`); block ``b`` restricts seat ``(j + u) % n``, where
        ``j = b % (n - 1)!`` numbers the order and ``u = b // (n - 1)!``. Each block thus
        restricts each strategy once, and over ``n * n!`` games every (order, restricted
        seat) pair occurs once: the restriction is independent of the seating.

        Returns
        -------
        int64, the shape of ``game``.
        """
        game = np.asarray(game, dtype=np.int64)
        n = len(self.seats)
        if not self.rotate:
            return game % n
        bases = math.factorial(n - 1)
        block = game // n
        return (block % bases + block // bases) % n

    def forbidden(self, game: np.ndarray | int, value: int, none: int = -1) -> np.ndarray:
        """What each seat is forbidden in each game index, as the compiled loops take it:
        ``value`` (the forbidden actions, as the game codes them) in the restricted seat,
        ``none`` in every other.

        Returns
        -------
        int64, the shape of ``game`` then ``(n,)``.
        """
        seat = self.restricted_seat(game)[..., None]
        return np.where(np.arange(len(self.seats)) == seat, value, none).astype(np.int64)

    def strategy_index(self, game: np.ndarray | int, seat: int) -> np.ndarray:
        """Index into :attr:`seats` of the strategy in ``seat`` for each game index."""
        game = np.asarray(game, dtype=np.int64)
        if not self.rotate:
            return np.full(game.shape, seat, dtype=np.int64)
        orders = seating_orders(len(self.seats))
        return orders[game % orders.shape[0], seat]

    @property
    def labels(self) -> list[str]:
        return [seat.label for seat in self.seats]

    @property
    def mixed(self) -> bool:
        """Whether different strategies (or parameter values) share the table."""
        return len(set(self.labels)) > 1

    def user_strategies(self) -> tuple[Strategy, ...]:
        users: list[Strategy] = []
        for seat in self.seats:
            if seat.strategy.code is None and seat.strategy not in users:
                users.append(seat.strategy)
        return tuple(users)


@dataclass(frozen=True)
class Setup:
    """Everything that decides which games a run plays (besides the game indices)."""

    game: str
    players: int
    rules: Any
    lineup: Lineup
    seed: int
    #: Play on the reference engine, a user's strategies as plain Python (``--debug``).
    debug: bool = False


@dataclass(frozen=True)
class Capabilities:
    """The optional features of a game, declared once in its ``game.py``.

    The shared layers ask a game's :attr:`Game.capabilities` rather than probing it for
    methods; :class:`EngineGame` refuses, as a one-line error, what a game does not
    declare. The contract suite (``tests/contract``) checks every registered game's
    declaration against what it implements and how it behaves.

    Attributes
    ----------
    restricted_actions : restricted play forbids actions (:meth:`Game.actions`) to a seat,
        one action or a set that :meth:`Game.check_restricted` accepts.
    decks : each seat plays its own deck (the rule ``decks``): restricted play values a
        card by taking it out of its deck (:meth:`Game.blank_setups`,
        :meth:`Game.card_values`, :meth:`Game.add_card_values`), decks meet in matchups,
        and a run's manifest keeps its deck files' digest (:meth:`Game.manifest_extra`,
        :meth:`Game.check_saved`).
    search : the game ships search players (``mc``, ``ismcts``).
    reference_engine : the readable reference engine plays blocks of games
        (:meth:`Game.reference_block`, ``--debug``).
    replay : the reference engine narrates a game of a run (:meth:`Game.replay`).
    running_sums : a run that keeps no records is summarised from running sums
        (:meth:`Game.sum_columns`, :meth:`Game.summarize_sums`) instead of slim blocks.
    slim_records : the engine records the slim block itself, so that
        :meth:`Game.play_slim_block` costs less than :meth:`Game.play_block` (else slimming
        a whole block costs more than it saves).
    """

    restricted_actions: bool = False
    decks: bool = False
    search: bool = False
    reference_engine: bool = False
    replay: bool = False
    running_sums: bool = False
    slim_records: bool = False


@dataclass(frozen=True)
class RuleSet:
    """Rules to play a game under, as the command line gives them: ``variants`` switched
    on, then each ``NAME=VALUE`` of ``rules`` (:meth:`Game.make_rules`)."""

    name: str
    variants: tuple[str, ...] = ()
    rules: tuple[tuple[str, str], ...] = ()


class Game(Protocol):
    """A game module's entry point."""

    id: str
    title: str
    min_players: int
    max_players: int
    length_unit: str
    variants: Mapping[str, str]
    seat_note: str  # the report's seat axis, e.g. "seat (0 plays first)"
    action_noun: str  # what restricted play forbids: "card", "symbol"
    action_verb: str  # what a seat may then never do with it: "program", "choose"
    #: The optional features the game has (restricted play, decks, search, replay, ...).
    capabilities: Capabilities
    #: Whether a game has at most one winner (else several may share a win).
    single_winner: bool
    #: The module whose ``SHIPPED`` are the game's strategies, listed from its source.
    strategies_module: str
    #: The rules whose games the compiled and reference engines must play alike: the
    #: defaults, each variant and each rule value that takes another path through the
    #: engines (the contract suite, ``tests/contract``, plays games of each).
    checked_rules: tuple[RuleSet, ...]

    def seat_holdings(self, setup: Setup) -> list[str]:
        """What each seat held in every game of ``setup``, in the game's words, or an
        empty list where the seats differ only by their place at the table."""
        ...

    def check_players(self, players: int) -> None: ...

    def check_rules(self, rules: Any, players: int) -> None:
        """A one-line error unless ``rules`` can be played by ``players`` players."""
        ...

    def length_cap(self, rules: Any) -> int | None:
        """The length at which a game stops unfinished, in :attr:`length_unit`."""
        ...

    def report_length(self, rules: Any) -> tuple[str, int | None]:
        """The ``games`` table column a report's length pages read, and its cap in it."""
        ...

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own lines of ``balance simulate``'s text summary."""
        ...

    def default_rules(self) -> Any: ...

    def make_rules(self, variants: Sequence[str], rules: Sequence[tuple[str, str]]) -> Any: ...

    def rules_from_dict(self, values: Mapping[str, Any]) -> Any: ...

    def describe_rules(self) -> list[dict[str, str]]: ...

    def strategies(self) -> Mapping[str, Strategy]: ...

    def check_strategy(self, strategy: Strategy) -> None: ...

    def actions(self) -> Sequence[str]:
        """The actions (cards, symbols) restricted play may forbid, in the game's order."""
        ...

    def check_restricted(self, names: Sequence[str]) -> None:
        """A one-line error unless ``names`` may be forbidden to a seat together."""
        ...

    def blank_setups(self, setup: Setup, cards: Sequence[str] = ()) -> list[Any]:
        """With :attr:`Capabilities.decks`: for each card of the decks (or only ``cards``),
        ``(seat, deck, card, setup)`` with the card taken out of its deck."""
        ...

    def card_values(self, setup: Setup, table: Any, games: int, partial: bool, **extra: Any) -> Any:
        """With :attr:`Capabilities.decks`: each card's value to its deck, from the table
        of restricted play's paired games."""
        ...

    def add_card_values(self, summary: dict[str, Any], values: Any) -> None:
        """With :attr:`Capabilities.decks`: each card's value in a summary's own keys."""
        ...

    def manifest_extra(self, setup: Setup) -> dict[str, Any]:
        """What a run's manifest keeps besides the set-up (what identifies files it read)."""
        ...

    def check_saved(self, setup: Setup, manifest: Mapping[str, Any], directory: Any) -> None:
        """A one-line error unless a saved run can be read back as it was played."""
        ...

    def is_compiled(self, setup: Setup) -> bool:
        """Whether the compiled code for this set-up is ready (in memory or cached on disk)."""
        ...

    def prepare(self, setup: Setup) -> None:
        """Make the compiled code ready (compiling it on a first run)."""
        ...

    def slim(self, block: Block) -> Block:
        """The block with only what :meth:`summarize` needs (runs that keep no records)."""
        ...

    def play_block(self, setup: Setup, first_game: int, size: int) -> Block: ...

    def reference_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """With :attr:`Capabilities.reference_engine`: :meth:`play_block`'s block, played
        by the reference engine."""
        ...

    def play_slim_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """The :meth:`slim` form of :meth:`play_block`'s block, for a run that keeps no
        records and saves none (:class:`EngineGame` slims the whole block; a game whose
        engine can record only the slim form plays it faster)."""
        ...

    def tables(self, block: Block, setup: Setup) -> Mapping[str, Any]:
        """Per-game records as pyarrow tables, by table name."""
        ...

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """The game's own summary keys."""
        ...

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """With :attr:`Capabilities.running_sums`: what :meth:`summarize_sums` reads of a
        block, as column names, float64 values ``(G, k)`` and histograms."""
        ...

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """With :attr:`Capabilities.running_sums`: :meth:`summarize` from running sums."""
        ...

    def per_game(self, blocks: Sequence[Block]) -> tuple[Any, list[Any]]:
        """The game's own per-game values (a DataFrame, one row a game) and the
        :class:`balance.stats.metrics.Metric` a comparison tests on them."""
        ...

    def report_charts(self, tables: Any) -> Sequence[Any]:
        """The game's own report pages (:class:`~balance.reports.charts.Chart`) of its tables."""
        ...

    def replay(self, setup: Setup, game_index: int) -> str:
        """With :attr:`Capabilities.replay`: game ``game_index`` narrated, line by line."""
        ...


def rules_with(
    defaults: Any,
    game: str,
    known: Sequence[str],
    variants: Sequence[str],
    pairs: Sequence[tuple[str, str]],
) -> Any:
    """``defaults`` with ``variants`` switched on, then each ``NAME=VALUE`` applied in order.

    A game's rules dataclass has one boolean field per variant and ``parse_text(name,
    text) -> (field, value)`` for the command-line spelling of a value. The rules are
    checked once all values are in, so that values that must agree (two lists of the
    same length) can change together.
    """
    changes: dict[str, Any] = {}
    switched: dict[str, str] = {}  # field -> the variant that switched it on
    for variant in variants:
        if variant not in known:
            raise BalanceError(
                f"unknown variant {variant!r} for {game}; variants: {', '.join(known) or 'none'}"
            )
        field = variant.replace("-", "_")  # ``two-dice`` switches on ``two_dice``
        changes[field], switched[field] = True, variant
    for name, text in pairs:
        key, value = defaults.parse_text(name, text)
        if key in switched and value is not True:  # else the variant would silently go
            raise BalanceError(
                f"rule {name}={text} switches off the variant {switched[key]!r} asked for"
            )
        changes[key] = value
    return dataclasses.replace(defaults, **changes)


def rules_from_json(cls: type, values: Mapping[str, Any], lists: Sequence[str] = ()) -> Any:
    """A rules dataclass from its JSON form (a manifest's ``rules``); unknown names refused.

    ``lists`` names the fields that JSON holds as lists and the dataclass as tuples.
    """
    values = dict(values)
    for name in lists:
        if name in values:
            if not isinstance(values[name], list):
                raise BalanceError(f"rule {name!r} must be a list, not {values[name]!r}")
            values[name] = tuple(values[name])
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise BalanceError(f"unknown rule {unknown[0]!r}; rules: {', '.join(sorted(known))}")
    return cls(**values)


def strategy_column(setup: Setup, game_index: np.ndarray) -> Any:
    """Each (game, seat)'s strategy label, games then seats, as a pyarrow dictionary column."""
    labels = list(dict.fromkeys(setup.lineup.labels))
    label_of = np.array([labels.index(label) for label in setup.lineup.labels])
    seats = range(setup.players)
    index = label_of[np.stack([setup.lineup.strategy_index(game_index, s) for s in seats], 1)]
    return labels_column(index.ravel(), labels)


class EngineGame:
    """What a game module with a compiled engine shares: rules, strategies, compilation,
    playing blocks on either engine and the record tables.

    A subclass names its ``rules_class`` (a frozen dataclass with one boolean field per
    variant, named in its ``VARIANTS``, built on
    :class:`balance.core.rule_fields.RuleFields`). Its strategies are the ``SHIPPED`` tuple of
    ``balance.strategies.<package>`` (:attr:`strategies_module`), and its package holds, by
    name, the modules the rest is read from: ``engine`` (its
    :class:`balance.core.engine.CompiledEngine` as ``ENGINE``: :attr:`compiled`),
    ``reference`` (``play_game``), ``bridge`` (``lineup_player_factory``) and ``report``
    (``charts``). They and the strategies (numba code) are imported only when a run first
    needs them, so that listing games and rules starts at once.
    """

    id: str
    rules_class: type
    #: None of the optional features; a game declares its own once, in its ``game.py``.
    capabilities = Capabilities()
    checked_rules: tuple[RuleSet, ...] = (RuleSet("defaults"),)
    single_winner = False
    #: The record arrays both engines write and their reference record of one game; by
    #: default those of the compiled engine (a game without one must declare them).
    records: RecordLayout | None = None
    record_class: type | None = None
    #: The decisions a strategy makes, by name; by default the compiled engine's (a game
    #: without one must declare them).
    decision_names: tuple[str, ...] | None = None

    def seat_holdings(self, setup: Setup) -> list[str]:
        """What each seat held in every game (none here: a game that deals each seat its
        own things, such as a deck, names them)."""
        return []

    @property
    def strategies_module(self) -> str:
        """The module of the game's strategies: ``balance.strategies.<its package's name>``
        for a built-in game, ``<its package>.strategies`` for any other."""
        if self.package.startswith("balance.games."):
            return f"balance.strategies.{self.package.rpartition('.')[2]}"
        return f"{self.package}.strategies"

    @property
    def shipped(self) -> tuple[Strategy, ...]:
        """The strategies that ship with the game, in the order ``balance strategies`` lists."""
        return tuple(import_part(self.id, self.strategies_module).SHIPPED)

    #: The game's package (``balance.games.<game>``): that of the module defining the
    #: first subclass, unless a game names it.
    package: str

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        if not hasattr(cls, "package"):
            cls.package = cls.__module__.rpartition(".")[0]

    def _part(self, name: str) -> Any:
        """The module ``name`` of the game's package (imported when a run first needs it);
        one that fails to import is a one-line error naming it, not a traceback."""
        return import_part(self.id, f"{self.package}.{name}")

    def _part_if_any(self, name: str) -> Any:
        """:meth:`_part` ``name``, or None if the game's package has no such module."""
        found = importlib.util.find_spec(f"{self.package}.{name}") is not None
        return self._part(name) if found else None

    @functools.cached_property
    def has_compiled_engine(self) -> bool:
        """Whether the game's package holds a compiled engine (an ``engine`` module); a game
        without one plays every analysis on its plain-Python reference engine."""
        return importlib.util.find_spec(f"{self.package}.engine") is not None  # not imported

    @functools.cached_property
    def engine(self) -> Any:
        """The game's ``engine`` module."""
        return self._part("engine")

    @property
    def layout(self) -> RecordLayout:
        """The record arrays both engines write (:attr:`records`, else the compiled
        engine's)."""
        if self.records is not None:
            return self.records
        if not self.has_compiled_engine:
            raise BalanceError(f"{self.id} declares no records and has no compiled engine")
        return self.compiled.layout

    @property
    def game_record(self) -> type:
        """The reference engine's record of one game (:attr:`record_class`, else the
        compiled engine's)."""
        if self.record_class is not None:
            return self.record_class
        if not self.has_compiled_engine:
            raise BalanceError(f"{self.id} declares no record class and has no compiled engine")
        return self.compiled.record_class

    @property
    def decisions(self) -> tuple[str, ...]:
        """The decisions a strategy makes (:attr:`decision_names`, else the compiled
        engine's)."""
        if self.decision_names is not None:
            return tuple(self.decision_names)
        return self.compiled.decisions

    @functools.cached_property
    def reference(self) -> Any:
        """The game's reference engine: the module whose ``play_game`` plays one game (None
        if its package has none)."""
        return self._part_if_any("reference")

    @functools.cached_property
    def bridge(self) -> Any:
        """The module whose ``lineup_player_factory`` seats a line-up's strategies on the
        reference engine; without one, each seat plays a :class:`DecisionPlayer`."""
        return self._part_if_any("bridge") or _DecisionBridge

    @functools.cached_property
    def report(self) -> Any:
        """The module whose ``charts`` draws the game's own report pages (None if none)."""
        return self._part_if_any("report")

    def report_charts(self, tables: Any) -> list[Any]:
        """The game's own report pages (:class:`~balance.reports.charts.Chart`); none for a
        game without a ``report`` module."""
        return [] if self.report is None else self.report.charts(tables)

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own lines of the text summary (none unless it says otherwise)."""
        return []

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """The game's own summary keys (none unless it says otherwise)."""
        return {}

    def slim(self, block: Block) -> Block:
        """The block with only what :meth:`summarize` reads (all of it, by default)."""
        return block

    def per_game(self, blocks: Sequence[Block]) -> tuple[Any, list[Any]]:
        """The game's own per-game values a comparison tests (none unless it says
        otherwise): an empty table of as many rows as games, and no metric."""
        from balance.core.lazy import pd

        return pd.DataFrame(index=range(sum(block.size for block in blocks))), []

    @property
    def compiled(self) -> CompiledEngine:
        """The game's compiled engine: its engine module's ``ENGINE``."""
        return self.engine.ENGINE

    def check_players(self, players: int) -> None:
        if not self.has_compiled_engine:
            check_player_count(self.id, players, self.min_players, self.max_players)
            return
        self.compiled.check_players(players)

    def check_rules(self, rules: Any, players: int) -> None:
        """Rules whose limits depend on the table (lanes, seats, cards enough for every
        hand) check them here: the rules' own ``check_players``, if they have one."""
        check_players = getattr(rules, "check_players", None)
        if check_players is not None:
            check_players(players)

    def report_length(self, rules: Any) -> tuple[str, int | None]:
        """The ``games`` table column a report's length pages read (:attr:`length_unit`
        unless the rules count a game in other units) and its cap in that unit."""
        return self.length_unit, self.length_cap(rules)

    def default_rules(self) -> Any:
        return self.rules_class()

    def make_rules(self, variants: Sequence[str], rules: Sequence[tuple[str, str]]) -> Any:
        """Rules with ``variants`` switched on, then each ``NAME=VALUE`` applied in order."""
        return rules_with(self.rules_class(), self.id, self.rules_class.VARIANTS, variants, rules)

    def rules_from_dict(self, values: Mapping[str, Any]) -> Any:
        """Rules from their JSON form (a manifest's ``rules``); unknown names are refused."""
        return rules_from_json(self.rules_class, values, self.rules_class.LISTS)

    def describe_rules(self) -> list[dict[str, str]]:
        return self.rules_class.describe()

    def strategies(self) -> Mapping[str, Strategy]:
        return {strategy.name: strategy for strategy in self.shipped}

    def check_strategy(self, strategy: Strategy) -> None:
        if not self.has_compiled_engine:
            check_strategy(strategy, self.id, self.decisions, self.decisions, compiled=False)
            return
        self.compiled.check_strategy(strategy)

    def actions(self) -> tuple[str, ...]:
        """No action may be forbidden to a seat without :attr:`Capabilities.restricted_actions`."""
        return ()

    def check_restricted(self, names: Sequence[str]) -> None:
        """A one-line error for any action named: the game has no restricted play."""
        if names:
            raise BalanceError(no_restricted_play(self.id))

    def blank_setups(self, setup: Setup, cards: Sequence[str] = ()) -> list[Any]:
        """Refused without :attr:`Capabilities.decks`."""
        raise BalanceError(f"{self.id} is played without decks: no card can be taken out")

    def card_values(self, setup: Setup, table: Any, games: int, partial: bool, **extra: Any) -> Any:
        """Refused without :attr:`Capabilities.decks`."""
        raise BalanceError(f"{self.id} is played without decks: no card can be taken out")

    def add_card_values(self, summary: dict[str, Any], values: Any) -> None:
        """Refused without :attr:`Capabilities.decks`."""
        raise BalanceError(f"{self.id} is played without decks: no card can be taken out")

    def manifest_extra(self, setup: Setup) -> dict[str, Any]:
        """Nothing besides the set-up: a game that reads files (decks) says what they held."""
        return {}

    def check_saved(self, setup: Setup, manifest: Mapping[str, Any], directory: Any) -> None:
        """Nothing to check: a game that reads files (decks) checks they are unchanged."""

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """Refused without :attr:`Capabilities.running_sums`."""
        raise BalanceError(f"{self.id} cannot summarise a run from running sums")

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """Refused without :attr:`Capabilities.running_sums`."""
        raise BalanceError(f"{self.id} cannot summarise a run from running sums")

    def play_slim_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """The :meth:`slim` form of :meth:`play_block`'s block, for a run that keeps no
        records and saves none; a game whose engine can record only that form
        (:attr:`Capabilities.slim_records`) overrides this to play faster."""
        return self.slim(self.play_block(setup, first_game, size))  # type: ignore[attr-defined]

    def is_compiled(self, setup: Setup) -> bool:
        """Whether the game loop and the functions of this line-up's users' strategies
        are compiled or cached on disk (always, for a game without a compiled engine)."""
        if not self.has_compiled_engine:
            return True
        return self.compiled.is_ready(setup.lineup)

    def prepare(self, setup: Setup) -> None:
        """Compile (or load from the cache) the game loop before the clock starts; a game
        without a compiled engine says once on stderr how fast its Python plays."""
        if not self.has_compiled_engine:
            say_reference_speed(self, setup)
            return
        self.compiled.play_games(setup.rules, setup.players, setup.seed, 1, 0, setup.lineup)

    def play_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """Games ``first_game ..`` of ``setup``, played by the compiled engine (by the
        reference engine in a game without one)."""
        if not self.has_compiled_engine:
            return self.reference_block(setup, first_game, size)
        records = self.compiled.play_games(
            setup.rules, setup.players, setup.seed, size, first_game, setup.lineup
        )
        return self.block(records)

    def reference_block(self, setup: Setup, first_game: int, size: int) -> Block:
        """The block :meth:`play_block` plays, played by the reference engine (``--debug``):
        the games :meth:`narrate` plays, told to no one."""
        if not self.capabilities.reference_engine:
            raise BalanceError(f"{self.id} cannot yet play on its reference engine (--debug)")
        if not self.has_compiled_engine:
            check_block(
                setup.players, size, first_game, setup.seed, setup.lineup, self.check_strategy
            )
        played = [self.narrate(setup, g, quiet) for g in range(first_game, first_game + size)]
        return self.block(
            records_from_games(self.layout, self.game_record, played, first_game, setup.players)
        )

    @staticmethod
    def block(records: Records) -> Block:
        """A block of ``records``: the layout's length, finished and won, and every array."""
        layout, arrays = records.layout, records.arrays
        return Block(
            first_game=records.first_game,
            length=layout.slot(arrays, layout.length),
            finished=layout.slot(arrays, layout.finished).astype(bool),
            won=layout.slot(arrays, layout.won).astype(bool),
            extra=dict(arrays),
        )

    def derived_columns(self, block: Block, setup: Setup) -> dict[str, dict[str, Any]]:
        """The table columns the game derives from ``block``, by table (those its records
        declare as :class:`~balance.core.records.Derived`): here the winners of each game
        and each seat's strategy."""
        game_index = np.arange(block.first_game, block.first_game + block.size, dtype=np.int64)
        return {
            "games": {"winners": block.won.sum(axis=1).astype(np.int8)},
            "seats": {"strategy": strategy_column(setup, game_index)},
        }

    def table_records(self, block: Block) -> dict[str, tuple[RecordArray, np.ndarray]]:
        """What each record table is made of, by name: its declaration and its values, the
        engine's record arrays as they are (a game may save one in another form, such as
        summed over the seats)."""
        return {name: (self.layout[name], block.extra[name]) for name in self.layout.tables}

    def tables(self, block: Block, setup: Setup) -> dict[str, pa.Table]:
        """Per-game records as pyarrow tables, by name, as :meth:`table_records` declares them."""
        derived = self.derived_columns(block, setup)
        return {
            name: pa.table(array.columns(values, block.first_game, derived.get(name, {})))
            for name, (array, values) in self.table_records(block).items()
        }

    #: The game's name in the first line of a narrated game.
    replay_title: str
    action_verb: str

    def narrate(self, setup: Setup, game_index: int, say: Any) -> Any:
        """Play game ``game_index`` on the reference engine, passing each line of its
        narration to ``say``; returns the reference's record of the game."""
        if self.reference is None:
            raise BalanceError(f"{self.id} has no reference engine to play its games on")
        return self.reference.play_game(
            setup.rules,
            setup.players,
            setup.seed,
            game_index,
            narrate=say,
            make_player=self.bridge.lineup_player_factory(setup.lineup, setup.rules, game_index),
            **self.restrictions(setup, game_index),
        )

    def restrictions(self, setup: Setup, game_index: int) -> dict[str, Any]:
        """What restricted play forbids the seats of game ``game_index``, as the
        reference engine's ``play_game`` takes it (nothing, in a game without it)."""
        return {}

    def replay(self, setup: Setup, game_index: int) -> str:
        """Game ``game_index`` narrated by the reference engine, which must have played
        the game the compiled engine plays."""
        if not self.capabilities.replay:
            raise BalanceError(f"{self.id} cannot narrate its games yet")
        lines: list[str] = []
        record = self.narrate(setup, game_index, lines.append)
        if self.has_compiled_engine:
            checked = self.compiled.play_games(
                setup.rules, setup.players, setup.seed, 1, game_index, setup.lineup
            ).game_record(0)
            if self.package.startswith("balance."):
                check_replay(record, checked, game_index)
            else:  # a designer's own game: its engines part somewhere, and they can see where
                hint = f"balance game check {self.id} says where they part"
                check_replay(record, checked, game_index, hint)
        header = replay_header(self.replay_title, setup, game_index, self.action_verb)
        return "\n".join([*header, "", *lines])


def import_part(game: str, module: str) -> Any:
    """The module ``module`` of ``game``'s package; a one-line error naming it if it fails
    to import (a syntax error in a designer's engine, say), with the file and line."""
    try:
        return importlib.import_module(module)
    except Exception as error:  # any error of a game's own code: said in one line
        raise BalanceError(f"{game}: {module} fails to import: {error_line(error)}") from None


def no_restricted_play(game: str) -> str:
    """The one-line error of restricted play asked of a game that has none."""
    return f"{game} has no restricted play: no action may be forbidden to a seat"


def seat_labels(game: Game, setup: Setup) -> list[str]:
    """Each seat as texts and charts name it: ``seat 0``, with what it held in every game
    (:meth:`Game.seat_holdings`), e.g. ``seat 0 (boarding-party deck, cannoneer)``."""
    held = game.seat_holdings(setup)
    return [f"seat {s} ({held[s]})" if held else f"seat {s}" for s in range(setup.players)]


def quiet(line: str) -> None:
    """A narrator that says nothing (the reference engine playing for records only)."""


def check_player_count(game: str, players: Any, low: int, high: int) -> None:
    """A one-line error unless ``players`` is a whole number from ``low`` to ``high``."""
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise BalanceError(f"players: {players!r} is not a whole number")
    if not low <= players <= high:
        counts = f"{low}" if low == high else f"{low} to {high}"
        raise BalanceError(f"{game} plays {counts} players, not {players}")


def check_block(
    players: int,
    n_games: int,
    first_game: int,
    seed: int,
    lineup: Lineup,
    check_strategy: Any,
) -> None:
    """One-line errors for a block of games a compiled loop cannot play: negative
    counts, a line-up of the wrong size, or a user's strategy the game does not take."""
    if n_games < 0 or first_game < 0 or seed < 0:
        raise BalanceError("games, first game and seed must not be negative")
    if len(lineup.seats) != players:
        raise BalanceError(f"{len(lineup.seats)} strategies given for {players} players")
    for seat in lineup.seats:
        if seat.strategy.code is None:
            check_strategy(seat.strategy)


def lineup_arrays(
    lineup: Lineup, code: Callable[[Strategy], int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What every compiled game loop needs to seat ``lineup``.

    Parameters
    ----------
    lineup : the run's line-up.
    code : the code the game loop calls a strategy by (its dispatch's ``code``).

    Returns
    -------
    codes : int64 ``(K,)``, each strategy's dispatcher code.
    params : float64 ``(K, MAX_PARAMS)``, their parameter vectors.
    rows : int64 ``(R,)``, the game indices whose tables repeat: ``R`` is
        :attr:`Lineup.period` (``n!`` with rotation, times ``n`` with restricted play).
    strategies : int64 ``(R, n)``, row ``i % R`` the strategy in each seat of game ``i``.
    """
    n = len(lineup.seats)
    codes = np.array([code(seat.strategy) for seat in lineup.seats], dtype=np.int64)
    params = np.stack([seat.vector() for seat in lineup.seats])
    rows = np.arange(lineup.period, dtype=np.int64)
    strategies = np.stack([lineup.strategy_index(rows, s) for s in range(n)], axis=1)
    return codes, params, rows, strategies.astype(np.int64)


def player_factory(lineup: Lineup, game: int, random_player: type, compiled_player: Any) -> Any:
    """``make_player(seat, stream)`` for a reference engine: ``lineup``'s strategies in game
    ``game``. The uniform-random strategy (code 0) plays as the reference's own readable
    ``random_player(stream)``; any other as ``compiled_player(seat_strategy, stream)``.
    """

    def make_player(seat: int, stream: Any) -> Any:
        chosen = lineup.seats[int(lineup.strategy_index(game, seat))]
        if chosen.strategy.code == 0:
            return random_player(stream)
        return compiled_player(chosen, stream)

    return make_player


def replay_header(title: str, setup: Setup, game_index: int, verb: str = "choose") -> list[str]:
    """The first lines of a narrated game: which game, who sits where, the rules.

    ``verb`` says what a restricted seat may never do with the forbidden actions.
    """
    from balance.core.formatting import rules_text

    lineup = setup.lineup
    seats = ", ".join(
        f"seat {s}: {lineup.seats[int(lineup.strategy_index(game_index, s))].label}"
        for s in range(setup.players)
    )
    header = [
        f"{title}, game {game_index} of the run seeded {setup.seed}",
        f"{setup.players} players ({seats})",
        lineup.seating_text(),
        f"rules: {rules_text(setup.rules.to_dict())}",
    ]
    restricted = int(lineup.restricted_seat(game_index))
    if restricted >= 0:
        header.append(
            f"restricted play: seat {restricted} may never {verb} {', '.join(lineup.restricted)}"
            f" ({lineup.restriction_text()})"
        )
    return header


def check_replay(
    narrated: Any,
    compiled: Any,
    game_index: int,
    hint: str = "please report this with the run's manifest",
) -> None:
    """A one-line error unless the narrated game's record is the compiled engine's;
    ``hint`` says what to do about it."""
    if narrated != compiled:
        raise BalanceError(
            f"game {game_index}: the reference and compiled engines disagree; {hint}"
        )


#: The games whose Python speed was said on stderr in this process.
_SPEED_SAID: set[str] = set()


def say_reference_speed(game: EngineGame, setup: Setup, games: int = 20) -> None:
    """Say once on stderr that ``game`` plays in plain Python, and how fast: the games per
    second of ``games`` games of ``setup`` on its reference engine (one thread)."""
    import sys
    import time

    if game.id in _SPEED_SAID:
        return
    _SPEED_SAID.add(game.id)
    game.reference_block(setup, 0, 1)  # the first game loads (or compiles) the strategies
    start = time.perf_counter()
    game.reference_block(setup, 1, games)
    rate = games / max(time.perf_counter() - start, 1e-9)
    print(
        f"note: {game.id} has no compiled engine: it plays on its plain-Python reference "
        f"engine, about {rate:,.0f} games/s on one thread (docs/new-game.md says how to "
        "compile it)",
        file=sys.stderr,
    )


class DecisionPlayer:
    """A seat's strategy on a reference engine, for a game without a bridge of its own.

    Each decision is a method: ``player.play(*args)`` calls the strategy's ``play``
    function with ``(*args, params, rng)``, ``rng`` the seat's stream state (uint64
    ``(4,)``, the array the compiled engine passes), advanced in place and kept, so that
    both engines draw the same numbers. The function may be ``@njit``-compiled or plain
    Python.
    """

    def __init__(self, seat: SeatStrategy, stream: Any) -> None:
        from balance.core.dispatch import playable  # numba: loaded when a game plays

        self.name = seat.label
        # A search player's functions with the shipped strategies of its playouts bound in
        # (passed the game's arrays as a run passes them: compiled once for both); a
        # shipped strategy the game loop calls out of line, the loop's own function.
        self.decisions = {
            name: playable(f, seat.strategy, name, as_in_a_run=True)
            for name, f in seat.strategy.decisions.items()
        }
        self.params = seat.vector()
        self.stream = stream

    def __getattr__(self, decision: str) -> Callable[..., Any]:
        decisions = self.__dict__.get("decisions", {})
        if decision not in decisions:
            raise AttributeError(decision)
        return functools.partial(self.call, decisions[decision])

    def call(self, function: Callable[..., Any], *args: Any, tail: tuple[Any, ...] = ()) -> Any:
        """``function(*args, params, rng, *tail)`` on the seat's own stream."""
        rng = np.array(self.stream.state, dtype=np.uint64)
        result = function(*args, self.params, rng, *tail)
        self.stream.state = [int(x) for x in rng]
        return result


class _DecisionBridge:
    """The bridge of a game without a ``bridge`` module: every seat a
    :class:`DecisionPlayer`."""

    @staticmethod
    def lineup_player_factory(lineup: Lineup, rules: Any, game: int) -> Any:
        def make_player(seat: int, stream: Any) -> DecisionPlayer:
            return DecisionPlayer(lineup.seats[int(lineup.strategy_index(game, seat))], stream)

        return make_player


#: What every game object must have, checked when it is registered (attribute -> type).
_DECLARED: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "title": str,
    "min_players": int,
    "max_players": int,
    "length_unit": str,
    "variants": Mapping,
    "capabilities": Capabilities,
}

#: The methods every game object must have (the :class:`Game` protocol's).
_METHODS = tuple(
    name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
)


def declaration_problems(game: Any, game_id: str) -> list[str]:
    """What keeps ``game``, registered as ``game_id``, from being a game, as sentences:
    missing or mistyped declarations, a player range that is empty, an id that is not
    the one registered, defaults that are not rules. Nothing is compiled or played."""
    found: list[str] = []
    for name, kind in _DECLARED.items():
        value = getattr(game, name, None)
        if not isinstance(value, kind) or isinstance(value, bool):
            found.append(f"its game has no {name} ({getattr(kind, '__name__', kind)})")
    missing = [name for name in _METHODS if not callable(getattr(game, name, None))]
    if missing:
        found.append(f"its game lacks the methods {', '.join(missing)}")
    if found:
        return found
    if game.id != game_id:
        found.append(f"its game's id is {game.id!r}, not {game_id!r}")
    if not 1 <= game.min_players <= game.max_players:
        found.append(f"it plays {game.min_players} to {game.max_players} players")
    try:
        game.default_rules()
    except Exception as error:  # a plug-in's rules may fail in any way: one line
        found.append(f"its default rules fail: {error_line(error)}")
    return found
