"""What numba compiled during a test run: the functions and tests that cost the most.

Run the suite with ``BALANCE_COMPILE_LOG`` naming an empty directory, then read it:

    BALANCE_COMPILE_LOG=/tmp/compiles pytest -n auto
    python scripts/compile_report.py /tmp/compiles

Each process of the run (the engines' warm-up, every test worker) logs each function it
compiled (``tests/compile_log.py``). This prints the machine, the compile seconds of each
process, the functions by their own compile seconds (without the callees they compiled
on the way) with how many times and processes compiled each, and for how many argument
types (more times than types: the same work done twice, a process not finding another's
in numba's cache in time; more types than one: the callers pass different types), and
the tests by the seconds spent compiling in them. ``--function TEXT`` lists the argument
types of the functions whose names hold TEXT.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from balance.run.machine import one_line as machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="BALANCE_COMPILE_LOG of the run")
    parser.add_argument("--top", type=int, default=25, help="rows per table")
    parser.add_argument(
        "--function", metavar="TEXT", help="list each signature of the functions named so"
    )
    options = parser.parse_args()
    lines = [
        json.loads(line)
        for path in sorted(options.directory.glob("*.jsonl"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    if not lines:
        parser.error(f"no compile logged in {options.directory}")
    print(machine())
    by_process: dict[str, float] = defaultdict(float)
    by_function: dict[str, list[float]] = defaultdict(list)
    processes: dict[str, set[str]] = defaultdict(set)
    signatures: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    same: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_test: dict[str, float] = defaultdict(float)
    for line in lines:
        by_process[line["process"]] += line["own_seconds"]
        by_function[line["function"]].append(line["own_seconds"])
        processes[line["function"]].add(line["process"])
        signature = line.get("signature", "")
        signatures[line["function"]][signature] += line["own_seconds"]
        same[line["function"], signature].append(line["own_seconds"])
        by_test[line["test"] or "(before the tests)"] += line["own_seconds"]
    total = sum(by_process.values())
    print(f"\n{len(lines):,} compiles, {total:,.0f} s of compiling in all")
    for process, seconds in sorted(by_process.items()):
        print(f"  {process:<10} {seconds:8,.0f} s")
    print(f"\nfunctions by own compile seconds (top {options.top}):")
    print(f"  {'seconds':>8} {'times':>5} {'procs':>5} {'types':>5}  function")
    ranked = sorted(by_function.items(), key=lambda item: -sum(item[1]))
    for function, seconds in ranked[: options.top]:
        count, procs, kinds = len(seconds), len(processes[function]), len(signatures[function])
        print(f"  {sum(seconds):8,.1f} {count:5} {procs:5} {kinds:5}  {function}")
    if options.function:
        print(f"\nsignatures of the functions named {options.function!r}:")
        for function, kinds in sorted(signatures.items()):
            if options.function in function:
                print(f"  {function}")
                for signature, seconds in sorted(kinds.items(), key=lambda item: -item[1]):
                    print(f"    {seconds:8,.1f} s  ({signature})")
    twice = sum(sum(s) - max(s) for s in same.values())
    print(f"\ncompiled again for the same types: {twice:,.0f} s beyond the first compile of each")
    print(f"\ntests by compile seconds (top {options.top}):")
    for test, seconds in sorted(by_test.items(), key=lambda item: -item[1])[: options.top]:
        print(f"  {seconds:8,.1f}  {test}")


if __name__ == "__main__":
    main()
