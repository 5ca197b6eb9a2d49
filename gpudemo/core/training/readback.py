"""The read-back: what the loop's epochs left on the device, brought to the host in batches.

Each epoch leaves its loss (a graph's replay, one row of epochs), a classification's right answers and,
with a path, (w, b) on the device. `Readback.flush` brings them back in one copy, trims them at the
first loss that is not finite (the run diverged there), extends the histories, and adds what the views
draw beside (the fit, the test accuracy, a new loss landscape when the path left the last one) at a
cadence that keeps those evaluations a small share of the run. How many epochs may wait on the device
before a flush is bounded by time (`due`), so that a Stop or a Pause is seen within a flush interval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.landscape import Landscape, PathHistory, needs_new_grid
from gpudemo.core.training.options import LoopOptions
from gpudemo.core.training.records import DataSample, LossBatch
from gpudemo.core.training.run import PreparedRun

FLUSH_EPOCHS = 8192  # read losses back after this many epochs, or FLUSH_SECONDS, whichever comes first
# The first epoch's loss is read back on its own, at once: a person who pressed Start
# sees the first point as soon as it exists, not a flush interval later.

FIT_SHARE = 0.1  # the fit is evaluated at a flush, but so that the evaluations take at most this share of the run


def epochs_in_flight(seconds: float, epochs: int, flush_seconds: float) -> int:
    """How many epochs may be queued before the next read-back: those the device runs in `flush_seconds`, at
    the pace of the last `epochs` in `seconds` (at least one, at most FLUSH_EPOCHS)."""
    if epochs <= 0 or seconds <= 0:
        return FLUSH_EPOCHS
    return max(1, min(FLUSH_EPOCHS, int(flush_seconds * epochs / seconds)))


@dataclass(frozen=True)
class FirstBatch:
    """What rides on the first batch: the data to draw the fit against, the path's first loss landscape and
    the least-squares minimum it is drawn around."""

    data: DataSample | None = None
    landscape: Landscape | None = None
    minimum: tuple[float, float] | None = None


class Readback:
    """The epochs still on the device, and the histories they go into (see the module): the options' (which
    the loop has filled in), and what rides on the first batch."""

    def __init__(self, run: PreparedRun, options: LoopOptions, first: FirstBatch = FirstBatch()):
        self.run, self.fit = run, options.fit
        self.history: LossHistory = options.history
        self.accuracy: LossHistory | None = options.accuracy
        self.path: PathHistory | None = options.path
        self.join = torch.cat if run.mode.rows else torch.stack  # a graph's replays give rows of epochs
        self.flush_seconds = options.flush_seconds
        self.data, self.landscape, self.minimum = first.data, first.landscape, first.minimum
        self.pending: list[torch.Tensor] = []  # losses still on the device
        self.pending_epochs = 0  # the epochs of those losses
        self.pending_hits: list[torch.Tensor] = []  # a classification's right answers of those epochs
        # (w, b) after each of those epochs, with a path
        self.positions = run.path_positions() if self.path is not None else None
        self.diverged_at: int | None = None
        self.paused = 0.0  # seconds spent paused or drawing landscapes, left out of the timing
        self.start = 0.0  # when the clock started (start())
        self.next_fit = 0.0  # when the fit may be evaluated again
        self.next_flush = 0.0
        self.in_flight = FLUSH_EPOCHS
        self._flushed_at, self._flushed_epochs = 0.0, 0

    def start_clock(self) -> None:
        self.start = self.next_flush = time.perf_counter()  # the first flush is due after the first epoch

    @property
    def done(self) -> int:
        """Epochs run: read back or still pending."""
        return self.history.count + self.pending_epochs

    def add(self, epochs: int, losses: torch.Tensor, hits: torch.Tensor | None, captured: torch.Tensor | None) -> None:
        """An epoch's records (a replay's: `epochs` rows), still on the device, as a step mode's advance gives
        them; with a path, (w, b) as the step `captured` them or, if it did not, as they stand."""
        self.pending.append(losses)
        self.pending_epochs += epochs
        if self.accuracy is not None:
            self.pending_hits.append(hits)
        if self.positions is not None:
            self.positions.record(captured)

    def due(self) -> bool:
        return self.pending_epochs >= self.in_flight or time.perf_counter() >= self.next_flush

    def flushed(self, batch: LossBatch) -> None:
        """After a flush the loop yielded: the next one due a flush interval on, and the epochs allowed in
        flight at the pace the device just showed."""
        self.next_flush = time.perf_counter() + self.flush_seconds
        self.in_flight = epochs_in_flight(
            batch.seconds - self._flushed_at, self.history.count - self._flushed_epochs, self.flush_seconds
        )
        self._flushed_at, self._flushed_epochs = batch.seconds, self.history.count

    def _values(self) -> tuple[np.ndarray, np.ndarray | None]:
        """The pending losses (and hits, in the same copy) on the host; the pending lists emptied."""
        hits = None
        if self.pending_hits:  # one copy back for both: the hits ride with the losses
            both = torch.cat((self.join(self.pending).float(), self.join(self.pending_hits).float()))
            values, hits = np.split(both.to("cpu").double().numpy(), 2)  # float64 on the CPU: MPS has none
            values, hits = values.astype(np.float32), hits[: len(values)] / self.run.samples
            self.pending_hits.clear()
        else:
            values = self.join(self.pending).to("cpu", torch.float32).numpy()
        self.pending.clear()
        self.pending_epochs = 0
        return values, hits

    def _landscape(self, count: int, salvage: bool) -> Landscape | None:
        """The path's points of these epochs; a new landscape where the path left the last one."""
        new_landscape, self.landscape = self.landscape, None
        if self.path is None:
            return new_landscape
        self.path.extend(self.positions.take()[:count])
        if not salvage and needs_new_grid(new_landscape or self.run.last_landscape, self.path):
            began = time.perf_counter()
            new_landscape = self.run.landscape(self.path, self.minimum)
            self.paused += time.perf_counter() - began
        if new_landscape is not None:
            self.run.last_landscape = new_landscape
        return new_landscape

    def flush(self, final: bool = False, salvage: bool = False) -> LossBatch:
        """The pending epochs as a LossBatch (`salvage`: after a fault, the losses alone, no evaluations)."""
        values, hits = self._values()
        first = self.history.count + 1
        bad = ~np.isfinite(values)
        if bad.any():  # keep the losses up to and including the first bad one
            self.diverged_at = first + int(bad.argmax())
            values = values[: self.diverged_at - first + 1]
        landscape = self._landscape(len(values), salvage)
        if hits is not None:
            hits = self.accuracy.extend(hits[: len(values)].astype(np.float32))
        outputs = test_accuracy = None
        began = time.perf_counter()
        if self.fit and not salvage and (final or self.diverged_at is not None or began >= self.next_fit):
            outputs = self.run.fit()
            if self.run.x_test is not None:
                test_accuracy = self.run.accuracy(self.run.x_test, self.run.y_test)
            self.next_fit = began + (time.perf_counter() - began) * (1 / FIT_SHARE - 1)
        data, self.data = self.data, None
        return LossBatch(
            first,
            self.history.extend(values),
            outputs,
            data,
            time.perf_counter() - self.start - self.paused,
            landscape,
            hits,
            test_accuracy,
        )

    def salvage(self) -> LossBatch | None:
        """After a fault: the epochs done before it, if the device can still give them back (a device that is
        lost cannot; then the run ends with what was read)."""
        if not self.pending:
            return None
        try:
            return self.flush(final=False, salvage=True)
        except Exception:
            self.pending.clear()
            self.pending_hits.clear()
            return None
