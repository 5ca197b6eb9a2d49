"""Training on a QThread: the core loop on a worker thread, its news on the GUI thread.

Every signal of the worker reaches the controller through a slot of the controller,
a QObject that lives in the GUI thread, so Qt queues it to the GUI thread. (A signal
connected to a lambda or a plain function would run in the worker's thread.)
Stopping is cooperative: the loop asks its RunControl (core/base/control.py) before every epoch and
between minibatches; a measurement asks its stop flag at every step.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from gpudemo.core.base import oscalls
from gpudemo.core.base.control import COMPLETED, RunControl
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.training import METERING
from gpudemo.core.training.history import LossHistory
from gpudemo.core.training.landscape import PathHistory

if TYPE_CHECKING:
    from gpudemo.core.training.plan import Plan

log = logging.getLogger(__name__)


class _Worker(QObject):
    """A job of the core on the worker thread: its result or its failure, then `done`, always."""

    succeeded = Signal(object)  # what the job returns
    failed = Signal(object)  # a Message, for a person (gpudemo.ui.base.i18n.say translates it)
    done = Signal()  # always last

    def __init__(self):
        super().__init__()
        self._stop = threading.Event()

    def request_stop(self) -> None:
        """Ask the job to stop at its next check (every step); safe from any thread."""
        self._stop.set()

    def _work(self) -> object:
        raise NotImplementedError

    @Slot()
    def run(self) -> None:
        try:
            with oscalls.unthrottled():  # not slowed by App Nap or power throttling while the window is hidden
                result = self._work()
        except PersonError as error:  # a failed run, a refused precision, a worker lost: the reason, for a person
            log.warning("%s ended: %s", type(self).__name__, error)
            self.failed.emit(error.message)
        except Exception as error:  # a bug: say so in the window rather than lose the thread
            log.exception("%s failed", type(self).__name__)
            self.failed.emit(message(QT_TRANSLATE_NOOP("core", "unexpected error: {reason}"), reason=repr(error)))
        else:
            self.succeeded.emit(result)
        finally:
            self.done.emit()


class TrainingWorker(_Worker):
    """Steps through the core's training generator; stop, pause and step come through a RunControl."""

    batched = Signal(object)  # LossBatch: its losses are in the history (and its fit, its data, its clock)
    phaseChanged = Signal(str)
    paused = Signal(int, object)  # epochs run, a CPU copy of the model as it stands
    metered = Signal(object)  # asked for: the run's energy (core/measure/joules.RunEnergy), before it ends

    def __init__(
        self,
        plan: Plan,
        history: LossHistory,
        path: PathHistory | None = None,
        accuracy: LossHistory | None = None,
        energy: bool = False,
    ):
        super().__init__()
        self._plan = plan
        self._energy = energy
        self._history = history
        self._path = path
        self._accuracy = accuracy
        self.control = RunControl()  # pause, step and stop, from the GUI thread

    def request_stop(self) -> None:
        self.control.stop()

    def _work(self) -> object:
        from gpudemo.core.training import run_training  # a plan exists: PyTorch has loaded

        batches = run_training(
            self._plan,
            on_phase=self.phaseChanged.emit,
            history=self._history,
            fit=True,
            control=self.control,
            on_pause=self.paused.emit,
            path=self._path,
            accuracy=self._accuracy,
        )
        while True:
            try:
                self.batched.emit(next(batches))
            except StopIteration as finished:
                result = finished.value
                break
        if self._energy and result.status == COMPLETED:  # its step again, under the energy counter
            from gpudemo.core.measure.joules import run_energy

            self.phaseChanged.emit(METERING)
            self.metered.emit(run_energy(result.config, True, self.control.should_stop))
        return result


class TaskWorker(_Worker):
    """Runs `task(should_stop, report)` on the worker thread: compare, sweep, any long job of the core."""

    reported = Signal(object)  # whatever the task reports as it goes

    def __init__(self, task: Callable[[Callable[[], bool], Callable[[object], None]], object]):
        super().__init__()
        self._task = task

    def _work(self) -> object:
        return self._task(self._stop.is_set, self.reported.emit)


class _ThreadOwner(QObject):
    """Owns one job's thread and worker at a time; lives in the GUI thread and re-emits there."""

    succeeded = Signal(object)  # the job's result
    failed = Signal(object)  # a Message
    finished = Signal()  # the thread has ended: a new job may start

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: QObject | None = None

    def is_running(self) -> bool:
        return self._thread is not None

    def _launch(self, worker: QObject, name: str) -> None:
        if self._thread is not None:
            raise RuntimeError("a job is already going")
        thread = QThread()
        thread.setObjectName(name)
        # A compile recurses deep (dynamo, inductor): Qt's default stack is the platform's, 512 KiB for a
        # secondary thread on macOS, where the main thread's 8 MiB is what torch.compile is tried with.
        thread.setStackSize(oscalls.THREAD_STACK_BYTES)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
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

    def shutdown(self) -> None:
        """Stop the job and wait for its thread to end (for closing the window)."""
        if self._thread is None:
            return
        self.stop()
        self._thread.wait()
        self._on_thread_finished()

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


class TrainingController(_ThreadOwner):
    """One training run at a time."""

    batched = Signal(object)
    phaseChanged = Signal(str)
    paused = Signal(int, object)  # the run holds at this epoch; the model as it stands, on the CPU
    metered = Signal(object)  # the run's energy, when asked (before `succeeded`)

    def start(
        self,
        plan: Plan,
        history: LossHistory,
        path: PathHistory | None = None,
        accuracy: LossHistory | None = None,
        energy: bool = False,
    ) -> None:
        worker = TrainingWorker(plan, history, path, accuracy, energy)
        worker.batched.connect(self._on_batched)
        worker.phaseChanged.connect(self._on_phase)
        worker.paused.connect(self._on_paused)
        worker.metered.connect(self._on_metered)
        self._launch(worker, "gpudemo-training")

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
        """Stop was asked of the run that goes (it ends at its next check)."""
        return self._worker is not None and self._worker.control.should_stop()

    @Slot(int, object)
    def _on_paused(self, epochs: int, model) -> None:
        self.paused.emit(epochs, model)

    @Slot(object)
    def _on_metered(self, energy) -> None:
        self.metered.emit(energy)

    @Slot(object)
    def _on_batched(self, batch) -> None:
        self.batched.emit(batch)

    @Slot(str)
    def _on_phase(self, phase: str) -> None:
        self.phaseChanged.emit(phase)


class TaskController(_ThreadOwner):
    """One task of the core at a time (compare, sweep), its reports re-emitted in the GUI thread."""

    reported = Signal(object)

    def start(self, task: Callable[[Callable[[], bool], Callable[[object], None]], object]) -> None:
        worker = TaskWorker(task)
        worker.reported.connect(self._on_reported)
        self._launch(worker, "gpudemo-task")

    @Slot(object)
    def _on_reported(self, report) -> None:
        self.reported.emit(report)
