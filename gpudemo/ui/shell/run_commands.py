"""Run: start a run, a comparison, a sweep, a profile, a data-parallel run or a copy timing; stop, pause
and step; one job at a time.

The Run menu's and the buttons' commands, and what the window looks like while a job goes
(the form and the device list locked, the actions' state, the memory line, the tab shown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QWidget

from gpudemo.core.hardware.energy import status as energy_status
from gpudemo.core.measure.requests import SweepRequest
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import TRAINING
from gpudemo.ui.base.i18n import say
from gpudemo.ui.shell.actions import IDLE, MEASURING, State, update_actions
from gpudemo.ui.shell.actions import PAUSED as PAUSED_ACTIVITY
from gpudemo.ui.shell.actions import TRAINING as TRAINING_ACTIVITY

if TYPE_CHECKING:
    from gpudemo.core.training.plan import Plan

PARALLEL_CPU_MAX = 8  # CPU worker processes the Data parallel tab goes up to
# Each view's own settings (by its object name), held while a job goes.
LOCKED = {
    "sweepView": ("kindCombo", "dtypeCombo", "rooflineCheck", "energyCheck"),
    "compareView": ("precisionsCombo",),
}


class RunCommands(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.queued = False  # Start pressed while PyTorch loads
        self._running = False  # a job goes: the form and the views' settings are held
        window.job.stateChanged.connect(self.update_actions)
        window.job.resumed.connect(self._on_resumed)
        window.job.ended.connect(self._on_ended)
        window.job.finished.connect(self._on_finished)
        window.measurements.finished.connect(self._on_finished)

    def is_busy(self) -> bool:
        """A run, a comparison, a sweep or a profile is going (one at a time)."""
        return self.window.job.is_running() or self.window.measurements.is_running()

    def _plan_to_start(self, devices: Sequence[str] | None = None) -> Plan | None:
        """The form's run when nothing goes and it can start (see TrainingPanel.plan_to_start)."""
        w = self.window
        return None if self.is_busy() else w.trainingPanel.plan_to_start(w.devicePanel.current().id, devices)

    def _config_to_start(self, devices: Sequence[str] | None = None) -> TrainingConfig | None:
        """The settings of the form's run when it can start, for a measurement that makes runs of its own."""
        plan = self._plan_to_start(devices)
        return plan.config if plan is not None else None

    @Slot()
    def energy_for_device(self, *_args) -> None:
        """The form's energy box says whether the chosen device can be metered here (core/hardware/energy.py: no
        torch)."""
        device = self.window.devicePanel.current()
        reason = energy_status(device.id, device.pci_bus_id)
        self.window.trainingPanel.show_energy(None if reason is None else say(reason))

    @Slot()
    def start_training(self) -> None:
        """The form's run."""
        self._start_training(None)

    def start_training_held(self, epochs: int) -> None:
        """The form's run, held once `epochs` epochs are done (the first lesson's: Pause and Step can be tried)."""
        self._start_training(epochs)

    def _start_training(self, hold_after: int | None) -> None:
        w = self.window
        if w.loading:  # taken now, run when PyTorch is there (start_queued); not lost
            if w.torch_error:
                w.runStatus.say(w.torch_error, error=True)
            elif w.trainingPanel.check():
                self.queued = True
                w.runStatus.say(
                    self.tr("Start pressed: the run begins as soon as PyTorch has loaded (Stop cancels it)…")
                )
            self.update_actions()
            return
        plan = self._plan_to_start()
        if plan is None:
            return
        if w.viewTabs.currentWidget().objectName() not in ("trainingView", "landscapeView"):
            w.viewTabs.setCurrentWidget(w.trainingView)
        self.set_running(True)
        w.job.start(plan, energy=w.trainingPanel.meters_energy(), hold_after=hold_after)
        self.update_actions()
        w.memory.start(plan.config.device)

    @Slot()
    def start_compare(self) -> None:
        """The form's run on every listed device in turn, the CPU as the baseline."""
        w = self.window
        config = self._config_to_start(w.devices.ids)
        if config is not None:
            self._start_measuring(w.compareView, self.tr("%v / %m epochs"))
            precisions, energy = w.compareView.precisions(config.precision), w.trainingPanel.meters_energy()
            w.measurements.start_compare(config, w.devices.ids, precisions, energy=energy)
            self.update_actions()

    @Slot()
    def start_profile(self) -> None:
        """A few steps of the form's run on the chosen device, under torch.profiler."""
        config = self._config_to_start()
        if config is not None:
            self._start_measuring(self.window.profileView, self.tr("%p%"))
            self.window.measurements.start_profile(config)
            self.update_actions()

    @Slot()
    def start_sweep(self) -> None:
        w = self.window
        config = self._config_to_start(w.devices.ids)  # its step is the form's problem, model and optimizer
        if config is not None:
            self._start_measuring(w.sweepView, self.tr("%v / %m measurements"))
            view = w.sweepView
            w.measurements.start_sweep(
                SweepRequest(
                    view.kind(), tuple(w.devices.ids), view.dtype(), config, view.roofline(), energy=view.energy()
                )
            )
            self.update_actions()

    @Slot()
    def start_parallel(self) -> None:
        """The form's run with DDP on 1, 2, ... workers: one per GPU (nccl) when a GPU is picked, else CPU
        processes (gloo), as many as the machine has cores (at most PARALLEL_CPU_MAX)."""
        w = self.window
        config = self._config_to_start()
        if config is None:
            return
        from gpudemo.core.distributed.launcher import max_workers  # a run may start: PyTorch has loaded

        if config.device.startswith("cuda") and max_workers("nccl") > 0:
            backend, most = "nccl", max_workers("nccl")
        else:
            backend, most = "gloo", min(max_workers("gloo"), PARALLEL_CPU_MAX)
        self._start_measuring(w.parallelView, self.tr("%v of %m worker counts"))
        w.measurements.start_parallel(config, backend, most)
        self.update_actions()

    @Slot()
    def start_transfer(self) -> None:
        """Copies to the picked GPU (else the first one listed) and back; without a GPU, the reason."""
        w = self.window
        if self.is_busy():
            return
        picked = w.devicePanel.current().id
        gpus = [device for device in w.devices.ids if device.startswith("cuda")]
        device = picked if picked.startswith("cuda") else (gpus[0] if gpus else picked)
        self._start_measuring(w.transferView, self.tr("%v copies timed"))
        w.measurements.start_transfer(device)
        self.update_actions()

    def start_measurement(self, view: QWidget, start: Callable[[], None]) -> bool:
        """A measurement the second lesson asks for, with its own sizes: `start()` starts one of the
        Measurements' jobs, shown in `view` as that tab's own button shows it. False while a job goes."""
        if self.is_busy():
            return False
        self._start_measuring(view, self.tr("%p%"))
        start()
        self.update_actions()
        return True

    def _start_measuring(self, view: QWidget, progress_format: str) -> None:
        w = self.window
        w.runStatus.clear(progress_format)
        w.viewTabs.setCurrentWidget(view)
        self.set_running(True)
        w.memory.start("cpu")

    @Slot()
    def stop(self) -> None:
        """Stop whatever is going (or a Start waiting for PyTorch)."""
        if self.queued:
            self.queued = False
            self.window.runStatus.say(self.tr("The run waiting for PyTorch was cancelled."))
            self.update_actions()
        self.window.job.stop()
        self.window.measurements.stop()

    @Slot()
    def toggle_pause(self) -> None:
        self.window.job.toggle_pause()

    @Slot()
    def step(self) -> None:
        self.window.job.step()

    @Slot()
    def _on_resumed(self) -> None:
        self.window.codePanel.mark(TRAINING)

    @Slot(object)
    def _on_ended(self, result) -> None:
        w = self.window
        if w.predictInput.text().strip():
            w.predictionPanel.predict()
            if not w.lesson.is_active():  # the run's punch line in view (a lesson frames its own widgets)
                w.left.show_predictions()

    @Slot()
    def _on_finished(self) -> None:
        w = self.window
        w.runStatus.job_ended(w.job.run.config.epochs if w.job.run is not None else None)
        w.memory.stop()
        self.set_running(False)
        w.runFinished.emit()

    def set_running(self, running: bool) -> None:
        w = self.window
        self._running = running
        w.trainingPanel.set_running(running)
        w.deviceList.setEnabled(not running)
        for view in w.viewTabs.built_views():
            self.lock_view(view)
        self.update_actions()

    def lock_view(self, view: QWidget) -> None:
        """`view`'s own settings held while a job goes (a view built mid-job too): a measurement reads
        them as it starts and again as it draws."""
        for name in LOCKED.get(view.objectName(), ()):
            getattr(view, name).setEnabled(not self._running)

    def state(self) -> State:
        """What the window is doing, as the actions need to know it."""
        w = self.window
        if w.job.is_running():
            activity = PAUSED_ACTIVITY if w.job.pause_asked else TRAINING_ACTIVITY
        else:
            activity = MEASURING if w.measurements.is_running() else IDLE
        chosen = w.trainingView.chosen()
        return State(
            activity,
            has_model=chosen is not None and chosen.model is not None,
            has_runs=bool(w.session.runs),
            held=w.job.is_paused(),
            loading=w.loading,
            queued=self.queued,
            torch_failed=bool(w.torch_failure),
        )

    def cancel_queued(self) -> None:
        """PyTorch will not come (it could not be imported): a Start pressed while it loaded is dropped."""
        self.queued = False
        self.update_actions()

    def start_queued(self) -> None:
        """PyTorch has loaded and the devices are listed: a Start pressed before runs now."""
        if self.queued:
            self.queued = False
            self.start_training()

    @Slot()
    def update_actions(self, *_args) -> None:
        update_actions(self.window.actions, self.state())
