"""La Planche as the shared runner, results, reports and CLI see it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.core.formatting import interval, percent
from balance.core.game import Block, Capabilities, EngineGame, RuleSet, Setup
from balance.core.lazy import LazyModule, pa, pd
from balance.games.la_planche.reference import ACTIONS
from balance.games.la_planche.rules import COLOUR_NAMES, COLOURS, LaPlancheRules
from balance.stats.intervals import (
    mean_interval,
    ratio_interval,
    ratio_interval_from_sums,
    share_from_ratio,
    wilson_interval,
)

if TYPE_CHECKING:
    from balance.stats.metrics import Metric

engine = LazyModule("balance.games.la_planche.engine")
nb = LazyModule("balance.games.la_planche.engine_nb")


class LaPlanche(EngineGame):
    """La Planche ("Poussez-pas !", Dominique Ehrhard), 2-4 players."""

    id = "la-planche"
    title = "La Planche"
    min_players = 2
    max_players = 4
    length_unit = "turns"
    variants: Mapping[str, str] = {
        "rounds": "several rounds scoring 5, 3 and 1 for the last three prisoners; "
        "first to the target wins",
    }
    seat_note = "seat (0 plays first)"
    action_noun = "symbol"
    action_verb = "choose"
    capabilities = Capabilities(
        restricted_actions=True,
        search=True,
        reference_engine=True,
        replay=True,
        running_sums=True,
    )

    rules_class = LaPlancheRules
    checked_rules = (
        RuleSet("defaults"),
        RuleSet("rounds", ("rounds",)),
        RuleSet("spaces-16", rules=(("spaces", "16"),)),
        RuleSet("spaces-32-blocks", rules=(("spaces", "32"), ("start_order", "YYYYRRRRGGGGBBBB"))),
        RuleSet("weights-3012", rules=(("spinner_weights", "3,0,1,2"),)),
        RuleSet(
            "advance-only",
            rules=(("spinner_weights", "0,1,0,0"), ("start_order", "BGRYBGRYBGRYBGRY")),
        ),
        RuleSet("turn-cap-12", rules=(("turn_cap", "12"),)),
        RuleSet(
            "rounds-other",
            ("rounds",),
            (("target", "20"), ("spaces", "20"), ("spinner_weights", "1,2,3,4")),
        ),
        RuleSet("rounds-caps", ("rounds",), (("turn_cap", "25"), ("round_cap", "3"))),
        RuleSet("push-whole", rules=(("push", "whole"),)),
        RuleSet(
            "push-whole-24-advance-move",
            rules=(("push", "whole"), ("spaces", "24"), ("spinner_weights", "0,1,1,0")),
        ),
        RuleSet("rounds-push-whole", ("rounds",), (("push", "whole"),)),
        RuleSet("rounds-points-402", ("rounds",), (("points", "4,0,2"), ("target", "9"))),
    )

    def length_cap(self, rules: LaPlancheRules) -> int | None:
        """The turn cap of a game; in the rounds variant it caps each round, not the game."""
        return None if rules.rounds else rules.turn_cap

    def report_length(self, rules: LaPlancheRules) -> tuple[str, int | None]:
        """A report counts a rounds-variant game in rounds (capped by ``round_cap``)."""
        if rules.rounds:
            return "rounds", rules.round_cap
        return self.length_unit, self.length_cap(rules)

    def actions(self) -> tuple[str, ...]:
        """The symbols a player chooses between."""
        return ACTIONS[:3]

    def check_restricted(self, names: Sequence[str]) -> None:
        """One symbol with options (swap, advance or move) at a time."""
        engine.check_restricted(names)

    def derived_columns(self, block: Block, setup: Setup) -> dict[str, dict[str, Any]]:
        """The winners, the strategies, and the order the prisoners fell in (letters)."""
        derived = super().derived_columns(block, setup)
        derived["games"]["fall_order"] = fall_order(block.extra["fell"])
        return derived

    def slim(self, block: Block) -> Block:
        """The block with only what :meth:`summarize` reads: actions summed over seats,
        each seat's symbol choices (int32 ``(G, n, 3, 2)``: offered, chosen) and scores
        (int32 ``(G, n)``)."""
        actions = block.extra["actions"]
        if actions.ndim == 3:
            return block
        stat = nb.ActionStat
        extra = {
            "games": block.extra["games"],
            "actions": actions.sum(axis=1, dtype=np.int32),
            "choices": np.ascontiguousarray(actions[:, :, :3, stat.OFFERED : stat.CHOSEN + 1]),
            "scores": np.ascontiguousarray(block.extra["seats"][:, :, nb.SeatStat.SCORE]),
        }
        return dataclasses.replace(block, extra=extra)

    def summarize(self, blocks: Sequence[Block], setup: Setup) -> dict[str, Any]:
        """No-winner and colour win rates, and per action how often and what fell."""
        if not blocks:
            return {"no_winner_rate": float("nan"), "colour_win_rate": {}, "actions": {}}
        slim = [self.slim(b) for b in blocks]
        games = np.concatenate([b.extra["games"] for b in slim])
        won = np.concatenate([b.won for b in blocks])
        actions = np.concatenate([b.extra["actions"] for b in slim])
        count = len(games)
        nobody = int((won.sum(axis=1) == 0).sum())
        last = games[:, nb.GameStat.LAST_COLOUR]
        hits = [int((last == c).sum()) for c in range(len(COLOUR_NAMES))]
        stat = nb.ActionStat
        per_action: dict[str, Any] = {}
        for a, name in enumerate(ACTIONS):
            done = actions[:, a, stat.DONE]
            per_action[name] = _action_row(
                mean_interval(done, floor=0.0),
                ratio_interval(actions[:, a, stat.FELL_OWN], done, floor=0.0),
                ratio_interval(actions[:, a, stat.FELL_OTHER], done, floor=0.0),
            )
        extra = _outcome_rates(count, nobody, hits)
        extra["actions"] = per_action
        extra["symbol_choice"] = _symbol_choice(slim, setup)
        if setup.rules.rounds:
            extra.update(_rounds_summary(slim, won, games))
        return extra

    def sum_columns(
        self, block: Block, setup: Setup
    ) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
        """What :meth:`summarize_sums` reads of a block, one row a game.

        Columns: per action its uses and the prisoners of the user's own and of other
        colours fallen (all seats); per strategy label ``k`` (in the order labels first
        appear in the line-up) whether one of its seats was unrestricted in the game
        (``present_k``), how many (``seats_k``), and per symbol the choices it was
        offered and chose on those seats; in the rounds variant the rounds, each seat's
        score and each colour's points. Histogram ``last_colour``: finished games by the
        last prisoner's colour.

        Returns
        -------
        ``(columns, values, counts)``: names ``(k,)``, whole numbers as float64 ``(G, k)``
        and histograms.
        """
        slim = self.slim(block)
        games = slim.extra["games"]
        actions = slim.extra["actions"]  # (G, actions, stats)
        g_count = games.shape[0]
        stat = nb.ActionStat
        columns: list[str] = []
        parts: list[np.ndarray] = []
        for a in range(len(ACTIONS)):
            columns += [f"done_{a}", f"fell_own_{a}", f"fell_other_{a}"]
            parts.append(actions[:, a, [stat.DONE, stat.FELL_OWN, stat.FELL_OTHER]])
        choices = slim.extra["choices"]  # (G, n, 3, 2): offered, chosen
        n = choices.shape[1]
        index = np.arange(block.first_game, block.first_game + g_count, dtype=np.int64)
        kept = setup.lineup.restricted_seat(index)[:, None] != np.arange(n)[None, :]
        seat_labels = _seat_labels(setup, index, n)
        for k in range(len(_unique_labels(setup))):
            mine = (seat_labels == k) & kept  # (G, n)
            seats = mine.sum(axis=1)
            columns += [f"present_{k}", f"seats_{k}"]
            parts.append(np.stack([seats > 0, seats], axis=1))
            picked = (choices * mine[:, :, None, None]).sum(axis=1)  # (G, 3, 2)
            columns += [f"offered_{k}_{s}" for s in range(3)]
            columns += [f"chosen_{k}_{s}" for s in range(3)]
            parts += [picked[:, :, 0], picked[:, :, 1]]
        if setup.rules.rounds:
            scores = slim.extra["scores"]
            columns.append("rounds")
            parts.append(games[:, nb.GameStat.ROUNDS, None])
            columns += [f"score_{s}" for s in range(n)]
            parts.append(scores)
            first = nb.GameStat.COLOUR_POINTS
            columns += [f"colour_points_{c}" for c in range(len(COLOUR_NAMES))]
            parts.append(games[:, first : first + len(COLOUR_NAMES)])
        last = games[:, nb.GameStat.LAST_COLOUR].astype(np.int64)
        counts = {"last_colour": np.bincount(last[last >= 0], minlength=len(COLOUR_NAMES))}
        values = np.concatenate(parts, axis=1, dtype=np.float64, casting="same_kind")
        return columns, values, counts

    def summarize_sums(self, sums: Any, setup: Setup) -> dict[str, Any]:
        """:meth:`summarize` from a run's running sums (:class:`balance.run.moments.RunSums`)."""
        count = sums.games
        if not count:
            return {"no_winner_rate": float("nan"), "colour_win_rate": {}, "actions": {}}
        winners = sums.count("winners")
        nobody = int(winners[0]) if winners.size else 0
        last = sums.count("last_colour")
        hits = [int(last[c]) if c < last.size else 0 for c in range(len(COLOUR_NAMES))]
        per_action: dict[str, Any] = {}
        for a, name in enumerate(ACTIONS):
            per_action[name] = _action_row(
                sums.mean_interval(f"done_{a}", floor=0.0),
                sums.ratio_interval(f"fell_own_{a}", f"done_{a}", floor=0.0),
                sums.ratio_interval(f"fell_other_{a}", f"done_{a}", floor=0.0),
            )
        extra = _outcome_rates(count, nobody, hits)
        extra["actions"] = per_action
        extra["symbol_choice"] = _symbol_choice_from_sums(sums, setup)
        if setup.rules.rounds:
            extra.update(_rounds_summary_from_sums(sums, setup.players))
        return extra

    def summary_lines(self, summary: Mapping[str, Any]) -> list[str]:
        """The game's own part of ``balance simulate``'s text: colours and actions."""
        lines = [
            f"No winner (the last prisoner's colour belongs to nobody, or unfinished): "
            f"{percent(summary['no_winner_rate'])} {interval(summary['no_winner_ci95'])}",
            "Colour of the last prisoner on the plank:",
        ]
        for name, rate in summary["colour_win_rate"].items():
            lines.append(
                f"  {name:<7} {percent(rate):>6}  {interval(summary['colour_win_rate_ci95'][name])}"
            )
        if "rounds_mean" in summary:
            lines += _rounds_lines(summary)
        lines += _choice_lines(summary)
        lines.append(
            f"Actions ({summary.get('games', 0):,} games, 95% intervals): uses per game "
            "(all seats); prisoners of the user's own and of other colours fallen per use:"
        )
        for name, row in summary["actions"].items():
            own = interval(row["fell_own_per_use_ci95"], as_percent=False, digits=3)
            other = interval(row["fell_other_per_use_ci95"], as_percent=False, digits=3)
            lines.append(
                f"  {name:<8} {row['per_game']:6.2f} "
                f"{interval(row['per_game_ci95'], as_percent=False):<16} "
                f"own {row['fell_own_per_use']:.3f} {own:<16} "
                f"other {row['fell_other_per_use']:.3f} {other}"
            )
        return lines

    def per_game(self, blocks: Sequence[Block]) -> tuple[pd.DataFrame, list[Metric]]:
        """Per game: which colour was last, and how often each action was done per round.

        Actions are counted per round, so that the rounds variant (several rounds a game)
        compares with the base game (a game is one round).
        """
        from balance.stats.metrics import Metric

        slim = [self.slim(b) for b in blocks]
        games = np.concatenate([b.extra["games"] for b in slim])
        last = games[:, nb.GameStat.LAST_COLOUR]
        rounds = games[:, nb.GameStat.ROUNDS].astype(float)
        actions = np.concatenate([b.extra["actions"] for b in slim])
        columns: dict[str, np.ndarray] = {}
        chosen = []
        for c, name in enumerate(COLOUR_NAMES):
            columns[f"last_{name}"] = last == c
            chosen.append(Metric(f"{name} is the last prisoner", f"last_{name}", "share"))
        for a, name in enumerate(ACTIONS):
            columns[f"done_{name}"] = actions[:, a, nb.ActionStat.DONE] / rounds
            chosen.append(Metric(f"{name} per round", f"done_{name}", "mean", "uses"))
        return pd.DataFrame(columns), chosen

    replay_title = "La Planche"

    def restrictions(self, setup: Setup, game_index: int) -> dict[str, Any]:
        """The symbol each seat may never choose when it has the choice (-1: none)."""
        return {"forbidden": [int(s) for s in engine.forbidden_by_seat(setup.lineup, game_index)]}


#: Each colour's letter as a byte, by colour code.
_LETTERS = np.frombuffer(COLOURS.encode("ascii"), dtype=np.uint8)


def fall_order(fell: np.ndarray) -> pa.StringArray:
    """Each game's fallen prisoners as a string of colour letters, in the order they fell.

    ``fell`` is int8 ``(G, MAX_FALLS)``, colour codes and -1 where none fell. The letters
    go straight into the column's buffers: joining them game by game in Python took more
    time than playing the games.
    """
    fallen = fell >= 0
    letters = _LETTERS[fell[fallen]]  # row by row, in order
    offsets = np.zeros(len(fell) + 1, dtype=np.int32)
    np.cumsum(fallen.sum(axis=1), out=offsets[1:])
    return pa.StringArray.from_buffers(len(fell), pa.py_buffer(offsets), pa.py_buffer(letters))


def _symbol_choice(slim: Sequence[Block], setup: Setup) -> dict[str, Any]:
    """Per strategy and symbol, the share of choices in which the symbol is chosen.

    Seats under restricted play are left out (they choose by the restriction).
    """
    from balance.games.la_planche.metrics import symbol_choice_rates

    frames = []
    symbols = list(ACTIONS[:3])
    for block in slim:
        choices = block.extra["choices"]  # (G, n, 3, 2)
        g_count, n = choices.shape[:2]
        game = np.arange(block.first_game, block.first_game + g_count, dtype=np.int64)
        keep = setup.lineup.restricted_seat(game)[:, None] != np.arange(n)[None, :]
        index = np.stack([setup.lineup.strategy_index(game, s) for s in range(n)], 1)
        label = np.array(setup.lineup.labels, dtype=object)[index]
        frames.append(
            pd.DataFrame(
                {
                    "game": np.repeat(game[:, None], n, 1)[keep].repeat(3),
                    "strategy": label[keep].repeat(3),
                    "action": np.tile(symbols, int(keep.sum())),
                    "offered": choices[keep][:, :, 0].ravel(),
                    "chosen": choices[keep][:, :, 1].ravel(),
                }
            )
        )
    table = symbol_choice_rates(pd.concat(frames, ignore_index=True), symbols)
    out: dict[str, Any] = {}
    for row in table.itertuples():
        out.setdefault(row.strategy, {})[row.symbol] = {
            "offered": row.offered,
            "offered_per_game": row.offered_per_game,
            "chosen": row.chosen,
            "chosen_share": row.rate,
            "chosen_share_ci95": [row.low, row.high],
        }
    return out


def _rounds_summary(slim: Sequence[Block], won: np.ndarray, games: np.ndarray) -> dict[str, Any]:
    """Rounds variant: rounds, points per seat and per colour per game, shared wins."""
    from balance.games.la_planche.metrics import points_per_game

    rounds = games[:, nb.GameStat.ROUNDS]
    mean, low, high = mean_interval(rounds, floor=0.0)
    scores = np.concatenate([b.extra["scores"] for b in slim])
    seats = points_per_game(scores, [str(s) for s in range(scores.shape[1])])
    stat = nb.GameStat
    colour = points_per_game(
        games[:, stat.COLOUR_POINTS : stat.COLOUR_POINTS + len(COLOUR_NAMES)],
        list(COLOUR_NAMES),
    )
    shared = int((won.sum(axis=1) >= 2).sum())
    s_low, s_high = wilson_interval(shared, len(games))
    return {
        "rounds_mean": mean,
        "rounds_ci95": [low, high],
        "points_per_seat": dict(zip(seats["name"], seats["mean"], strict=True)),
        "points_per_seat_ci95": {
            row.name: [row.low, row.high] for row in seats.itertuples(index=False)
        },
        "points_per_colour": dict(zip(colour["name"], colour["mean"], strict=True)),
        "points_per_colour_ci95": {
            row.name: [row.low, row.high] for row in colour.itertuples(index=False)
        },
        "shared_win_rate": shared / len(games),
        "shared_win_ci95": [float(s_low), float(s_high)],
    }


def _unique_labels(setup: Setup) -> list[str]:
    """The line-up's strategy labels, each once, in the order they first appear."""
    return list(dict.fromkeys(setup.lineup.labels))


def _seat_labels(setup: Setup, index: np.ndarray, n: int) -> np.ndarray:
    """Per game of ``index`` (int ``(G,)``) and seat, the index of its strategy's label in
    :func:`_unique_labels`: int64 ``(G, n)``."""
    unique = _unique_labels(setup)
    label_of = np.array([unique.index(label) for label in setup.lineup.labels])
    return np.stack([label_of[setup.lineup.strategy_index(index, s)] for s in range(n)], 1)


def _symbol_choice_from_sums(sums: Any, setup: Setup) -> dict[str, Any]:
    """:func:`_symbol_choice` from running sums: a strategy's games are those in which one
    of its seats was unrestricted (``present_k``), the clusters of its shares."""
    out: dict[str, Any] = {}
    for k, label in enumerate(_unique_labels(setup)):
        games = sums.sum(f"present_{k}")
        if not games:
            continue
        plays = sums.sum(f"seats_{k}")
        rows = {}
        for s, symbol in enumerate(ACTIONS[:3]):
            y, x = f"chosen_{k}_{s}", f"offered_{k}_{s}"
            offered, chosen = sums.sum(x), sums.sum(y)
            ratio = ratio_interval_from_sums(
                games,
                chosen,
                offered,
                sums.product(y, y),
                sums.product(y, x),
                sums.product(x, x),
            )
            rate, low, high = share_from_ratio(*ratio, offered)
            rows[symbol] = {
                "offered": offered,
                "offered_per_game": float(offered / plays),
                "chosen": chosen,
                "chosen_share": rate,
                "chosen_share_ci95": [low, high],
            }
        out[label] = rows
    return out


def _rounds_summary_from_sums(sums: Any, players: int) -> dict[str, Any]:
    """:func:`_rounds_summary` from running sums."""
    mean, low, high = sums.mean_interval("rounds", floor=0.0)
    seats = {str(s): sums.mean_interval(f"score_{s}", floor=0.0) for s in range(players)}
    colour = {
        name: sums.mean_interval(f"colour_points_{c}", floor=0.0)
        for c, name in enumerate(COLOUR_NAMES)
    }
    winners = sums.count("winners")
    shared = int(winners[2:].sum())
    s_low, s_high = wilson_interval(shared, sums.games)
    return {
        "rounds_mean": mean,
        "rounds_ci95": [low, high],
        "points_per_seat": {name: row[0] for name, row in seats.items()},
        "points_per_seat_ci95": {name: [row[1], row[2]] for name, row in seats.items()},
        "points_per_colour": {name: row[0] for name, row in colour.items()},
        "points_per_colour_ci95": {name: [row[1], row[2]] for name, row in colour.items()},
        "shared_win_rate": shared / sums.games,
        "shared_win_ci95": [float(s_low), float(s_high)],
    }


def _rounds_lines(summary: Mapping[str, Any]) -> list[str]:
    """The rounds variant's lines of the text summary."""
    games = summary.get("games", 0)

    def points(key: str, label: str) -> str:
        parts = [
            f"{name} {value:.2f} {interval(summary[key + '_ci95'][name], as_percent=False)}"
            for name, value in summary[key].items()
        ]
        return f"Points per game by {label}: " + ", ".join(parts)

    return [
        f"Rounds per game ({games:,} games, 95% intervals): {summary['rounds_mean']:.2f} "
        f"{interval(summary['rounds_ci95'], as_percent=False)}",
        points("points_per_seat", "seat"),
        points("points_per_colour", "colour (its prisoners' points, owned or not)"),
        f"Shared wins (a tie at the top): {percent(summary['shared_win_rate'])} "
        f"{interval(summary['shared_win_ci95'])}",
    ]


def _choice_lines(summary: Mapping[str, Any]) -> list[str]:
    """How often each strategy chooses each symbol when the spinner gives it the choice."""
    lines = [
        "Symbol choice (two different symbols spun, both playable; 95% Wilson intervals, "
        "games as clusters): share of such choices in which the symbol is chosen:"
    ]
    for label, symbols in summary.get("symbol_choice", {}).items():
        parts = [
            f"{name} {percent(row['chosen_share'])} {interval(row['chosen_share_ci95'])} "
            f"of {row['offered']:,}"
            for name, row in symbols.items()
        ]
        lines.append(f"  {label:<12} " + ", ".join(parts))
    return lines


GAME = LaPlanche()


def _action_row(
    per_game: tuple[float, float, float],
    fell_own: tuple[float, float, float],
    fell_other: tuple[float, float, float],
) -> dict[str, Any]:
    """One action's summary row from ``(value, low, high)`` triples: uses per game, and
    prisoners of the user's own and of other colours fallen per use."""
    return {
        "per_game": per_game[0],
        "per_game_ci95": [per_game[1], per_game[2]],
        "fell_own_per_use": fell_own[0],
        "fell_own_per_use_ci95": [fell_own[1], fell_own[2]],
        "fell_other_per_use": fell_other[0],
        "fell_other_per_use_ci95": [fell_other[1], fell_other[2]],
    }


def _outcome_rates(count: int, nobody: int, hits: Sequence[int]) -> dict[str, Any]:
    """The no-winner rate and each colour's rate of being the last prisoner, with Wilson
    intervals, from ``count`` games, ``nobody`` of them without a winner, and ``hits[c]``
    (one per colour) with colour ``c`` last."""
    low, high = wilson_interval(nobody, count)
    colour_rate, colour_ci = {}, {}
    for name, hit in zip(COLOUR_NAMES, hits, strict=True):
        c_low, c_high = wilson_interval(hit, count)
        colour_rate[name] = hit / count
        colour_ci[name] = [float(c_low), float(c_high)]
    return {
        "no_winner_rate": nobody / count,
        "no_winner_ci95": [float(low), float(high)],
        "colour_win_rate": colour_rate,
        "colour_win_rate_ci95": colour_ci,
    }
