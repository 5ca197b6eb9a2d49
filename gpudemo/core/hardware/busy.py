"""Whether a CPU figure was taken on a busy machine, so that it is never silently wrong.

torch runs a CPU operator on several OpenMP threads that meet at a barrier after every
operator. When another process takes one of the cores, the thread on it is descheduled
and the others wait for it at each barrier: on a 2-core machine a 64 x 64 product that
takes under 10 µs took 16 ms. Two ways to see it, both cheap:
- `contended`: time the same small step on one thread; when all threads are much slower
  than one, they waited for each other;
- `OtherLoad`: how many cores other processes used while we measured (the system's CPU times,
  less this process's own CPU time: core/base/oscalls.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from gpudemo.core.base import oscalls

CONTENDED_RATIO = 2.0  # all threads this many times slower than one: they waited at barriers
BUSY_CORES = 0.5  # other processes used at least this many cores while we measured
MIN_WINDOW_S = 0.1  # the system counts CPU time in 10 ms ticks (Linux): shorter windows say nothing


def contended(all_threads_s: float, one_thread_s: float) -> bool:
    """Whether a timing on all of torch's threads shows them waiting for each other."""
    return all_threads_s > CONTENDED_RATIO * one_thread_s


class OtherLoad:
    """Cores used by other processes while the `with` block ran; `cores` is None where unknown.

    `busy` when they took a core that our `threads` needed: more than the cores our threads
    left spare, by BUSY_CORES.
    """

    def __init__(
        self,
        threads: int | None = None,
        machine: Callable[[], float | None] = oscalls.machine_busy_seconds,
        own: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self._machine, self._own, self._clock = machine, own, clock
        cores = os.cpu_count() or 1
        self._spare = max(0, cores - (threads or cores))
        self.cores: float | None = None

    def __enter__(self) -> OtherLoad:
        self._start = (self._machine(), self._own(), self._clock())
        return self

    def __exit__(self, *exc) -> None:
        machine, own, clock = self._machine(), self._own(), self._clock()
        machine0, own0, clock0 = self._start
        wall = clock - clock0
        if machine is None or machine0 is None or wall < MIN_WINDOW_S:
            self.cores = None
            return
        self.cores = max(0.0, ((machine - machine0) - (own - own0)) / wall)

    @property
    def busy(self) -> bool:
        return self.cores is not None and self.cores >= self._spare + BUSY_CORES
