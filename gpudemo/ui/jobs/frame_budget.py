"""How often a live run's plots redraw: as often as `FASTEST_MS` allows while the window keeps to its share of
the machine, less often where drawing costs more.

The window's work (painting the plots, the runs' rows, the counters, the slots that take each batch) runs on
the GUI thread and, in Python, holds the GIL that the training thread needs between its operators; on a machine
of two cores it also takes a core from torch's threads. Its cost is measured, not guessed: the GUI thread's
own CPU time (`time.thread_time`, read on that thread) over the wall time since the last look. Where that share
is above `SHARE`, the next frames come later in proportion (at most `SLOWEST_MS` apart); where it is below,
sooner again. A cheap plot (a few hundred points, a fast machine) keeps ten frames a second; a costly one (many
runs, a slow machine, software painting at 4K) is drawn less often rather than slowing the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable

FASTEST_MS = 100  # ten frames a second at most: a falling curve looks smooth
SLOWEST_MS = 1000  # one a second at least: the run is still seen to move
SHARE = 0.03  # the GUI thread's CPU time, at most this share of the run's (the window's budget is 5 %)
LOOK_S = 0.5  # the share is measured over at least this long (Windows counts a thread's time in 15.6 ms ticks)


class FrameBudget:
    """The interval to the next frame, from what the frames so far cost. `frame()` on the GUI thread at each
    redraw; `start()` when a run starts (its first frames come at once)."""

    def __init__(
        self,
        wall: Callable[[], float] = time.perf_counter,
        cpu: Callable[[], float] = time.thread_time,
    ):
        self._wall, self._cpu = wall, cpu
        self.interval_ms = FASTEST_MS
        self._since = (0.0, 0.0)

    def start(self) -> None:
        self.interval_ms = FASTEST_MS
        self._since = (self._wall(), self._cpu())

    def frame(self) -> int:
        """Called at a redraw: the interval to the next one, in ms."""
        wall, cpu = self._wall(), self._cpu()
        elapsed = wall - self._since[0]
        if elapsed < LOOK_S:
            return self.interval_ms
        share = (cpu - self._since[1]) / elapsed
        self._since = (wall, cpu)
        # Halfway to the interval that would have kept the share: a frame costing more or less than the last
        # ones (a second run's curve, a plot shown) moves it without a swing.
        wanted = self.interval_ms * share / SHARE
        self.interval_ms = round(min(SLOWEST_MS, max(FASTEST_MS, (self.interval_ms + wanted) / 2)))
        return self.interval_ms
