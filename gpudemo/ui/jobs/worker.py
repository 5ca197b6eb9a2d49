"""The window's jobs on a QThread: a task of the core on a worker thread, its news on the GUI thread.

One worker and one controller for every job (a training run, a measurement): the task runs as
`task(control, report)` and reports whatever it has to tell as one object at a time; the controller, a
QObject that lives in the GUI thread, receives each report through a slot of its own, so Qt queues it to
the GUI thread (a signal connected to a lambda or a plain function would run in the worker's thread), and
re-emits it as `reported`. Stopping is cooperative: the task asks its RunControl (core/base/control.py)
before every epoch and between minibatches (a measurement: `control.should_stop` at every step); pause and
step are the same control's, which only a training run asks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from gpudemo.core.base import oscalls, power
from gpudemo.core.base.control import COMPLETED, RunControl
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.training import METERING
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.landscape import PathHistory
from gpudemo.ui.jobs.frame_budget import FASTEST_MS

if TYPE_CHECKING:
    from gpudemo.core.training.plan import Plan

log = logging.getLogger(__name__)

Task = Callable[[RunControl, Callable[[object], None]], object]  # task(control, report) -> its result


class JobWorker(QObject):
    """A task of the core on the worker thread: its reports as they come, then its result or its failure, then
    `done`, always."""

    reported = Signal(object)  # whatever the task reports as it goes
    succeeded = Signal(object)  # what the task returns
    failed = Signal(object)  # a Message, for a person (gpudemo.ui.base.i18n.say translates it)
    done = Signal()  # always last

    def __init__(self, task: Task, name: str):
        super().__init__()
        self._task, self.name = task, name
        self.control = RunControl()  # stop (every job), pause and step (a run), from the GUI thread

    def request_stop(self) -> None:
        """Ask the job to stop at its next check (every step); safe from any thread."""
        self.control.stop()

    @Slot()
    def run(self) -> None:
        try:
            with power.unthrottled():  # not slowed by App Nap or power throttling while the window is hidden
                result = self._task(self.control, self.reported.emit)
        except PersonError as error:  # a failed run, a refused precision, a worker lost: the reason, for a person
            log.warning("%s ended: %s", self.name, error)
            self.failed.emit(error.message)
        except Exception as error:  # a bug: say so in the window rather than lose the thread
            log.exception("%s failed", self.name)
            self.failed.emit(message(QT_TRANSLATE_NOOP("core", "unexpected error: {reason}"), reason=repr(error)))
        else:
            self.succeeded.emit(result)
        finally:
            self.done.emit()


@dataclass(frozen=True)
class Phase:
    """A training run's report: the phase it is in now (core/training/records.py)."""

    name: str


@dataclass(frozen=True)
class Paused:
    """A training run's report: it holds after `epochs` epochs, `model` a CPU copy as it stands."""

    epochs: int
    model: object


@dataclass(frozen=True)
class Metered:
    """A training run's report, when asked for: its energy (core/measure/joules.RunEnergy), before it ends."""

    energy: object


def training_task(
    plan: Plan,
    history: LossHistory,
    path: PathHistory | None = None,
    accuracy: LossHistory | None = None,
    energy: bool = False,
) -> Task:
    """The core's training loop as a job: each batch of losses reported as it is read back (its losses are in
    the history), each phase, each hold; with `energy`, its step is then metered on the energy counter."""

    def task(control: RunControl, report: Callable[[object], None]) -> object:
        from gpudemo.core.training import LoopOptions, run_training  # a plan exists: PyTorch has loaded

        watched = LoopOptions(
            on_phase=lambda name: report(Phase(name)),
            control=control,
            on_pause=lambda epochs, model: report(Paused(epochs, model)),
            history=history,
            accuracy=accuracy,
            path=path,
            fit=True,
            # read back as often as the window draws, not more: each batch is a slot on the GUI thread
            flush_seconds=FASTEST_MS / 1000,
        )
        batches = run_training(plan, watched)
        while True:
            try:
                report(next(batches))
            except StopIteration as finished:
                result = finished.value
                break
        if energy and result.status == COMPLETED:  # its step again, under the energy counter
            from gpudemo.core.measure.joules import run_energy

            report(Phase(METERING))
            report(Metered(run_energy(result.config, True, control.should_stop)))
        return result

    return task


class JobController(QObject):
    """Owns one job's thread and worker at a time; lives in the GUI thread and re-emits there."""

    reported = Signal(object)  # a report of the job, on the GUI thread
    succeeded = Signal(object)  # the job's result
    failed = Signal(object)  # a Message
    finished = Signal()  # the thread has ended: a new job may start

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: JobWorker | None = None

    def is_running(self) -> bool:
        return self._thread is not None

    def start(self, task: Task, name: str = "gpudemo-job") -> None:
        if self._thread is not None:
            raise RuntimeError("a job is already going")
        worker = JobWorker(task, name)
        thread = QThread()
        thread.setObjectName(name)
        # A compile recurses deep (dynamo, inductor): Qt's default stack is the platform's, 512 KiB for a
        # secondary thread on macOS, where the main thread's 8 MiB is what torch.compile is tried with.
        thread.setStackSize(oscalls.THREAD_STACK_BYTES)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.reported.connect(self._on_reported)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        # Direct: QThread.quit is thread-safe, and a queued call would wait for the GUI
        # thread, which may be blocked in shutdown() waiting for this very thread.
        worker.done.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._on_thread_finished)
        self._thread, self._worker = thread, worker
        thread.start()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.request_stop()

    def pause(self) -> None:
        if self._worker is not None:
            self._worker.control.pause()

    def pause_after(self, epochs: int) -> None:
        """Hold the run once `epochs` epochs are done (the first lesson's run: held after its first epoch)."""
        if self._worker is not None:
            self._worker.control.pause_after(epochs)

    def resume(self) -> None:
        if self._worker is not None:
            self._worker.control.resume()

    def step(self) -> None:
        if self._worker is not None:
            self._worker.control.step()

    def stop_asked(self) -> bool:
        """Stop was asked of the job that goes (it ends at its next check)."""
        return self._worker is not None and self._worker.control.should_stop()

    def shutdown(self) -> None:
        """Stop the job and wait for its thread to end (for closing the window)."""
        if self._thread is None:
            return
        self.stop()
        self._thread.wait()
        self._on_thread_finished()

    @Slot(object)
    def _on_reported(self, report) -> None:
        self.reported.emit(report)

    @Slot(object)
    def _on_succeeded(self, result) -> None:
        self.succeeded.emit(result)

    @Slot(object)
    def _on_failed(self, text: Message) -> None:
        self.failed.emit(text)

    @Slot()
    def _on_thread_finished(self) -> None:
        sender = self.sender()
        if self._thread is None or (isinstance(sender, QThread) and sender is not self._thread):
            return  # a late signal from a thread that shutdown() already waited for
        # `finished` is emitted from the thread just before it ends: wait for the end,
        # then let Python free the worker and the thread here, in the GUI thread. (No
        # deleteLater: a delete in the ending thread could race the wrappers' own.)
        self._thread.wait()
        self._thread = self._worker = None
        self.finished.emit()
