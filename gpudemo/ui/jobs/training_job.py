"""A run started from the window: the session's run on the worker thread, pause and step, and what
is drawn of it while it goes (at most 10 frames a second: painting holds the GIL the loop needs)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from gpudemo.core.base.messages import Message
from gpudemo.core.session.runs import PAUSED, Run, Session
from gpudemo.core.training import METERING, PREPARING_STEP, STOPPED, TRAINING, LossBatch, TrainingResult
from gpudemo.ui.jobs.frame_budget import FrameBudget
from gpudemo.ui.jobs.worker import JobController, Metered, Paused, Phase, training_task
from gpudemo.ui.views.run_status import RunStatus
from gpudemo.ui.views.training_view import TrainingView

if TYPE_CHECKING:
    from gpudemo.core.training.plan import Plan
    from gpudemo.ui.views.landscape_view import LandscapeView

# Painting holds the GIL that the training thread needs (pyqtgraph paints in Python, and a
# progress bar repaints at once inside setValue): measured with py-spy on a 2-core machine,
# 20 frames and 10 counter updates a second cost the run 16% of its speed, 10 and 4 about 10%.
COUNTERS_S = 0.25  # the progress bar and the rate at most 4 times a second (the plots: ui/jobs/frame_budget.py)


class TrainingJob(QObject):
    phaseChanged = Signal(str)  # the run's phase, as the core names it (the Code panel marks it)
    pausedAt = Signal(int)  # the run holds after this many epochs
    resumed = Signal()  # a held run goes on
    stateChanged = Signal()  # what the actions depend on changed (pause asked, held, resumed)
    ended = Signal(object)  # the TrainingResult of a run that completed, stopped or diverged, once shown
    finished = Signal()  # the run's thread has ended

    def __init__(
        self,
        session: Session,
        training_view: TrainingView,
        landscape: Callable[[], LandscapeView | None],
        status: RunStatus,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.session, self.trainingView, self._landscape, self.status = (
            session,
            training_view,
            landscape,
            status,
        )
        self.controller = JobController(self)
        self.run: Run | None = None  # the run the controller drives, or drove last
        self._dirty = False  # the run has epochs not drawn yet
        self.pause_asked = False  # Pause pressed and not yet resumed
        self.phase: str | None = None  # the run's phase, as the core last said it
        self.energy = None  # the run's energy when it was asked for (core/measure/joules.RunEnergy)
        self._counters_at = 0.0  # when the progress bar and the rate were last set
        self._budget = FrameBudget()  # how often the plots redraw, from what drawing them costs
        self._refresh = QTimer(self)
        self._refresh.setInterval(self._budget.interval_ms)
        self._refresh.timeout.connect(self.redraw)
        self.controller.reported.connect(self._on_report)
        self.controller.succeeded.connect(self._on_succeeded)
        self.controller.failed.connect(self._on_failed)
        self.controller.finished.connect(self._on_finished)

    def is_running(self) -> bool:
        return self.controller.is_running()

    def is_paused(self) -> bool:
        """The run holds (Pause was pressed and the loop got to hold)."""
        return self.pause_asked and self.run is not None and self.run.status == PAUSED

    def start(self, plan: Plan, energy: bool = False, hold_after: int | None = None) -> None:
        """Train the run `plan` checked (core/training/plan.py): the loop takes it, with no second preflight; with
        `energy`, its step is then metered on the device's energy counter (core/measure/joules.py); with
        `hold_after`, held (paused) once that many epochs are done, as if Pause were pressed then."""
        self._dirty = False
        self.phase = None
        self.energy = None
        self.run = self.session.start(plan.config)  # the views hear of it from the session
        from gpudemo.core.training import is_warm  # a plan exists: PyTorch has loaded

        self.status.preparing(plan.config, is_warm())
        run = self.run
        self.controller.start(training_task(plan, run.history, run.path, run.accuracy, energy), "gpudemo-training")
        if hold_after is not None:
            self.pause_asked = True
            self.controller.pause_after(hold_after)
        self._budget.start()
        self._refresh.start(self._budget.interval_ms)

    def stop(self) -> None:
        if self.is_running() and self.phase == PREPARING_STEP:  # nothing interrupts a compile: say what Stop waits for
            self.status.stopping_after_compile(self.run.config)
        self.controller.stop()

    def toggle_pause(self) -> None:
        """Pause the run before its next epoch, or let a paused run go on."""
        if not self.is_running():
            return
        if self.pause_asked:
            self.pause_asked = False
            self.controller.resume()
            if self.run.status == PAUSED:
                self.run.resume()
                self.session.changed(self.run)
            self.status.training(self.run.config)
            self.resumed.emit()
        else:
            self.pause_asked = True
            self.controller.pause()
            self.status.pausing()
        self.stateChanged.emit()

    def step(self) -> None:
        if self.is_paused():
            self.controller.step()

    def shutdown(self) -> None:
        """The window closes: stop the run and wait for its thread."""
        self._refresh.stop()
        self.controller.shutdown()

    @Slot()
    def redraw(self, final: bool = False) -> None:
        run = self.run
        if not self._dirty or run is None:
            return
        self._dirty = False
        now = time.perf_counter()
        counters = final or now - self._counters_at >= COUNTERS_S
        view = self.trainingView
        if final or (view.isVisible() and not view.window().isMinimized()):  # hidden: drawn when next seen
            view.refresh(run, counters)
        landscape = self._landscape()  # built when first shown; it draws only while shown
        if landscape is not None:
            landscape.refresh(run)
        if counters:
            self._counters_at = now
            self.status.counters(run)
        if not final:
            self._refresh.setInterval(self._budget.frame())

    @Slot(object)
    def _on_report(self, report) -> None:
        """What the run's thread tells, on the GUI thread: a batch of losses, a phase, a hold, its energy."""
        if isinstance(report, Phase):
            self._on_phase(report.name)
        elif isinstance(report, Paused):
            self._on_paused(report.epochs, report.model)
        elif isinstance(report, Metered):
            self.energy = report.energy  # said with the result, which comes next
        else:
            self._on_batch(report)

    def _on_phase(self, phase: str) -> None:
        self.phase = phase
        if phase == PREPARING_STEP:
            self.status.compiling(self.run.config, stopping=self.controller.stop_asked())
        elif phase == METERING:
            self.status.metering(self.run.config.device)
        elif phase == TRAINING:
            self.run.began()
            self.session.changed(self.run)
            self.status.training(self.run.config, began=True)
        self.phaseChanged.emit(phase)

    def _on_batch(self, batch: LossBatch) -> None:
        self.run.add(batch)
        self._dirty = True

    def _on_paused(self, epochs: int, model) -> None:
        if not self.pause_asked:
            return  # resumed before the run got to hold
        self._dirty = True
        self.redraw(final=True)
        self.run.hold(epochs, model)
        self.session.changed(self.run)
        self.status.paused(epochs, self.run.config.epochs)
        self.stateChanged.emit()
        self.pausedAt.emit(epochs)

    @Slot(object)
    def _on_succeeded(self, result: TrainingResult) -> None:
        if result.status == STOPPED and result.epochs_run == 0:  # stopped before it began: nothing to keep
            self.run.finish(result)
            self.session.remove(self.run)
            self.status.stopped_before_first_epoch()
            return
        self.run.finish(result)
        self.session.changed(self.run)
        self._dirty = True
        self.redraw(final=True)
        self.status.finished(result, self.energy)
        self.ended.emit(result)

    @Slot(object)
    def _on_failed(self, message: Message) -> None:
        self._dirty = True
        self.redraw(final=True)
        self.run.fail(message)
        self.session.changed(self.run)
        self.status.failed(message)

    @Slot()
    def _on_finished(self) -> None:
        self.pause_asked = False
        self._refresh.stop()
        self.finished.emit()
