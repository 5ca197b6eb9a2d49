"""The second lesson's measurements, one entry each: what runs to answer a step's question (the tabs' own
measurements, with the lesson's sizes) and how its results are read (core/lessons/guesses.py). A step names its
entry by the key in its "measure" (core/lessons/lesson.py's MEASURES: a test keeps the two the same).

Adding a measurement to the lesson is a step in resources/lesson/gpu_win.json, its reading in
core/lessons/guesses.py, and an entry here.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

from gpudemo.core.lessons import guesses
from gpudemo.core.measure.requests import LINE, MATMUL, STEP, SweepRequest
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import DEFAULT_STEP as EAGER
from gpudemo.core.step.modes import fastest_for
from gpudemo.ui.base.i18n import say
from gpudemo.ui.shell.lesson_course import form_values

TUTORIAL = TrainingConfig()
DOUBLING_SIZE = 1_000_000  # the doubling step's first size (then twice as many)
MATMUL_SIZE = {"cuda": 4096, "cpu": 256}  # the matmul step's n: seconds on each (a CPU's bfloat16 is slow)
MODES_EPOCHS = 2000
DTYPES = ("float32", "bfloat16")  # the bf16 step: its matmul in each
ENERGY_SIZE = 100_000  # the energy step's samples: where a GPU first beat the CPU on an H200 (the crossover's note)
ENERGY_EPOCHS = 200
# An outcome's note, kept as a key and said in the language shown (a switch after measuring follows it).
NO_GPU, STOPPED_NOTE, NO_WIN, DOUBTFUL, UNSEEN = "no_gpu", "stopped", "no_win", "doubtful", "unseen"

Start = Callable[[], None]
Reading = tuple[float | None, dict[str, str], str]  # the figure measured, the explanation's extra fields, a note


@dataclass(frozen=True)
class Here:
    """Where a step measures: the window (its form, its measurements), the device picked and those listed."""

    window: object
    device: str
    devices: list[str]

    @property
    def cuda(self) -> bool:
        return self.device.startswith("cuda")

    def config(self, base: TrainingConfig) -> TrainingConfig:
        """`base` on the device picked; the form shows what is measured."""
        self.window.trainingPanel.set_values(form_values(base))
        return dataclasses.replace(base, device=self.device)

    def backend(self) -> str:
        from gpudemo.core.distributed.launcher import max_workers  # measuring: PyTorch has loaded

        return "nccl" if self.cuda and max_workers("nccl") >= 2 else "gloo"

    def no_gpu(self) -> str:
        return NO_GPU if self.device == "cpu" else ""


def matmul_size(device: str) -> int:
    return MATMUL_SIZE.get(device.split(":")[0], 256)


@dataclass(frozen=True)
class LessonMeasure:
    starts: Callable[[Here], list[Start]]  # the measurements, in order
    read: Callable[[list, Here], Reading]  # their results (one each), read
    size: Callable[[str], int] = matmul_size  # the size the step's words name, on a device


def _crossover(here: Here) -> list[Start]:
    m = here.window.measurements
    return [lambda: m.start_sweep(SweepRequest(STEP, tuple(here.devices), config=here.config(LINE)))]


def _read_crossover(results: list, here: Here) -> Reading:
    measured = guesses.crossover(results[0])
    if not [each for each in here.devices if each != "cpu"]:
        return measured, {}, NO_GPU
    return measured, {}, NO_WIN if measured is None else ""


def _read_busy(results: list, here: Here) -> Reading:
    measured = guesses.busy_percent(results[0])
    return measured, {}, (UNSEEN if measured is None else here.no_gpu())  # MPS: the profiler cannot see it


def _busy(here: Here) -> list[Start]:
    return [lambda: here.window.measurements.start_profile(here.config(TUTORIAL))]


def _doubling(here: Here) -> list[Start]:
    m, sizes = here.window.measurements, (DOUBLING_SIZE, 2 * DOUBLING_SIZE)
    return [
        lambda: m.start_sweep(SweepRequest(STEP, (here.device,), config=here.config(LINE), roofline=True, sizes=sizes))
    ]


def _read_doubling(results: list, here: Here) -> Reading:
    measured, bound = guesses.doubling(results[0], here.device)
    note = DOUBTFUL if guesses.timing_doubtful(results[0], here.device) else here.no_gpu()
    return measured, {"bound": bound or "-"}, note


def _modes(here: Here) -> list[Start]:
    tutorial, steps = dataclasses.replace(TUTORIAL, epochs=MODES_EPOCHS), [EAGER, fastest_for(here.device)]
    return [lambda: here.window.measurements.start_compare(here.config(tutorial), [here.device], steps=steps)]


def _bf16(here: Here) -> list[Start]:
    m, size = here.window.measurements, (matmul_size(here.device),)
    return [
        functools.partial(m.start_sweep, SweepRequest(MATMUL, (here.device,), dtype, LINE, sizes=size))
        for dtype in ("float32", "bfloat16")
    ]


def _pinned(here: Here) -> list[Start]:
    gpus = [each for each in here.devices if each.startswith("cuda")]
    target = here.device if here.cuda else (gpus[0] if gpus else here.device)
    return [lambda: here.window.measurements.start_transfer(target)]


def _read_pinned(results: list, here: Here) -> Reading:
    measured = guesses.pinned_speedup(results[0])
    return measured, {}, NO_GPU if measured is None else ""


def _parallel(here: Here) -> list[Start]:
    """One worker, then two."""
    return [lambda: here.window.measurements.start_parallel(here.config(TUTORIAL), here.backend(), 2)]


def _energy(here: Here) -> list[Start]:
    """The line at the crossover's size on the GPU picked (or the first listed) and the CPU, each run's step then
    metered on its energy counter."""
    line = dataclasses.replace(LINE, samples=ENERGY_SIZE, epochs=ENERGY_EPOCHS)
    devices = [_gpu(here), "cpu"] if _gpu(here) else ["cpu"]
    return [lambda: here.window.measurements.start_compare(here.config(line), devices, energy=True)]


def _gpu(here: Here) -> str | None:
    gpus = [each for each in here.devices if each.startswith("cuda")]
    return here.device if here.cuda else (gpus[0] if gpus else None)


def _read_energy(results: list, here: Here) -> Reading:
    gpu = _gpu(here)
    if gpu is None:
        return None, {}, NO_GPU
    measured = guesses.energy_ratio(results[0], gpu)
    if measured is not None:
        return measured, {}, ""
    reasons = [
        f"{t.device}: {say(t.energy.reason)}"
        for t in results[0]
        if t.energy is not None and t.energy.reason is not None
    ]
    return None, {}, "; ".join(reasons) or NO_GPU


def _read_parallel(results: list, here: Here) -> Reading:
    measured, share = guesses.parallel_speedup(results[0])
    return measured, {"share": "-" if share is None else f"{share:.0%}"}, ""


MEASURES: dict[str, LessonMeasure] = {
    "crossover": LessonMeasure(_crossover, _read_crossover),
    "busy": LessonMeasure(_busy, _read_busy),
    "doubling": LessonMeasure(_doubling, _read_doubling, size=lambda device: DOUBLING_SIZE),
    "modes": LessonMeasure(
        _modes,
        lambda results, here: (guesses.speedup(results[0], here.device, fastest_for(here.device)), {}, here.no_gpu()),
    ),
    "bf16": LessonMeasure(
        _bf16, lambda results, here: (guesses.matmul_speedup(results[0], results[1], here.device), {}, here.no_gpu())
    ),
    "pinned": LessonMeasure(_pinned, _read_pinned),
    "parallel": LessonMeasure(_parallel, _read_parallel),
    "energy": LessonMeasure(_energy, _read_energy, size=lambda device: ENERGY_SIZE),
}
