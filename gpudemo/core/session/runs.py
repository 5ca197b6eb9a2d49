"""The runs of a session: each one's settings, losses, status, result and timing, with no Qt.

A `Run` is what a person started with one press of Start; a `Session` keeps the
recent ones, at most MAX_RUNS and MAX_BYTES of memory, the oldest finished run going
first, and tells whoever subscribed what was added, changed or removed. The window's
views subscribe; the session never knows them.

Only one thread changes a session and its runs (the window's GUI thread). The
training thread writes into a run's LossHistory; the run's `count` says how much of
it the batches handed over so far, and nobody reads past it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from gpudemo.core.base import pace
from gpudemo.core.base.messages import Message
from gpudemo.core.problems import problem_for
from gpudemo.core.session.measured import Measured
from gpudemo.core.session.smoothing import SmoothedHistory
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import (
    FAILED,
    DataSample,
    LossBatch,
    TrainingResult,
)
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.landscape import Landscape, PathHistory

if TYPE_CHECKING:
    from torch import nn


PREPARING = "preparing"
RUNNING = "running"
PAUSED = "paused"
LOADED = "loaded"  # a model read from a checkpoint: no losses, a model to predict with
LIVE = (PREPARING, RUNNING, PAUSED)

MAX_RUNS = 20
MAX_BYTES = 512 * 2**20  # the losses, smoothed curves and models of every run kept


def _model_bytes(model: nn.Module | None) -> int:
    if model is None:
        return 0
    return sum(p.numel() * p.element_size() for p in model.parameters())


class Run:
    def __init__(self, number: int, config: TrainingConfig, loaded: bool = False):
        self.number = number  # 1, 2, ... in the order the session started them
        self.config = config
        self.history = LossHistory(0 if loaded else config.epochs)
        # A classification's training accuracy of each epoch, filled by the loop like the losses
        classifies = bool(problem_for(config).classes)
        self.accuracy = LossHistory(config.epochs) if classifies and not loaded else None
        self.test_accuracy: float | None = None  # the newest accuracy on the held-out images (digits)
        # (w, b) at the start and after every epoch, for a model of two parameters; filled by the loop
        has_path = problem_for(config).has_plane(config) and not loaded
        self.path = PathHistory(config.epochs) if has_path else None
        self.landscape: Landscape | None = None  # the newest loss landscape around the path
        self.status = LOADED if loaded else PREPARING
        self.result: TrainingResult | None = None
        self.message: Message | str = ""  # why it failed, for a person
        self.count = 0  # epochs whose loss is in the history and may be read
        self.seconds = 0.0  # trained so far, paused time left out (the loop's own clock)
        self.model: nn.Module | None = None  # on the CPU: the final model, or a copy taken at a pause
        self.model_epochs = 0  # the epochs `model` has been trained for
        self.data: DataSample | None = None  # the training points the fit view draws
        self.fit: np.ndarray | None = None  # the newest model outputs on data.grid
        # The loop's clock at each read-back: epoch -> seconds, for a wall-clock x axis.
        self._epochs: list[int] = [0]
        self._seconds: list[float] = [0.0]
        self._smoothed: SmoothedHistory | None = None

    def __repr__(self) -> str:
        return f"Run({self.number}, {self.status}, {self.count}/{self.config.epochs} epochs on {self.config.device})"

    # --- what the run reports, in order ---------------------------------------------

    def began(self) -> None:
        """The loop's first epoch is about to run."""
        self.status = RUNNING

    def add(self, batch: LossBatch) -> None:
        """A batch of losses is in the history (written there by the training thread)."""
        self.count = batch.last_epoch
        self.seconds = batch.seconds
        self._epochs.append(batch.last_epoch)
        self._seconds.append(batch.seconds)
        if batch.data is not None:
            self.data = batch.data
        if batch.fit is not None:
            self.fit = batch.fit
        if batch.landscape is not None:
            self.landscape = batch.landscape
        if batch.test_accuracy is not None:
            self.test_accuracy = batch.test_accuracy

    def hold(self, epochs: int, model: nn.Module) -> None:
        """The run is paused after `epochs`; `model` is a CPU copy of it as it stands."""
        self.status = PAUSED
        self.model, self.model_epochs = model, epochs

    def resume(self) -> None:
        if self.status == PAUSED:
            self.status = RUNNING

    def finish(self, result: TrainingResult) -> None:
        self.result = result
        self.status = result.status
        self.count = result.epochs_run
        self.seconds = result.seconds
        self.model, self.model_epochs = result.model, result.epochs_run
        if result.test_accuracy is not None:
            self.test_accuracy = result.test_accuracy
        if self._epochs[-1] != self.count:
            self._epochs.append(self.count)
            self._seconds.append(result.seconds)
        elif len(self._seconds) > 1:  # the curve ends at the time the run reports
            self._seconds[-1] = max(self._seconds[-2], result.seconds)
        self._trim()

    def _trim(self) -> None:
        """A stopped or failed run keeps only the epochs it ran."""
        self.history.trim()
        if self.accuracy is not None:
            self.accuracy.trim()
        if self.path is not None:
            self.path.trim()

    def fail(self, message: Message | str) -> None:
        self.status = FAILED
        self.message = message
        self._trim()

    # --- what the views read ----------------------------------------------------------

    @property
    def is_live(self) -> bool:
        return self.status in LIVE

    @property
    def rate(self) -> float:
        """Epochs a second so far."""
        return pace.rate(self.count, self.seconds)

    @property
    def eta(self) -> float:
        """Seconds left at the pace so far (inf before there is one)."""
        return pace.eta(self.count, self.config.epochs, self.seconds)

    @property
    def final_loss(self) -> float | None:
        return float(self.history.values[self.count - 1]) if self.count else None

    @property
    def final_accuracy(self) -> float | None:
        """A classification's training accuracy: the final model's once it ended, else the newest epoch's."""
        if self.result is not None and self.result.accuracy is not None:
            return self.result.accuracy
        return float(self.accuracy.values[self.count - 1]) if self.accuracy is not None and self.count else None

    def seconds_at(self, epochs: np.ndarray) -> np.ndarray:
        """The loop's clock when each epoch's loss was known, interpolated between read-backs."""
        return np.interp(epochs, self._epochs, self._seconds)

    def epochs_at(self, seconds: np.ndarray | float) -> np.ndarray:
        """The epoch the run had reached at each of `seconds` (the inverse of seconds_at)."""
        return np.interp(seconds, self._seconds, self._epochs)

    def smoothed(self, weight: float) -> LossHistory:
        """The history smoothed with `weight`, up to `count`; kept, and extended as the run goes."""
        if self._smoothed is None:
            self._smoothed = SmoothedHistory(self.history, weight)
        elif self._smoothed.weight != weight:
            self._smoothed.reset(weight)
        return self._smoothed.update(self.count)

    def drop_smoothed(self) -> None:
        self._smoothed = None

    @property
    def nbytes(self) -> int:
        smoothed = self._smoothed.nbytes if self._smoothed is not None else 0
        path = self.path.nbytes if self.path is not None else 0
        landscape = self.landscape.loss.nbytes if self.landscape is not None else 0
        accuracy = self.accuracy.nbytes if self.accuracy is not None else 0
        return (
            self.history.nbytes
            + accuracy
            + smoothed
            + path
            + landscape
            + _model_bytes(self.model)
            + 12 * len(self._epochs)
        )


class Session:
    """The recent runs, oldest first; subscribers hear of every change."""

    def __init__(self, max_runs: int = MAX_RUNS, max_bytes: int = MAX_BYTES):
        self.max_runs = max_runs
        self.max_bytes = max_bytes
        self.runs: list[Run] = []
        self.measured = Measured()  # the measurement views' latest, beside the runs (core/session/measured.py)
        self._numbered = 0
        self._added: list[Callable[[Run], None]] = []
        self._changed: list[Callable[[Run], None]] = []
        self._removed: list[Callable[[Run], None]] = []

    def subscribe(
        self,
        added: Callable[[Run], None] | None = None,
        changed: Callable[[Run], None] | None = None,
        removed: Callable[[Run], None] | None = None,
    ) -> Callable[[], None]:
        """Call these on every run added, changed or removed; returns the function that stops it."""
        pairs = [
            (listeners, listener)
            for listeners, listener in ((self._added, added), (self._changed, changed), (self._removed, removed))
            if listener is not None
        ]
        for listeners, listener in pairs:
            listeners.append(listener)

        def unsubscribe() -> None:
            for listeners, listener in pairs:
                if listener in listeners:
                    listeners.remove(listener)

        return unsubscribe

    @property
    def current(self) -> Run | None:
        """The newest run, going or not."""
        return self.runs[-1] if self.runs else None

    @property
    def live(self) -> Run | None:
        """The run going (preparing, training or paused), if any."""
        run = self.current
        return run if run is not None and run.is_live else None

    @property
    def nbytes(self) -> int:
        return sum(run.nbytes for run in self.runs)

    def start(self, config: TrainingConfig) -> Run:
        """A new run of `config`, the newest; the oldest finished runs go when over the limits."""
        if self.live is not None:
            raise RuntimeError(f"run {self.live.number} is still going")
        return self._add(Run(self._numbered + 1, config))

    def add_loaded(self, config: TrainingConfig, model: nn.Module, epochs: int) -> Run:
        """A model read from a checkpoint, kept as a run of its own (no losses) to predict with."""
        if self.live is not None:
            raise RuntimeError(f"run {self.live.number} is still going")
        run = Run(self._numbered + 1, config, loaded=True)
        run.model, run.model_epochs = model, epochs
        return self._add(run)

    def _add(self, run: Run) -> Run:
        self._numbered = run.number
        self.runs.append(run)
        for listener in self._added:
            listener(run)
        self._keep_within_limits()
        return run

    def changed(self, run: Run) -> None:
        """Tell the subscribers that `run`'s status, result or model changed."""
        for listener in self._changed:
            listener(run)
        if not run.is_live:
            self._keep_within_limits()

    def remove(self, run: Run) -> None:
        if run.is_live:
            raise RuntimeError(f"run {run.number} is still going: stop it first")
        self.runs.remove(run)
        for listener in self._removed:
            listener(run)

    def clear(self) -> None:
        """Remove every run but the one going."""
        for run in [run for run in self.runs if not run.is_live]:
            self.remove(run)

    def set_smoothing(self, weight: float) -> None:
        """Smoothed curves are kept for `weight` only (0: none), and count in the memory."""
        for run in self.runs:
            if weight == 0:
                run.drop_smoothed()
            else:
                run.smoothed(weight)
        self._keep_within_limits()

    def _keep_within_limits(self) -> None:
        while len(self.runs) > 1 and (len(self.runs) > self.max_runs or self.nbytes > self.max_bytes):
            oldest = next((run for run in self.runs[:-1] if not run.is_live), None)
            if oldest is None:
                return
            self.remove(oldest)
