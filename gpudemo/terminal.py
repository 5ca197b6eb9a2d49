"""A one-line progress bar for the terminal, redrawn in place on stderr."""

from __future__ import annotations

import math
import shutil
from typing import TextIO

from gpudemo.core import pace


def format_duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class ProgressBar:
    def __init__(self, stream: TextIO, total: int, label: str = "training"):
        self.stream = stream
        self.total = total
        self.label = label

    def update(self, done: int, seconds: float) -> None:
        """`done` epochs after `seconds` of training (the loop's clock, as the window reads it)."""
        rate = pace.rate(done, seconds)
        remaining = pace.eta(done, self.total, seconds)
        eta = format_duration(remaining) if math.isfinite(remaining) else "?"
        text = f" {done:,}/{self.total:,} epochs  {rate:,.0f} epochs/s  ETA {eta}"
        width = max(10, min(40, shutil.get_terminal_size((80, 24)).columns - len(self.label) - len(text) - 8))
        filled = int(width * done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {100 * done // max(1, self.total):3d}%{text}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
