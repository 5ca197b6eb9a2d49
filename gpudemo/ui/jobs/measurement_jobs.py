"""One job per measurement of the window: compare, sweep, profile, data parallel, copy timing.

Each job says what it runs on the worker thread (`task`), what it shows and says as its reports come
(`report`) and at its end (`done`), and what it is called when it fails (`name`). The runner
(measurements.py) starts one at a time and hands it what the thread sends; it never asks which job it
holds. A job draws into the view it is given, through the session's record of measurements
(core/session/measured.Feed: begin, add, end), and says the view's own sentence in the status line: it
imports no view (the window hands each job its view), only the core's measurement it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QObject

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
from gpudemo.core.measure.requests import SweepRequest
from gpudemo.core.measure.sweep import SweepResult, SweepRow, sweep
from gpudemo.core.measure.transfer import TransferResult, TransferRow, measure_transfers
from gpudemo.core.session.measured import Feed
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import STOPPED
from gpudemo.ui.base.i18n import name_text

Task = Callable[[Callable[[], bool], Callable[[object], None]], object]


class Runner(Protocol):
    """What a job tells the window through its runner (measurements.py's Measurements)."""

    def say(self, text: str, error: bool = False) -> None: ...
    def progress(self, value: int, maximum: int) -> None: ...
    def busy_on(self, device: str) -> None: ...


class MeasurementJob(QObject):
    """A measurement from its start to its end; the subclasses fill in each part."""

    def __init__(self, runner: Runner):
        super().__init__()
        self.runner = runner
        self.count = 0  # reports so far

    def name(self) -> str:
        """The job in a sentence: "The {name} failed: …"."""
        raise NotImplementedError

    def task(self) -> Task:
        """What the worker thread runs: task(should_stop, report) -> the result."""
        raise NotImplementedError

    def report(self, item: object) -> None:
        """One report from the thread, on the GUI thread."""

    def done(self, result: object) -> None:
        """The result, on the GUI thread: shown and said."""

    def redraw(self) -> None:
        """At most REFRESH_MS apart while the job goes: what reports changed, drawn."""

    def _counted(self) -> None:
        self.count += 1
        self.runner.progress(self.count, -1)


class CompareJob(MeasurementJob):
    def __init__(
        self,
        runner: Runner,
        feed: Feed,
        config: TrainingConfig,
        devices: Sequence[str],
        precisions: Sequence[str] | None,
        steps: Sequence[str] | None,
        energy: bool = False,
    ):
        super().__init__(runner)
        self.feed, self.config, self.devices, self.steps, self.energy = feed, config, devices, steps, energy
        self.order = devices_to_compare(devices)
        self.precisions = list(precisions or [config.precision])  # each device runs in each, in this order
        self.dirty = False
        feed.begin()
        runner.progress(0, config.epochs * len(self.order) * len(self.precisions))
        said = self.tr("Comparing {devices}: {epochs} epochs on each, after a warm-up…").format(
            devices=", ".join(self.order), epochs=f"{config.epochs:,}"
        )
        if energy:
            said += " " + self.tr("Then each run's step is metered for energy where the device can be (5 s each).")
        runner.say(said)

    def name(self) -> str:
        return self.tr("comparison")

    def task(self) -> Task:
        config, devices, precisions, steps, energy = self.config, self.devices, self.precisions, self.steps, self.energy
        return lambda should_stop, report: compare_devices(
            config, devices, should_stop, report, precisions, steps, energy=energy
        )

    def report(self, item: CompareProgress) -> None:
        self.feed.add(item)
        epochs = self.config.epochs
        runs_before = self.order.index(item.device) * len(self.precisions)
        runs_before += self.precisions.index(item.precision) if item.precision in self.precisions else 0
        self.runner.progress(runs_before * epochs + item.epochs, epochs * len(self.order) * len(self.precisions))
        self.runner.busy_on(item.device)
        self.dirty = True

    def redraw(self) -> None:
        if self.dirty:
            self.feed.view.redraw()
        self.dirty = False

    def done(self, timings: list[DeviceTiming]) -> None:
        self.feed.end(timings)
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
        self.runner.say(text, bool(failed))


class SweepJob(MeasurementJob):
    def __init__(self, runner: Runner, feed: Feed, request: SweepRequest):
        super().__init__(runner)
        self.feed, self.request = feed, request
        order = devices_to_compare(request.devices)
        feed.begin(request)
        runner.progress(0, len(request.sizes_to_time()) * len(order))
        said = self.tr("Sweeping {kind} in {dtype} on {devices}…").format(
            kind=request.kind, dtype=request.dtype, devices=", ".join(order)
        )
        if request.metered:
            said += " " + self.tr("Each size's energy is metered too where a device can be (5 s a size).")
        runner.say(said)

    def name(self) -> str:
        return self.tr("sweep")

    def task(self) -> Task:
        request = self.request
        return lambda should_stop, report: sweep(request, should_stop, report)

    def report(self, row: SweepRow) -> None:
        self.feed.add(row)
        self._counted()
        self.runner.busy_on(row.device)
        self.runner.say(
            self.tr("Sweeping: {device} at {size} took {us} µs a step…").format(
                device=row.device, size=f"{row.size:,}", us=f"{row.seconds * 1e6:,.1f}"
            )
        )

    def done(self, result: SweepResult) -> None:
        headline = self.feed.end(result, self.request.config.step)
        self.runner.progress(self.count, self.count)
        if result.complete:
            self.runner.say(self.tr("Sweep done: {summary}").format(summary=headline))
        else:
            self.runner.say(self.tr("Sweep stopped: the sizes measured before the stop are in the tab."))


class ProfileJob(MeasurementJob):
    def __init__(self, runner: Runner, feed: Feed, config: TrainingConfig):
        super().__init__(runner)
        self.feed, self.config = feed, config
        self.problem = name_text(config.problem)
        feed.begin()
        runner.progress(0, 0)  # busy: a profile says nothing until it is done
        runner.busy_on(config.device)
        runner.say(
            self.tr("Profiling a step of {problem} on {device} under torch.profiler…").format(
                problem=self.problem, device=config.device
            )
        )

    def name(self) -> str:
        return self.tr("profile")

    def task(self) -> Task:
        config = self.config
        return lambda should_stop, report: profile_steps(config)

    def done(self, profile: StepProfile) -> None:
        self.feed.end(profile, self.problem)
        self.runner.progress(1, 1)
        self.runner.say(
            self.tr("Profiled: {us} µs a step on {device}; see the Step profile tab.").format(
                us=f"{profile.wall_us:,.1f}", device=profile.device
            )
        )


class ParallelJob(MeasurementJob):
    """The run on 1, 2, ... `most` workers in turn (processes; their devices: `backend`'s)."""

    def __init__(self, runner: Runner, feed: Feed, config: TrainingConfig, backend: str, most: int):
        super().__init__(runner)
        self.feed, self.config, self.backend, self.most = feed, config, backend, most
        feed.begin(backend, most)
        runner.progress(0, most)
        runner.say(
            self.tr("Data parallel: {problem} on 1 to {most} workers ({backend}), in turn…").format(
                problem=name_text(config.problem), most=most, backend=backend
            )
        )

    def name(self) -> str:
        return self.tr("data-parallel run")

    def task(self) -> Task:
        config, counts, backend = self.config, list(range(1, self.most + 1)), self.backend
        return lambda should_stop, report: scaling(config, counts, backend, should_stop, report)

    def report(self, result: ParallelResult) -> None:
        self.feed.add(result)
        self._counted()
        self.runner.say(
            self.tr("Data parallel: {workers} workers, {rate} epochs/s…").format(
                workers=result.workers, rate=f"{result.epochs_per_second:,.0f}"
            )
        )

    def done(self, results: list[ParallelResult]) -> None:
        complete = all(r.status == "completed" for r in results) and len(results) == self.most
        workers = max((r.workers for r in results), default=1)
        note = self.feed.end(complete, uneven_split(self.config, workers))
        self.runner.progress(self.count, self.count)
        done = self.tr("Data parallel done: {note}") if complete else self.tr("Data parallel stopped: {note}")
        self.runner.say(done.format(note=note))


class TransferJob(MeasurementJob):
    """Copies to `device` and back at growing sizes (on a machine without a GPU: the reason there are none)."""

    def __init__(self, runner: Runner, feed: Feed, device: str):
        super().__init__(runner)
        self.feed, self.device = feed, device
        feed.begin(device)
        runner.progress(0, 0)
        runner.busy_on(device)
        runner.say(self.tr("Timing copies to {device} and back…").format(device=device))

    def name(self) -> str:
        return self.tr("copy timing")

    def task(self) -> Task:
        device = self.device
        return lambda should_stop, report: measure_transfers(device, None, should_stop, report)

    def report(self, row: TransferRow) -> None:
        self.feed.add(row)
        self._counted()

    def done(self, result: TransferResult) -> None:
        note = self.feed.end(result)
        self.runner.progress(1, 1)
        self.runner.say(self.tr("Moving data: {note}").format(note=note))
