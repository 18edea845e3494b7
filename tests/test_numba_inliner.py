"""numba's inliner as balance runs it: a callee's variables copied once per inlining, the
compiled code the same (:mod:`balance.core.numba_inliner`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, ir

import balance.core.compile_cache  # noqa: F401  (applies the inliner's change)
from balance.core.numba_inliner import share_scope_copies


def _compile_with_inlining() -> tuple[Any, Any]:
    """A fresh function that inlines a callee of many blocks twice, and the callee."""

    @njit(inline="always")
    def score(x: int) -> int:
        total = 0
        for step in range(x):
            if step % 2 == 0:
                total += step
            elif step % 3 == 0:
                total -= 1
            elif step % 5 == 0:
                total *= 2
            elif step % 7 == 0:
                total //= 3
            else:
                total += 7
        return total

    @njit
    def play(values: np.ndarray) -> np.ndarray:
        out = np.empty_like(values)
        for i in range(values.size):
            out[i] = score(values[i]) + score(values[i] + 1)
        return out

    return play, score


@pytest.fixture
def var_copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the variables numba deep-copies while the test runs."""
    counted = [0]
    original = ir.Var.__deepcopy__

    def counting(self: ir.Var, memo: dict) -> ir.Var:
        counted[0] += 1
        return original(self, memo)

    monkeypatch.setattr(ir.Var, "__deepcopy__", counting)
    return counted


def test_the_installed_numba_takes_the_change() -> None:
    # Fails when numba's inliner changes: then read its new source, and either edit
    # balance/core/numba_inliner.py to match or drop it if numba copies once already.
    assert share_scope_copies()
    assert inline_closurecall.InlineWorker.inline_ir.shares_scope_copies


def test_one_inlining_copies_the_callees_variables_once_not_once_a_block(
    monkeypatch: pytest.MonkeyPatch, var_copies: list[int]
) -> None:
    shared = inline_closurecall.InlineWorker.inline_ir
    values = np.arange(40, dtype=np.int64)

    play, score = _compile_with_inlining()
    expected = np.array([score.py_func(v) + score.py_func(v + 1) for v in values])
    assert np.array_equal(play(values), expected)
    copied_once = var_copies[0]

    var_copies[0] = 0
    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", shared.numba_inline_ir)
    play, _ = _compile_with_inlining()
    assert np.array_equal(play(values), expected)
    copied_per_block = var_copies[0]

    assert copied_once > 0
    assert copied_per_block > 4 * copied_once
