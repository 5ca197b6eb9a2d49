"""The same run on several devices in turn, timed fairly, the CPU always among them as the baseline.

Fair means: the same configuration, seed and data on each device (the data is made on
the CPU and moved, so the final losses agree across devices: a minibatch run's shuffles
are drawn on each device and differ), an untimed warm-up on it first, and the clock read
only after the device has finished its queued work (the training loop synchronises
before it starts the clock; the last read-back of the losses waits for the device).

The warm-up runs the same settings for at least WARM_UP_SECONDS: kernels load, caches
fill, a GPU's clocks rise from idle and its allocator's cache fills with the blocks the
timed run will ask for (kept between the two runs, handed back after the timed one).
A fixed number of epochs would not do: 20 of the tutorial's take 2 ms on a GPU.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from gpudemo.core.base.control import never
from gpudemo.core.base.errors import RunRefused, TrainingError
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message
from gpudemo.core.hardware.devices import release_cache
from gpudemo.core.measure.joules import RunEnergy, run_energy
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import precision
from gpudemo.core.step.modes import MODES, check
from gpudemo.core.step.step import EAGER
from gpudemo.core.training import COMPLETED, FAILED, STOPPED, LoopOptions, LossBatch, train

WARM_UP_SECONDS = 0.2
# What an fp16 row's rate carries that the others do not: on a small, host-bound step it is the cost.
FP16_NOTE = Message(
    QT_TRANSLATE_NOOP(
        "core",
        "fp16's GradScaler reads one value back from the device every step (did a gradient overflow?): a host"
        " sync that a small step pays for, not fp16 arithmetic",
    )
)
# What a compiled row beside an eager one carries: the two are not expected to give the same last digits.
COMPILED_NOTE = Message(
    QT_TRANSLATE_NOOP(
        "core",
        "compiled fuses operations and adds in another order: its first epochs agree with eager's to about 1e-6,"
        " but a run that amplifies small differences (Adam with minibatches, bf16) can end visibly apart. The"
        " same arithmetic, rounded differently: not another model",
    )
)
NOT_RUN = "not run"  # stopped before its turn
REFUSED = "refused"  # a precision or step mode this device cannot do: not run, with the reason (not a failure)


@dataclass(frozen=True)
class CompareProgress:
    """A batch of one device's run, as the window draws it: loss against wall-clock seconds."""

    device: str
    epochs: int  # of this device's run so far
    total: int
    seconds: float
    loss: float
    precision: str = "fp32"
    step: str = EAGER

    @property
    def label(self) -> str:
        """As DeviceTiming.label."""
        return label(self.device, self.precision, self.step)


def label(device: str, kind: str, step: str) -> str:
    """The device, and its precision and step mode where they are not the defaults: 'cuda:0 · bf16 · graph'."""
    return " · ".join([device, *([kind] if kind != "fp32" else []), *([step] if MODES[step].prepares else [])])


@dataclass(frozen=True)
class DeviceTiming:
    device: str
    status: str  # completed, stopped, diverged, failed, refused or not run
    epochs_per_second: float | None = None
    seconds: float | None = None
    final_loss: float | None = None
    speedup_vs_cpu: float | None = None
    busy: bool = False  # other processes took cores its threads needed while it was timed
    message: Message | None = None  # why it failed or was refused (str() for English)
    curve: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))  # (seconds, loss) at each read-back
    precision: str = "fp32"
    step: str = EAGER
    energy: RunEnergy | None = None  # asked for: core/measure/joules.py's (joules per epoch, or why not)

    @property
    def label(self) -> str:
        """The device, and its precision and step mode where they are not the defaults: 'cuda:0 · bf16 · graph'."""
        return label(self.device, self.precision, self.step)

    def to_json(self) -> dict:
        def finite(value):
            return value if value is not None and np.isfinite(value) else None

        return {
            "device": self.device,
            "precision": self.precision,
            "step": self.step,
            "status": self.status,
            "epochs_per_second": self.epochs_per_second,
            "seconds": self.seconds,
            "final_loss": finite(self.final_loss),
            "speedup_vs_cpu": self.speedup_vs_cpu,
            "busy": self.busy,
            "message": None if self.message is None else str(self.message),
            "energy": None if self.energy is None else self.energy.to_json(),
        }


def devices_to_compare(devices: Sequence[str]) -> list[str]:
    """The devices in the order given, each once, with the CPU added where it is missing."""
    ordered = list(dict.fromkeys(devices))
    return ordered if "cpu" in ordered else [*ordered, "cpu"]


def check_compare(
    config: TrainingConfig, devices: Sequence[str], precisions: Sequence[str] | None, steps: Sequence[str] | None
) -> None:
    """Refuse, before anything runs, a comparison of which no run could start (RunRefused, the first
    reason): as a single run is refused. One that some devices can take runs, the others shown refused."""
    refusals = []
    combinations = 0
    for device in devices_to_compare(devices):
        for kind in precisions or [config.precision]:
            for step in steps or [config.step]:
                combinations += 1
                try:
                    check(dataclasses.replace(config, device=device, precision=kind, step=step))
                except RunRefused as refused:
                    refusals.append(refused)
    if refusals and len(refusals) == combinations:
        raise refusals[0]


def compare_devices(
    config: TrainingConfig,
    devices: Sequence[str],
    should_stop: Callable[[], bool] = never,
    on_progress: Callable[[CompareProgress], None] | None = None,
    precisions: Sequence[str] | None = None,
    steps: Sequence[str] | None = None,
    energy: bool = False,
) -> list[DeviceTiming]:
    """Run `config` on each device in turn; one DeviceTiming per device, the speedups against the CPU's.

    With `precisions` and `steps` (step modes), each device runs in each of them, side by side (what
    a device cannot do is a REFUSED entry with the reason); the speedups are against the CPU in the
    first precision and the first step mode it could run. With `energy`, each completed run's step is then
    metered on its device's energy counter (core/measure/joules.py: seconds more each), or says why not."""
    timings: list[DeviceTiming] = []
    for device in devices_to_compare(devices):
        for kind in precisions or [config.precision]:
            for step in steps or [config.step]:
                if should_stop():
                    timings.append(DeviceTiming(device, NOT_RUN, precision=kind, step=step))
                    continue
                one = dataclasses.replace(config, device=device, precision=kind, step=step)
                try:
                    check(one)
                except RunRefused as refused:
                    timings.append(DeviceTiming(device, REFUSED, message=refused.message, precision=kind, step=step))
                    continue
                timing = _time_one(one, should_stop, on_progress)
                if energy and timing.status == COMPLETED and not should_stop():
                    timing = dataclasses.replace(timing, energy=run_energy(one, True, should_stop))
                if kind == precision.FP16 and timing.message is None:
                    timing = dataclasses.replace(timing, message=FP16_NOTE)
                timings.append(timing)
    if any(not MODES[t.step].prepares and t.status != REFUSED for t in timings):
        timings = [
            dataclasses.replace(t, message=COMPILED_NOTE)
            if MODES[t.step].compiles and t.status in (COMPLETED, STOPPED) and t.message is None
            else t
            for t in timings
        ]
    first = (precisions or [config.precision])[0]
    cpu = next(
        (t for t in timings if t.device == "cpu" and t.precision == first and t.status != REFUSED),
        next(t for t in timings if t.device == "cpu"),
    )
    base = cpu.epochs_per_second if cpu.status in (COMPLETED, STOPPED) else None
    return [
        dataclasses.replace(t, speedup_vs_cpu=t.epochs_per_second / base)
        if base and t.epochs_per_second is not None
        else t
        for t in timings
    ]


def warm_up_for(
    config: TrainingConfig, should_stop: Callable[[], bool] = never, seconds: float = WARM_UP_SECONDS
) -> int:
    """Run `config` untimed for at least `seconds` (whole runs, the last one cut short), keeping a
    GPU's allocator cache for the timed run that follows; the epochs it ran."""
    deadline = time.perf_counter() + seconds
    epochs = 0

    def enough() -> bool:
        return should_stop() or time.perf_counter() >= deadline

    while not enough():
        epochs += train(config, LoopOptions(should_stop=enough, keep_cache=True)).epochs_run
    return epochs


def _time_one(
    config: TrainingConfig, should_stop: Callable[[], bool], on_progress: Callable[[CompareProgress], None] | None
) -> DeviceTiming:
    times: list[float] = []
    losses: list[float] = []

    def on_batch(batch: LossBatch) -> None:
        times.append(batch.seconds)
        losses.append(float(batch.losses[-1]))
        if on_progress is not None:
            on_progress(
                CompareProgress(
                    config.device,
                    batch.last_epoch,
                    config.epochs,
                    batch.seconds,
                    losses[-1],
                    config.precision,
                    config.step,
                )
            )

    try:
        warm_up_for(config, should_stop)
        result = train(
            config, LoopOptions(should_stop=should_stop), on_batch=on_batch
        )  # marks a CPU run timed while others took cores
    except TrainingError as error:
        return DeviceTiming(config.device, FAILED, message=error.message, precision=config.precision, step=config.step)
    finally:
        release_cache(config.device)  # the cache the warm-up filled for the timed run
    return DeviceTiming(
        config.device,
        result.status,
        result.epochs_per_second,
        result.seconds,
        result.final_loss,
        curve=(np.array(times), np.array(losses)),
        busy=result.busy,
        precision=config.precision,
        step=config.step,
    )
