"""The window's measurements (compare, sweep, profile, data parallel, copy timing), one at a time: the
job (measurement_jobs.py) runs the core's measurement on the worker thread and draws it as it comes.

The window owns one of these; it says what to show in the shared status line and
progress bar through its signals, and redraws its views at most 20 times a second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QWidget

from gpudemo.core.session.measured import Feed, Measured
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.ui.base.i18n import say
from gpudemo.ui.jobs.worker import JobController

if TYPE_CHECKING:
    from gpudemo.ui.jobs.measurement_jobs import MeasurementJob

REFRESH_MS = 50


def _jobs():
    """The jobs, which measure with torch: imported at the first measurement, once PyTorch has loaded
    (the window paints before that)."""
    from gpudemo.ui.jobs import measurement_jobs

    return measurement_jobs


class Measurements(QObject):
    status = Signal(str, bool)  # text for the status line, and whether it is an error
    progressed = Signal(int, int)  # value, maximum
    deviceBusy = Signal(str)  # the device being measured now (for its memory line)
    finished = Signal()  # the job's thread has ended
    resultReady = Signal(object)  # a job's result, once its view shows it (the second lesson reads it)

    def __init__(self, view: Callable[[str], QWidget], measured: Measured, parent=None):
        """`view(name)`: the view a job draws into (compareView, sweepView, profileView, parallelView,
        transferView), handed on to it (the jobs import none); asked for as the job starts, since a view
        is built when first shown or needed (views/deferred.py). What the job draws is recorded in
        `measured` (the session's, core/session/measured.py) as it is drawn."""
        super().__init__(parent)
        self._view = lambda name: Feed(measured, name, view(name))
        self._tasks = JobController(self)
        self._tasks.reported.connect(self._on_report)
        self._tasks.succeeded.connect(self._on_done)
        self._tasks.failed.connect(self._on_failed)
        self._tasks.finished.connect(self._on_finished)
        self._refresh = QTimer(self)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self.redraw)
        self._job: MeasurementJob | None = None

    # what a job says through its runner
    def say(self, text: str, error: bool = False) -> None:
        self.status.emit(text, error)

    def progress(self, value: int, maximum: int) -> None:
        self.progressed.emit(value, maximum)

    def busy_on(self, device: str) -> None:
        self.deviceBusy.emit(device)

    def is_running(self) -> bool:
        return self._tasks.is_running()

    def start_compare(
        self,
        config: TrainingConfig,
        devices: Sequence[str],
        precisions: Sequence[str] | None = None,
        steps: Sequence[str] | None = None,
        energy: bool = False,
    ) -> None:
        """Each device's run; with `energy`, each completed run's step metered on its energy counter too."""
        self._start(_jobs().CompareJob(self, self._view("compareView"), config, devices, precisions, steps, energy))

    def start_sweep(self, request) -> None:
        """A sweep (core/measure/sweep.SweepRequest: what to time, where, how)."""
        self._start(_jobs().SweepJob(self, self._view("sweepView"), request))

    def start_profile(self, config: TrainingConfig) -> None:
        self._start(_jobs().ProfileJob(self, self._view("profileView"), config))

    def start_parallel(self, config: TrainingConfig, backend: str, most: int) -> None:
        """The run on 1, 2, ... `most` workers in turn (processes; their devices: `backend`'s)."""
        self._start(_jobs().ParallelJob(self, self._view("parallelView"), config, backend, most))

    def start_transfer(self, device: str) -> None:
        """Copies to `device` and back at growing sizes (on a machine without a GPU: the reason there are none)."""
        self._start(_jobs().TransferJob(self, self._view("transferView"), device))

    def _start(self, job: MeasurementJob) -> None:
        self._job = job
        task = job.task()
        self._tasks.start(lambda control, report: task(control.should_stop, report), "gpudemo-task")
        self._refresh.start()

    def stop(self) -> None:
        self._tasks.stop()

    def shutdown(self) -> None:
        self._refresh.stop()
        self._tasks.shutdown()

    @Slot()
    def _on_finished(self) -> None:
        self._refresh.stop()
        self.redraw()
        self.finished.emit()

    @Slot()
    def redraw(self) -> None:
        if self._job is not None:
            self._job.redraw()

    @Slot(object)
    def _on_report(self, report) -> None:
        if self._job is not None:
            self._job.report(report)

    @Slot(object)
    def _on_done(self, result) -> None:
        self._job.done(result)
        self.resultReady.emit(result)

    @Slot(object)
    def _on_failed(self, message) -> None:
        name = self._job.name() if self._job is not None else ""
        self.status.emit(self.tr("The {job} failed: {message}").format(job=name, message=say(message)), True)
