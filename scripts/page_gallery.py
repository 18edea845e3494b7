"""The reports' web pages: one of each kind, its size, and a screenshot for docs/reports.md.

Run from the project root (needs the ``pages`` extra and Debian's ``chromium``):

    python scripts/page_gallery.py                  # every kind, screenshots in docs/images/pages
    python scripts/page_gallery.py --sizes-only     # the two sizes docs/reports.md states

Each kind of page is written by its command on small runs into a temporary folder; the
page is opened in headless chromium, its top ``--height`` pixels saved as a screenshot
(scaled to 1000 pixels wide, in greys), and its size printed. The sizes the issue of page
weight turns on are measured on the largest runs a designer makes: a 1,000,000-game
report and a 60-point sweep (the page holds no row a game, so neither grows with games).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from balance.run.machine import one_line as machine

ROOT = Path(__file__).resolve().parents[1]
WTP = ["walk-the-plank", "-s", "2"]
#: One command a kind of page, small enough for a minute each on two cores.
KINDS: dict[str, list[str]] = {
    "report": [],  # `balance report` of the "simulate" run below
    "compare": ["compare", *WTP, "-p", "4", "-g", "20000", "-v", "base", "-v", "kraken"],
    "cards": ["cards", *WTP, "-p", "4", "-g", "2000"],
    "sweep": [
        *["sweep", *WTP, "--players", "4", "--axis", "plank_max=3..5"],
        *["--axis", "pirates_per_player=2..4", "--games", "2000"],
        *["--target", "balance_index>=0.95"],
    ],
    "tune": [
        *["tune", *WTP, "-p", "4", "--axis", "plank_max=3..5"],
        *["--axis", "pirates_per_player=2..3", "--target", "length_mean=7.8..9"],
        *["--block", "512", "--max-games", "4096"],
    ],
    "tournament": [
        *["tournament", *WTP, "-p", "4", "--strategy", "random", "--strategy", "aggressor"],
        *["--strategy", "greedy", "-g", "400"],
    ],
    "skill": ["skill", *WTP, "-p", "2", "--rung", "random", "--rung", "greedy", "-g", "200"],
    "matchup": [
        *["matchup", "battle-of-thieves", "--deck", "cannon-battery"],
        *["--deck", "boarding-party", "-g", "200", "-s", "2"],
    ],
}


def balance(*args: str) -> None:
    """``balance ARGS`` in a fresh interpreter; exits with its error if it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "balance.cli", *args], capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"balance {' '.join(args)} failed:\n{done.stderr[-2000:]}")


def screenshot(page: Path, picture: Path, height: int) -> None:
    """The top of ``page`` as a grey PNG, 1000 pixels wide."""
    from PIL import Image

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("no chromium: apt-get install chromium")
    raw = picture.with_suffix(".raw.png")
    subprocess.run(
        [
            browser,
            *["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"],
            *[f"--window-size=1200,{height}", "--virtual-time-budget=10000"],
            f"--screenshot={raw}",
            page.as_uri(),
        ],
        capture_output=True,
        check=True,
    )
    image = Image.open(raw).convert("L")
    image = image.resize((1000, round(image.height * 1000 / image.width)), Image.LANCZOS)
    image.quantize(64).save(picture, optimize=True)
    raw.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", nargs="*", choices=list(KINDS), default=list(KINDS))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "pages")
    parser.add_argument("--height", type=int, default=1500, help="pixels of page shot")
    parser.add_argument("--sizes-only", action="store_true", help="no screenshots")
    args = parser.parse_args()
    print(machine(), flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        balance("simulate", *WTP, "-p", "5", "-g", "1000000", "--out", str(work / "big"))
        balance("report", str(work / "big"), "--out", str(work / "big-report"))
        size = (work / "big-report" / "index.html").stat().st_size
        print(f"report of 1,000,000 games: index.html {size / 1e6:.2f} MB", flush=True)
        balance(
            *["sweep", *WTP, "--players", "3..5", "--axis", "plank_max=3..6"],
            *["--axis", "pirates_per_player=2..6", "--target", "balance_index>=0.95"],
            *["--games", "1000", "--out", str(work / "big-sweep")],
        )
        size = (work / "big-sweep" / "index.html").stat().st_size
        print(f"sweep of 60 points: index.html {size / 1e6:.2f} MB", flush=True)
        if args.sizes_only:
            return
        args.out.mkdir(parents=True, exist_ok=True)
        for kind in args.kind:
            out = work / kind
            if kind == "report":
                balance("simulate", *WTP, "-p", "4", "-g", "20000", "--out", str(out / "run"))
                balance("report", str(out / "run"), "--out", str(out))
            else:
                balance(*KINDS[kind], "--out", str(out))
            page = out / "index.html"
            screenshot(page, args.out / f"{kind}.png", args.height)
            print(f"{kind}: index.html {page.stat().st_size / 1e6:.2f} MB", flush=True)


if __name__ == "__main__":
    main()
