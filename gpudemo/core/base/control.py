"""Stop, pause and step a run from another thread; the training loop asks before every step.

Qt-free, so the window's worker, the command line and tests drive a run the same way.
Asking is cheap (an attribute read); waiting while paused blocks on a condition, not a spin.
"""

from __future__ import annotations

import threading
import time


class RunControl:
    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._stop = False
        self._paused = False
        self._steps = 0  # epochs asked for while paused, not yet run
        self._pause_at: int | None = None  # pause once this many epochs are done

    def should_stop(self) -> bool:
        return self._stop

    def is_paused(self, epochs_done: int | None = None) -> bool:
        """Whether the run holds before its next epoch; `epochs_done` lets a `pause_after` fall due."""
        if self._pause_at is not None and epochs_done is not None and epochs_done >= self._pause_at:
            with self._condition:
                self._pause_at = None
                self._paused = True
        return self._paused

    def epochs_before_hold(self, epochs_done: int, most: int) -> int:
        """How many epochs may run at once before the run must ask again: one while paused (a step), up to
        a `pause_after` that is due, else `most`. (A captured step runs many epochs per launch.)"""
        if self._paused:
            return 1
        if self._pause_at is not None:
            return max(1, min(most, self._pause_at - epochs_done))
        return most

    def stop(self) -> None:
        """End the run at its next check, paused or not."""
        with self._condition:
            self._stop = True
            self._condition.notify_all()

    def pause(self) -> None:
        """Hold the run before its next epoch."""
        with self._condition:
            self._paused = True

    def pause_after(self, epochs: int) -> None:
        """Hold the run once `epochs` epochs are done: at that epoch exactly, whenever losses are read back."""
        with self._condition:
            self._pause_at = epochs

    def resume(self) -> None:
        with self._condition:
            self._paused = False
            self._steps = 0
            self._condition.notify_all()

    def step(self) -> None:
        """While paused: let one more epoch run, then hold again."""
        with self._condition:
            if self._paused:
                self._steps += 1
                self._condition.notify_all()

    def wait(self) -> float:
        """Block while paused, until a resume, a step or a stop; the seconds spent waiting."""
        began = time.perf_counter()
        with self._condition:
            while self._paused and not self._stop and self._steps == 0:
                self._condition.wait()
            if self._steps:
                self._steps -= 1
        return time.perf_counter() - began


def never() -> bool:
    """A stop request that never comes: the default `should_stop` of a run or a measurement."""
    return False


# How a run ended: every loop (one device, data parallel) and every view says it with these words.
COMPLETED = "completed"
STOPPED = "stopped"
DIVERGED = "diverged"
FAILED = "failed"  # raised a TrainingError: out of memory, a lost device
