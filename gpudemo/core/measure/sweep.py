"""Where a GPU overtakes the CPU: time per step on each device as the problem grows.

Two kinds of work, each at sizes on a log scale:
- `step`: one full-batch training step of a problem (by default the line: nn.Linear(1, 1), MSE,
  SGD) on N samples, 10 to 10,000,000, with the problem's model, loss and optimizer: at small
  N a step is a handful of tiny kernels whose launch costs more than their arithmetic, at
  large N the arithmetic wins. Throughput: samples per second. The tutorial's step is the
  line's (the same model, any number of points); the digits' N samples repeat its images.
- `matmul`: an n x n matrix product, n from 16 up: throughput in GFLOP/s (2n^3 per product).

Each figure is the median of several timings, each over enough repeats to last a few
milliseconds, with the device synchronised before every clock read. A device stops
growing when the next size would not fit in its free memory or one step already takes
longer than STEP_CAP_S.

Precisions: `float32` is full float32 arithmetic, TF32 off (PyTorch's default for
matmuls; on an Ampere or newer GPU it runs on the general cores, not the tensor cores);
`tf32` keeps float32 data but lets CUDA matmuls round their inputs to TF32 on the tensor
cores (no effect on the CPU); `bfloat16` stores and multiplies in bfloat16.

A CPU figure under 25 ms is also timed on one thread: when all threads are much
slower than one, another process took a core and torch's threads waited for it at every
operator (see core/hardware/busy.py). Such a row is marked `busy`, its one-thread time beside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import torch

from gpudemo.core.base.control import never
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.hardware.busy import contended
from gpudemo.core.hardware.devices import free_bytes, release_cache, synchronize
from gpudemo.core.hardware.energy import EnergyPerEpoch, EnergyUnavailable, Meter, measure
from gpudemo.core.measure.joules import BATCH_S, meter_of
from gpudemo.core.measure.requests import LINE, MATMUL, MATMUL_SIZES, STEP, STEP_SIZES, SweepRequest
from gpudemo.core.measure.roofline import Peak, Work, count_work, matmul_work, peak_for
from gpudemo.core.measure.timing import median_seconds
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import SteppedRun, StepRefused, Stopped, mode_of, refuse
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.step.precision import STORAGE, matmul_precision
from gpudemo.core.step.step import EAGER, Step
from gpudemo.core.training.budget import estimate

__all__ = ["LINE", "MATMUL", "MATMUL_SIZES", "STEP", "STEP_SIZES", "SweepRequest", "SweepResult", "SweepRow", "sweep"]
ONE_THREAD_BELOW_S = 0.025  # CPU steps shorter than this are timed on one thread too (a busy 10 us op took 16 ms)
STEP_CAP_S = 0.25  # a device stops growing once a step takes this long
TIMING_S = 0.01  # each timing lasts at least this long (repeats of the step)
TIMINGS = 5


@dataclass(frozen=True)
class SweepRow:
    device: str
    size: int
    seconds: float  # median time per step
    throughput: float  # samples/s (step) or GFLOP/s (matmul)
    one_thread_seconds: float | None = None  # the CPU's short steps, timed on one thread as well
    busy: bool = False  # the CPU's threads waited for each other: another process took a core
    work: Work | None = None  # counted for a roofline: the step's FLOPs and bytes moved
    step: str = EAGER  # how the step was launched (a device that cannot capture a graph runs eager)
    energy: EnergyPerEpoch | None = None  # asked for (a step sweep): its joules per epoch, metered at this size

    @property
    def flops_per_second(self) -> float | None:
        return self.work.flops / self.seconds if self.work is not None else None

    @property
    def bytes_per_second(self) -> float | None:
        return self.work.bytes / self.seconds if self.work is not None else None

    def to_json(self, kind: str) -> dict:
        unit = "samples_per_second" if kind == STEP else "gflops"
        row = {
            "device": self.device,
            "size": self.size,
            "seconds": self.seconds,
            unit: self.throughput,
            "one_thread_seconds": self.one_thread_seconds,
            "busy": self.busy,
            "step": self.step,
        }
        if self.energy is not None:
            row.update(
                joules_per_epoch=self.energy.joules_per_epoch,
                above_idle_joules_per_epoch=self.energy.above_idle_per_epoch,
                idle_watts=self.energy.idle_watts,
                energy_source=self.energy.source,
            )
        if self.work is not None:
            row.update(
                flops=self.work.flops,
                bytes=self.work.bytes,
                flops_per_second=self.flops_per_second,
                bytes_per_second=self.bytes_per_second,
            )
        return row


@dataclass(frozen=True)
class SweepResult:
    kind: str
    dtype: str
    rows: list[SweepRow] = field(default_factory=list)
    complete: bool = True  # False when stopped
    peaks: dict[str, Peak] = field(default_factory=dict)  # for a roofline: each device's limits
    metered: bool = False  # energy was asked for: each size's joules per epoch, where a device has a counter
    not_metered: dict[str, Message] = field(default_factory=dict)  # asked for: why a device was not metered

    @property
    def crossover(self) -> dict[str, int | None]:
        """For each device but the CPU: the smallest size at which it beats the CPU (None: nowhere)."""
        cpu = {row.size: row.seconds for row in self.rows if row.device == "cpu"}
        found: dict[str, int | None] = {}
        for row in sorted(self.rows, key=lambda r: r.size):
            if row.device == "cpu":
                continue
            found.setdefault(row.device, None)
            if found[row.device] is None and row.size in cpu and row.seconds < cpu[row.size]:
                found[row.device] = row.size
        return found

    @property
    def energy_crossover(self) -> dict[str, int | None]:
        """For each metered device but the CPU: the smallest size at which an epoch takes it fewer joules than
        the CPU's (idle power included: what the machine draws); None: nowhere measured."""
        cpu = {row.size: row.energy.joules_per_epoch for row in self.rows if row.device == "cpu" and row.energy}
        found: dict[str, int | None] = {}
        if not cpu:
            return found
        for row in sorted(self.rows, key=lambda r: r.size):
            if row.device == "cpu" or row.energy is None:
                continue
            found.setdefault(row.device, None)
            if found[row.device] is None and row.size in cpu and row.energy.joules_per_epoch < cpu[row.size]:
                found[row.device] = row.size
        return found

    @property
    def busy(self) -> bool:
        """Whether any CPU figure was taken while another process held a core."""
        return any(row.busy for row in self.rows)

    def to_json(self) -> dict:
        data = {
            "kind": self.kind,
            "dtype": self.dtype,
            "rows": [row.to_json(self.kind) for row in self.rows],
            "crossover": self.crossover,
            "complete": self.complete,
            "busy": self.busy,
        }
        if self.peaks:
            data["peaks"] = {device: peak.to_json() for device, peak in self.peaks.items()}
        if self.metered:
            data["energy_crossover"] = self.energy_crossover
            data["energy_not_metered"] = {device: str(reason) for device, reason in self.not_metered.items()}
        return data


@contextmanager
def one_thread() -> Iterator[None]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _time(step: Callable[[], object], device: torch.device) -> tuple[float, float | None]:
    """(median seconds per step, and on the CPU for a short step, the same on one thread)."""
    seconds = median_seconds(step, lambda: synchronize(device), TIMING_S, TIMINGS, STEP_CAP_S)
    if device.type != "cpu" or torch.get_num_threads() == 1 or seconds >= ONE_THREAD_BELOW_S:
        return seconds, None
    with one_thread():
        return seconds, median_seconds(step, lambda: synchronize(device), TIMING_S, TIMINGS, STEP_CAP_S)


def sized(config: TrainingConfig, size: int) -> TrainingConfig:
    """`config` with `size` samples, full batch; the tutorial's model on `size` points is the line's."""
    problem = "line" if config.problem == "tutorial" else config.problem
    return replace(config, problem=problem, samples=size, batch_size=0)


def _samples(config: TrainingConfig, size: int) -> tuple[torch.Tensor, torch.Tensor]:
    """`size` samples of the problem, on the CPU: its own data, or (digits) its images repeated."""
    problem = problem_for(config)
    x, y = problem.make_data(config, torch.Generator().manual_seed(config.seed))
    if len(y) != size:
        repeat = torch.arange(size) % len(y)
        x, y = x[repeat], y[repeat]
    return x, y


def check_sweep(kind: str, config: TrainingConfig, devices: Sequence[str]) -> None:
    """Refuse, before a sweep starts, a step mode it could not measure as asked (StepRefused): a step mode
    for a matmul (which times a product, not a step), or one that no device of the sweep can take (the
    graph step where no GPU is swept). Where only the CPU cannot, it runs eager beside the others: see
    `step_mode` and `SweepResult.fell_back`."""
    if kind == MATMUL and mode_of(config).prepares:
        raise StepRefused(
            message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "a matmul sweep times one matrix product, not a training step: a step mode ({step}) is for"
                    " the step sweep",
                ),
                step=config.step,
            )
        )
    refusals = []
    swept = list(dict.fromkeys([*devices, "cpu"]))
    for device in swept:
        try:
            refuse(sized(replace(config, device=device), 10))
        except StepRefused as refused:
            refusals.append(refused)
    if refusals and len(refusals) == len(swept):
        raise refusals[0]


def step_mode(config: TrainingConfig) -> str:
    """The mode `config`'s device runs the sweep's step in: the one asked, or eager where a graph cannot be
    captured (the CPU's, beside a GPU's graph)."""
    try:
        refuse(config)
    except StepRefused:
        return EAGER
    return config.step


def _training_step(
    config: TrainingConfig, device: torch.device, dtype: torch.dtype
) -> tuple[Callable[[], object], int]:
    """A full-batch step of `config` stored in `dtype`, launched in its mode: (what to time, steps per call).
    Prepared before it is handed back as its mode prepares a run's (core/step/modes.py: a compiled step warmed
    until nothing compiles, a graph captured); a graph's call replays its largest number of epochs."""
    problem = problem_for(config)
    torch.manual_seed(config.seed)
    model = problem.make_model(config).to(device, dtype)
    x, y = _samples(config, config.samples)
    x = x.to(device, dtype)
    y = y.to(device) if problem.classes else y.to(device, dtype)
    criterion = problem.make_loss()
    mode = mode_of(config)
    optimizer = OPTIMIZERS[config.optimizer].make(model.parameters(), config.lr, capturable=mode.captures)
    # The storage dtype is the sweep's: the step itself runs without autocast.
    step = Step(model, criterion, optimizer, replace(config, precision="fp32"), device, capture=mode.captures)
    run = _SweptRun(config, step, x, y, device)
    mode.prepare(run, with_path=False)
    per_call = run.captured.largest if run.captured is not None else 1
    return (lambda: mode.advance(run, per_call)), per_call


class _SweptRun(SteppedRun):
    """The sweep's full-batch step as a mode's prepare and advance take a run (core/step/modes.SteppedRun, which a
    training run's PreparedRun is too): its data, step and device; no classes counted, no stop between
    compiles, no path."""

    classes, hits, captured = 0, None, None

    def __init__(self, config: TrainingConfig, step: Step, x: torch.Tensor, y: torch.Tensor, device: torch.device):
        self.config, self.step, self.train_step, self.device = config, step, step.take, device
        self.x_train, self.y_train = x, y
        self.samples = self.batch = len(y)

    @staticmethod
    def should_stop() -> bool:
        return False

    def epoch(self) -> torch.Tensor:
        return self.train_step(self.x_train, self.y_train)[1]


def _matmul(size: int, device: torch.device, dtype: torch.dtype) -> Callable[[], object]:
    generator = torch.Generator(device=device).manual_seed(0)
    a = torch.randn(size, size, generator=generator, device=device).to(dtype)
    b = torch.randn(size, size, generator=generator, device=device).to(dtype)
    return lambda: torch.mm(a, b)


def _bytes_needed(kind: str, size: int, dtype: torch.dtype, config: TrainingConfig) -> int:
    if kind == MATMUL:
        return 3 * size * size * dtype.itemsize
    need = estimate(config)
    return need.total * max(1, size // problem_for(config).samples(config))  # digits: its images repeated


def sweep(
    request: SweepRequest = SweepRequest(),  # noqa: B008  (frozen: one default shared is one value)
    should_stop: Callable[[], bool] = never,
    on_row: Callable[[SweepRow], None] | None = None,
) -> SweepResult:
    """Time what `request` asks, size by size, every device at each (the plot fills evenly from the left), a
    device no longer grown once a size does not fit its free memory or a step takes STEP_CAP_S; each row to
    `on_row` as it is timed. A stop (before any size, or while a step is metered) ends it incomplete."""
    meters, not_metered = _meters(request.every_device(), request.metered)
    rows: list[SweepRow] = []

    def ended(complete: bool, peaks=None) -> SweepResult:
        return SweepResult(request.kind, request.dtype, rows, complete, peaks or {}, request.metered, not_metered)

    growing = dict.fromkeys(request.every_device(), True)
    for size in request.sizes_to_time():
        for device in growing:
            if should_stop():
                return ended(False)
            if not growing[device]:
                continue
            try:
                row, unmetered = _time_size(request, device, size, meters, should_stop)
            except Stopped:  # while the step was metered
                return ended(False)
            if unmetered is not None:  # its counter stopped answering: no more metering there
                not_metered[device] = unmetered
                meters.pop(device)
            if row is None:  # out of memory, or a dtype the device lacks
                growing[device] = False
                continue
            rows.append(row)
            if on_row is not None:
                on_row(row)
            growing[device] = row.seconds < STEP_CAP_S
    if not request.roofline:
        return ended(True)
    peaks = {}
    for device in dict.fromkeys(row.device for row in rows):
        if should_stop():
            return ended(False, peaks)
        try:
            with matmul_precision(request.dtype):
                peaks[device] = peak_for(device, request.dtype)
        except (RuntimeError, MemoryError):  # no room for the measuring: no roof for this device
            continue
        finally:
            release_cache(torch.device(device))
    return ended(True, peaks)


def _time_size(
    request: SweepRequest, device: str, size: int, meters: dict[str, Meter], should_stop: Callable[[], bool]
) -> tuple[SweepRow | None, Message | None]:
    """One size on one device, timed (and metered where its meter is): its row (None where it does not fit
    the device's free memory or the device cannot run it), and why its meter stopped answering, if it did."""
    kind, torch_dtype = request.kind, STORAGE[request.dtype]
    step_config = sized(replace(request.config, device=device), size)
    step_config = replace(step_config, step=step_mode(step_config))
    free = free_bytes(device)
    if free is not None and _bytes_needed(kind, size, torch_dtype, step_config) > free:
        return None, None
    torch_device = torch.device(device)
    energy, unmetered = None, None
    try:
        with matmul_precision(request.dtype):
            work, per_call = None, 1
            if request.roofline:  # counted op by op: the same arithmetic in every mode
                eager = replace(step_config, step=EAGER)
                work = (
                    count_work(_training_step(eager, torch_device, torch_dtype)[0])
                    if kind == STEP
                    else matmul_work(size, torch_dtype)
                )
            if kind == STEP:
                step, per_call = _training_step(step_config, torch_device, torch_dtype)
            else:
                step = _matmul(size, torch_device, torch_dtype)
            seconds, one = _time(step, torch_device)
            seconds, one = seconds / per_call, one / per_call if one is not None else None
            throughput = size / seconds if kind == STEP else 2 * size**3 / seconds / 1e9
            row = SweepRow(
                device, size, seconds, throughput, one, one is not None and contended(seconds, one), work,
                step_config.step if kind == STEP else EAGER, None,
            )  # fmt: skip
            if device in meters:
                try:
                    energy = _metered(meters[device], step, per_call, torch_device, should_stop)
                except EnergyUnavailable as unavailable:
                    unmetered = unavailable.message
            del step
    except (RuntimeError, MemoryError):
        return None, None
    finally:
        release_cache(torch_device)
    return replace(row, energy=energy), unmetered


def _meters(devices, metered: bool) -> tuple[dict[str, Meter], dict[str, Message]]:
    """Each device's energy counter, and why a device has none (nothing when energy was not asked for)."""
    meters, not_metered = {}, {}
    for device in devices if metered else ():
        try:
            meters[device] = meter_of(device)
        except EnergyUnavailable as unavailable:
            not_metered[device] = unavailable.message
    return meters, not_metered


def _metered(
    meter: Meter, step: Callable[[], object], per_call: int, device: torch.device, should_stop: Callable[[], bool]
) -> EnergyPerEpoch:
    """Joules per epoch of the swept step: run in batches of about BATCH_S (the device synchronised at each
    batch's end) until the counter's window is long enough, after the idle power (core/hardware/energy.py)."""
    calls = [1]

    def work() -> int:
        began = time.perf_counter()
        for _ in range(calls[0]):
            if should_stop():
                raise Stopped
            step()
        synchronize(device)
        took = time.perf_counter() - began
        done = calls[0] * per_call
        calls[0] = max(1, int(calls[0] * min(10.0, BATCH_S / took))) if took > 0 else calls[0] * 10
        return done

    return measure(meter, work)
