"""Compare, sweep, profile, data parallel and copy timing in the window: the core's measurements on the
worker thread, drawn as they come.

The window owns one of these; it says what to show in the shared status line and
progress bar through its signals, and redraws its views at most 20 times a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from gpudemo.core.config import TrainingConfig
from gpudemo.core.distributed.launcher import ParallelResult, scaling, uneven_split
from gpudemo.core.measure.compare import (
    FAILED,
    NOT_RUN,
    CompareProgress,
    DeviceTiming,
    compare_devices,
    devices_to_compare,
)
from gpudemo.core.measure.profile import StepProfile, profile_steps
from gpudemo.core.measure.sweep import (
    LINE,
    MATMUL_SIZES,
    STEP,
    STEP_SIZES,
    SweepResult,
    SweepRow,
    sweep,
)
from gpudemo.core.measure.transfer import TransferResult, TransferRow, measure_transfers
from gpudemo.core.training import STOPPED
from gpudemo.ui.base.i18n import name_text, say
from gpudemo.ui.jobs.worker import TaskController
from gpudemo.ui.views.compare_view import CompareView
from gpudemo.ui.views.parallel_view import ParallelView
from gpudemo.ui.views.profile_view import ProfileView
from gpudemo.ui.views.sweep_view import SweepView
from gpudemo.ui.views.transfer_view import TransferView

COMPARE, SWEEP, PROFILE, PARALLEL, TRANSFER = "compare", "sweep", "profile", "parallel", "transfer"
REFRESH_MS = 50


class Measurements(QObject):
    status = Signal(str, bool)  # text for the status line, and whether it is an error
    progressed = Signal(int, int)  # value, maximum
    deviceBusy = Signal(str)  # the device being measured now (for its memory line)
    finished = Signal()  # the job's thread has ended
    resultReady = Signal(object)  # a job's result, once its view shows it (the second lesson reads it)

    def __init__(
        self,
        compare_view: CompareView,
        sweep_view: SweepView,
        profile_view: ProfileView,
        parallel_view: ParallelView,
        transfer_view: TransferView,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.compareView, self.sweepView, self.profileView = compare_view, sweep_view, profile_view
        self.parallelView, self.transferView = parallel_view, transfer_view
        self._tasks = TaskController(self)
        self._tasks.reported.connect(self._on_report)
        self._tasks.succeeded.connect(self._on_done)
        self._tasks.failed.connect(self._on_failed)
        self._tasks.finished.connect(self._on_finished)
        self._refresh = QTimer(self)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self.redraw)
        self._job: str | None = None
        self._order: list[str] = []
        self._epochs = 0
        self._count = 0  # sweep rows so far
        self._precisions: list[str] = ["fp32"]  # a comparison's precisions
        self._problem = ""  # the profiled run's problem
        self._dirty = False

    def is_running(self) -> bool:
        return self._tasks.is_running()

    def job(self) -> str | None:
        return self._job if self.is_running() else None

    def start_compare(
        self,
        config: TrainingConfig,
        devices: Sequence[str],
        precisions: Sequence[str] | None = None,
        steps: Sequence[str] | None = None,
    ) -> None:
        self._job, self._order, self._epochs = COMPARE, devices_to_compare(devices), config.epochs
        self._precisions = list(precisions or [config.precision])  # each device runs in each, in this order
        self.compareView.clear()
        self.progressed.emit(0, config.epochs * len(self._order) * len(self._precisions))
        self.status.emit(
            self.tr("Comparing {devices}: {epochs} epochs on each, after a warm-up…").format(
                devices=", ".join(self._order), epochs=f"{config.epochs:,}"
            ),
            False,
        )
        self._start(
            lambda should_stop, report: compare_devices(config, devices, should_stop, report, precisions, steps)
        )

    def start_sweep(
        self,
        devices: Sequence[str],
        kind: str,
        dtype: str,
        config: TrainingConfig = LINE,
        roofline: bool = False,
        sizes: Sequence[int] | None = None,
    ) -> None:
        self._job, self._order = SWEEP, devices_to_compare(devices)
        self._count = 0
        self.sweepView.clear(kind)
        sizes = sizes or (STEP_SIZES if kind == STEP else MATMUL_SIZES)
        self.progressed.emit(0, len(sizes) * len(self._order))
        self.status.emit(
            self.tr("Sweeping {kind} in {dtype} on {devices}…").format(
                kind=kind, dtype=dtype, devices=", ".join(self._order)
            ),
            False,
        )
        self._start(
            lambda should_stop, report: sweep(
                kind, devices, dtype, should_stop, report, config=config, roofline=roofline, sizes=sizes
            )
        )

    def start_profile(self, config: TrainingConfig) -> None:
        self._job, self._order = PROFILE, [config.device]
        self._problem = name_text(config.problem)
        self.profileView.clear()
        self.progressed.emit(0, 0)  # busy: a profile says nothing until it is done
        self.deviceBusy.emit(config.device)
        self.status.emit(
            self.tr("Profiling a step of {problem} on {device} under torch.profiler…").format(
                problem=name_text(config.problem), device=config.device
            ),
            False,
        )
        self._start(lambda should_stop, report: profile_steps(config))

    def start_parallel(self, config: TrainingConfig, backend: str, most: int) -> None:
        """The run on 1, 2, ... `most` workers in turn (processes; their devices: `backend`'s)."""
        self._job, self._order = PARALLEL, [config.device]
        self._count, self._most = 0, most
        self._parallel_config = config
        self.parallelView.clear(backend, most)
        self.progressed.emit(0, most)
        self.status.emit(
            self.tr("Data parallel: {problem} on 1 to {most} workers ({backend}), in turn…").format(
                problem=name_text(config.problem), most=most, backend=backend
            ),
            False,
        )
        counts = list(range(1, most + 1))
        self._start(lambda should_stop, report: scaling(config, counts, backend, should_stop, report))

    def start_transfer(self, device: str) -> None:
        """Copies to `device` and back at growing sizes (on a machine without a GPU: the reason there are none)."""
        self._job, self._order = TRANSFER, [device]
        self._count = 0
        self.transferView.clear(device)
        self.progressed.emit(0, 0)
        self.deviceBusy.emit(device)
        self.status.emit(self.tr("Timing copies to {device} and back…").format(device=device), False)
        self._start(lambda should_stop, report: measure_transfers(device, None, should_stop, report))

    def _start(self, task) -> None:
        self._tasks.start(task)
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
        if self._dirty and self._job == COMPARE:
            self.compareView.redraw()
        self._dirty = False

    @Slot(object)
    def _on_report(self, report) -> None:
        if isinstance(report, TransferRow):
            self.transferView.add_row(report)
            self._count += 1
            self.progressed.emit(self._count, -1)
        elif isinstance(report, ParallelResult):
            self.parallelView.add_result(report)
            self._count += 1
            self.progressed.emit(self._count, -1)
            self.status.emit(
                self.tr("Data parallel: {workers} workers, {rate} epochs/s…").format(
                    workers=report.workers, rate=f"{report.epochs_per_second:,.0f}"
                ),
                False,
            )
        elif isinstance(report, CompareProgress):
            self.compareView.add_progress(report)
            runs_before = self._order.index(report.device) * len(self._precisions)
            runs_before += self._precisions.index(report.precision) if report.precision in self._precisions else 0
            self.progressed.emit(
                runs_before * self._epochs + report.epochs, self._epochs * len(self._order) * len(self._precisions)
            )
            self.deviceBusy.emit(report.device)
            self._dirty = True
        elif isinstance(report, SweepRow):
            self.sweepView.add_row(report)
            self._count += 1
            self.progressed.emit(self._count, -1)
            self.deviceBusy.emit(report.device)
            self.status.emit(
                self.tr("Sweeping: {device} at {size} took {us} µs a step…").format(
                    device=report.device, size=f"{report.size:,}", us=f"{report.seconds * 1e6:,.1f}"
                ),
                False,
            )

    @Slot(object)
    def _on_done(self, result) -> None:
        self._show(result)
        self.resultReady.emit(result)

    def _show(self, result) -> None:
        if isinstance(result, TransferResult):
            self.transferView.show_result(result)
            self.progressed.emit(1, 1)
            self.status.emit(self.tr("Moving data: {note}").format(note=self.transferView.note.text()), False)
            return
        if self._job == PARALLEL:
            complete = all(r.status == "completed" for r in result) and len(result) == self._most
            workers = max((r.workers for r in result), default=1)
            self.parallelView.finish(complete, uneven_split(self._parallel_config, workers))
            self.progressed.emit(self._count, self._count)
            done = self.tr("Data parallel done: {note}") if complete else self.tr("Data parallel stopped: {note}")
            self.status.emit(done.format(note=self.parallelView.note.text()), False)
            return
        if isinstance(result, StepProfile):
            self.profileView.show_profile(result, self._problem)
            self.progressed.emit(1, 1)
            self.status.emit(
                self.tr("Profiled: {us} µs a step on {device}; see the Step profile tab.").format(
                    us=f"{result.wall_us:,.1f}", device=result.device
                ),
                False,
            )
            return
        if isinstance(result, SweepResult):
            self.sweepView.show_result(result)
            self.progressed.emit(self._count, self._count)
            if result.complete:
                self.status.emit(self.tr("Sweep done: {summary}").format(summary=self.sweepView.headline), False)
            else:
                self.status.emit(self.tr("Sweep stopped: the sizes measured before the stop are in the tab."), False)
            return
        timings: list[DeviceTiming] = result
        self.compareView.show_timings(timings)
        others = [t for t in timings if t.device != "cpu" and t.speedup_vs_cpu is not None]
        failed = [t for t in timings if t.status == FAILED]
        if any(t.status in (NOT_RUN, STOPPED) for t in timings):
            text = self.tr("Comparison stopped: what was measured before the stop is in the table.")
        elif others:
            best = max(others, key=lambda t: t.speedup_vs_cpu)
            text = self.tr("Compared: {device} trains {speedup}× as fast as the CPU.").format(
                device=best.device, speedup=f"{best.speedup_vs_cpu:.2f}"
            )
        else:
            text = self.tr("Compared: the CPU alone was measured ({rate} epochs/s).").format(
                rate=f"{timings[-1].epochs_per_second or 0:,.0f}"
            )
        if failed:
            text += " " + self.tr("Failed on {devices}: see the table.").format(
                devices=", ".join(t.device for t in failed)
            )
        self.status.emit(text, bool(failed))

    @Slot(object)
    def _on_failed(self, message) -> None:
        job = {
            COMPARE: self.tr("comparison"),
            SWEEP: self.tr("sweep"),
            PROFILE: self.tr("profile"),
            PARALLEL: self.tr("data-parallel run"),
            TRANSFER: self.tr("copy timing"),
        }.get(self._job, "")
        self.status.emit(self.tr("The {job} failed: {message}").format(job=job, message=say(message)), True)
