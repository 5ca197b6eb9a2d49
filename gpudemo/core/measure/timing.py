"""One timer for every measurement: the median time per call of a step, the device synchronised
before every clock read, so that the figure is the work's and not the queue's."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable


def median_seconds(
    step: Callable[[], object],
    sync: Callable[[], None],
    least_s: float = 0.0,
    timings: int = 5,
    long_s: float = math.inf,
) -> float:
    """Median seconds per call of `step`: a warm-up call (kernels load, buffers are allocated), one call to
    see how long it takes, then `timings` timings, each of enough calls to last `least_s` (one timing when
    a call already takes `long_s`). `sync` waits for the device to finish what was queued."""
    step()
    sync()
    began = time.perf_counter()
    step()
    sync()
    once = max(time.perf_counter() - began, 1e-7)
    repeats = max(1, math.ceil(least_s / once))
    figures = []
    for _ in range(timings if once < long_s else 1):
        sync()
        began = time.perf_counter()
        for _ in range(repeats):
            step()
        sync()
        figures.append((time.perf_counter() - began) / repeats)
    return statistics.median(figures)
