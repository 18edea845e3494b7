"""What :mod:`balance.core.llvm_nb` tells LLVM: a function copied into its callers, and a
value passed by its address, read back whole and owned as numba owns what a call returns."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from numba import njit
from numba.core.runtime import _nrt_python, rtsys

from balance.core.llvm_nb import hold_nb, hold_when_nb, inlined_by_llvm_nb, unheld_nb


def _scorer(inlined: bool) -> Any:
    """A fresh function too large for LLVM to copy into its callers unasked, asking it or
    not, and a caller of it."""

    @njit(_nrt=False)
    def score(values: np.ndarray, x: int) -> int:
        if inlined:
            inlined_by_llvm_nb()
        total = 0
        for k in range(values.size):
            v = values[k] * x
            if v % 2 == 0:
                total += v
            elif v % 3 == 0:
                total -= k
            elif v % 5 == 0:
                total *= 2
            elif v % 7 == 0:
                total //= 3
            elif v % 11 == 0:
                total ^= v
            else:
                total += 7 * k
        return total

    @njit(_nrt=False)
    def play(values: np.ndarray) -> int:
        return score(values, np.int64(3)) + score(values, np.int64(5))  # one signature

    return score, play


def _calls(caller: Any, callee: Any) -> int:
    """How many calls of ``callee`` the LLVM code of ``caller`` (its one signature) makes."""
    (signature,) = caller.signatures
    (callee_signature,) = callee.signatures
    name = callee.overloads[callee_signature].fndesc.mangled_name
    return len(re.findall(rf"call [^\n]*@{re.escape(name)}\(", caller.inspect_llvm(signature)))


def test_a_function_asking_to_be_inlined_is_copied_into_its_caller() -> None:
    values = np.arange(50, dtype=np.int64)
    for inlined, calls in ((False, 2), (True, 0)):
        score, play = _scorer(inlined)
        assert play(values) == score(values, 3) + score(values, 5)
        assert _calls(play, score) == calls, inlined


@njit
def _passed_by_address(n: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Arrays made here (counted by numba's runtime), held, then read back ``n`` times in a
    function that counts references (and one of them passed through as it is). The held
    copy borrows them: both stay referenced (returned) while it is read."""
    first, second = np.arange(4.0), np.ones(3)
    held = hold_nb((first, second, n))
    total = 0.0
    for _ in range(n):
        a, b, m = unheld_nb(held)
        total += a[m % 4] + unheld_nb(b)[0]
    return first, second, total


def test_a_held_value_reads_back_whole_and_its_arrays_stay_alive() -> None:
    _nrt_python.memsys_enable_stats()
    before = rtsys.get_allocation_stats()
    first, second, total = _passed_by_address(3)  # more reads: a reference short would crash
    during = rtsys.get_allocation_stats()
    # both arrays made and still alive: none freed by a reference given back too often
    assert during.alloc - before.alloc - (during.free - before.free) == 2
    assert during.mi_alloc - before.mi_alloc - (during.mi_free - before.mi_free) == 2
    assert total == 3 * (3.0 + 1.0)  # a[3] + b[0] each time
    assert first.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert second.tolist() == [1.0, 1.0, 1.0]
    del first, second
    after = rtsys.get_allocation_stats()
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free


def test_a_value_not_held_passes_as_it_is() -> None:
    @njit
    def same(x: int, values: np.ndarray) -> float:
        return unheld_nb(x) + unheld_nb(values)[1]

    assert same(2, np.array([5.0, 7.0])) == 9.0


def test_a_value_held_when_wanted_reads_back_and_an_address_is_held_as_it_is() -> None:
    @njit
    def read(values: np.ndarray, wanted: bool) -> float:
        held = hold_when_nb((values, 3), wanted)
        total = 0.0
        if wanted:
            again = hold_nb(held)  # an address: not copied again
            array, k = unheld_nb(again)
            total = array[k]
        return total

    assert read(np.arange(5.0), True) == 3.0
    assert read(np.arange(5.0), False) == 0.0
