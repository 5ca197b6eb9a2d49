"""What the command line prints and how it ends: exit statuses, tables, a progress bar redrawn in
place on stderr, and Ctrl-C turned into a cooperative stop."""

from __future__ import annotations

import contextlib
import math
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from gpudemo.core.base import pace, units

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def table(rows: Sequence[Sequence[str]], numbers_right: bool = False) -> str:
    """Columns padded to their widest cell; `numbers_right`: every column but the first right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.rjust(width) if numbers_right and i else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    )


def number(value: float | None, spec: str) -> str:
    """`value` formatted, or "-" where there is none."""
    return "-" if value is None else format(value, spec)


@contextlib.contextmanager
def stop_on_ctrl_c(waiting_for: Callable[[], str | None] = lambda: None) -> Iterator[threading.Event]:
    """An event Ctrl-C sets instead of raising, while the block runs: the work stops at its next check.

    The first Ctrl-C is acknowledged on stderr at once, with what the stop waits for (`waiting_for()`: a
    compile, say, which nothing interrupts); a second one raises KeyboardInterrupt (the command ends as
    interrupted, writing nothing)."""
    stop = threading.Event()

    def on_ctrl_c(*_) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        waiting = waiting_for()
        after = f" after {waiting}" if waiting else ""
        sys.stderr.write(f"\ngpudemo: stopping{after}… (Ctrl-C again to quit at once, writing nothing)\n")
        sys.stderr.flush()

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class ProgressBar:
    """A one-line progress bar for the terminal, redrawn in place."""

    def __init__(self, stream: TextIO, total: int, label: str = "training"):
        self.stream = stream
        self.total = total
        self.label = label

    def update(self, done: int, seconds: float) -> None:
        """`done` epochs after `seconds` of training (the loop's clock, as the window reads it)."""
        rate = pace.rate(done, seconds)
        remaining = pace.eta(done, self.total, seconds)
        eta = units.clock(remaining) if math.isfinite(remaining) else "?"
        text = f" {done:,}/{self.total:,} epochs  {rate:,.0f} epochs/s  ETA {eta}"
        width = max(10, min(40, shutil.get_terminal_size((80, 24)).columns - len(self.label) - len(text) - 8))
        filled = int(width * done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {100 * done // max(1, self.total):3d}%{text}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
