#!/usr/bin/env python3
"""Where the GUI thread's time goes while the window trains: py-spy samples, summed by callback.

    .venv/bin/pip install py-spy
    .venv/bin/python tools/window_profile.py [--epochs 100000] [--runs 3] [--top 25]

Runs the window offscreen for `--runs` runs of the tutorial under `py-spy record --threads
--gil` (only samples of a thread that holds the GIL) and prints, for the GUI thread's samples
during the runs, the share of each callback (the first two Python frames under the event
loop), and how the samples split between the GUI thread and the others. Painting and the
progress bar holding the GIL is what slows the training thread down (see the README).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_window(epochs: int, runs: int) -> None:
    """The child: the window, `runs` runs of `epochs` epochs, then exit."""
    from benchmarks.window_child import (
        shown_window,  # offscreen, the benchmark's window
    )

    _app, window = shown_window()
    window.epochsSpin.setValue(epochs)
    for _ in range(runs):
        run_loop(window)
    window.close()


def run_loop(window) -> None:
    from PySide6.QtCore import QEventLoop

    loop = QEventLoop()
    window.runFinished.connect(loop.quit)
    window.start_training()
    loop.exec()
    window.runFinished.disconnect(loop.quit)


def _short(frame: str) -> str:
    return re.sub(r"\s*\((?:[^()]*/)?([\w.<>-]+\.py):\d+\)", r" (\1)", frame)


def summarize(raw: Path, top: int) -> str:
    by_thread: collections.Counter[str] = collections.Counter()
    by_callback: collections.Counter[str] = collections.Counter()
    lines = [line.rstrip() for line in raw.read_text().splitlines() if line.strip()]
    gui = next((line.split(";")[0] for line in lines if "run_window" in line), None)
    for line in lines:
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        is_gui = frames[0] == gui
        by_thread["GUI thread" if is_gui else "other threads"] += int(count)
        marks = [i for i, frame in enumerate(frames) if frame.startswith("run_loop ")]
        if is_gui and marks:
            by_callback[" > ".join(_short(f) for f in frames[marks[0] + 1 : marks[0] + 3]) or "(the loop)"] += int(
                count
            )
    total = sum(by_callback.values()) or 1
    out = [f"samples holding the GIL: {dict(by_thread)}; the GUI thread's during the runs: {total}"]
    out += [f"{count:7d} {100 * count / total:5.1f}%  {name}" for name, count in by_callback.most_common(top)]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/window_profile.py", description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_window(args.epochs, args.runs)
        return 0
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print(
            "tools/window_profile.py: py-spy is missing; install it with: .venv/bin/pip install py-spy", file=sys.stderr
        )
        return 2
    with tempfile.TemporaryDirectory() as folder:
        raw = Path(folder) / "samples.txt"
        subprocess.run(
            [
                spy,
                "record",
                "--threads",
                "--gil",
                "-r",
                "200",
                "-f",
                "raw",
                "-o",
                str(raw),
                "--",
                sys.executable,
                __file__,
                "--child",
                "--epochs",
                str(args.epochs),
                "--runs",
                str(args.runs),
            ],
            cwd=ROOT,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        print(summarize(raw, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
