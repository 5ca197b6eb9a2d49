"""Where a training step's time goes: a few steps of a run under torch.profiler.

Honest timing, shown: `cpu_us` is what a clock read without `torch.cuda.synchronize()` gives
(the CPU has queued the step, the GPU may not have run it), `wall_us` the same steps with the
device waited for; several public GPU-against-CPU demos time the first way and overstate the GPU.

Three readings per step, on the run's own device:
- cpu_us: the host's time to issue one step (Python, PyTorch's dispatch, the launches),
  timed without the profiler, the device not waited for;
- device_us: the time the device's kernels computed. On a GPU, the GPU's kernel time; on
  the CPU, the time inside ATen's operators themselves (the arithmetic, and each one's
  fixed setup), the rest being Python and dispatch;
- kernels: kernels run per step (GPU kernel launches; on the CPU, ATen operator calls).
At 3 samples the arithmetic takes microseconds and the issuing takes a hundred: a GPU
cannot help. At a million samples the arithmetic dominates, and that is what it is for.

The operations table holds ATen's operators only: on a GPU the profiler also lists each
kernel, memcpy and memset (the operators' own device time, again) and the CUDA runtime's
calls. Kernels, copies and sets count once in the device time; user-annotation ranges
(which span kernels already counted) not at all; and the runtime's synchronising calls
(cudaDeviceSynchronize and kin) are the host waiting for the device: shown apart as
waiting, never as work.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from gpudemo.core.base.errors import RunRefused
from gpudemo.core.hardware.devices import synchronize
from gpudemo.core.measure.timeline import STEP_LABEL, Timeline, from_events
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import STEP_KEYS
from gpudemo.core.step.modes import check
from gpudemo.core.step.step import EAGER
from gpudemo.core.training import not_prepared, prepared

WARM_UP_STEPS = 5
STEPS = 20
TOP = 12
ARITHMETIC_US = 10.0  # a CPU operator that takes less than this on average is mostly its fixed cost
COMPILED_REGION = "Torch-Compiled Region"  # the profiler's range around each call of a compiled graph
BUSY_SHARE = 0.5  # a GPU busy less than this share of the step waits on the host

HOST_BOUND = "host"  # the step's time goes to issuing work: a faster device cannot help
DEVICE_BOUND = "device"  # the step's time goes to arithmetic: a faster device helps


@dataclass(frozen=True)
class OpTiming:
    name: str
    calls: float  # per step
    cpu_us: float  # its own host time per step (not its children's)
    device_us: float  # its kernels' device time per step (on the CPU: its own time, when it is an ATen kernel)


@dataclass(frozen=True)
class StepProfile:
    device: str
    steps: int
    cpu_us: float  # the host's time to issue one step
    wall_us: float  # one step from start to the device done
    device_us: float  # the device's kernels' time in one step
    kernels: float  # kernels run per step
    ops: tuple[OpTiming, ...]  # the costliest operations first
    on_gpu: bool = False
    waiting_us: float = 0.0  # the host blocked in the runtime's synchronising calls, per step
    timeline: Timeline | None = None  # the middle profiled step, host and device against time
    step: str = EAGER  # the step mode profiled
    launches: float = 0.0  # the host's launches per step (a graph's replay is one for all its epochs' kernels)
    regions: float = 0.0  # torch.compile's compiled regions entered per step (one graph: 1; eager: 0)
    graph_breaks: int | None = None  # the breaks dynamo made compiling the step (None: nothing compiled)

    @property
    def host_us_per_launch(self) -> float:
        return self.cpu_us / self.launches if self.launches else 0.0

    @property
    def per_kernel_us(self) -> float:
        return self.device_us / self.kernels if self.kernels else 0.0

    @property
    def busy_share(self) -> float:
        """The share of a step the device's kernels computed."""
        return min(1.0, self.device_us / self.wall_us) if self.wall_us > 0 else 0.0

    @property
    def bound(self) -> str:
        """HOST_BOUND or DEVICE_BOUND: on a GPU by how busy it is; on the CPU by the time an operator takes."""
        if self.on_gpu:
            return DEVICE_BOUND if self.busy_share >= BUSY_SHARE else HOST_BOUND
        return DEVICE_BOUND if self.per_kernel_us >= ARITHMETIC_US else HOST_BOUND

    @property
    def overstated(self) -> float:
        """How many times too fast a clock read without synchronising says the step is: the CPU had
        only queued the work (1 on the CPU, where an operator returns when it is done)."""
        return self.wall_us / self.cpu_us if self.cpu_us > 0 else 1.0

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "step": self.step,
            "steps": self.steps,
            "timing": {"without_sync_us": self.cpu_us, "with_sync_us": self.wall_us, "overstated": self.overstated},
            "per_step": {
                "cpu_us": self.cpu_us,
                "device_us": self.device_us,
                "kernels": self.kernels,
                "launches": self.launches,
                "host_us_per_launch": self.host_us_per_launch,
                "wall_us": self.wall_us,
                "waiting_us": self.waiting_us,
                "busy_share": self.busy_share,
                "compiled_regions": self.regions,
            },
            "graph_breaks": self.graph_breaks,
            "bound": self.bound,
            "ops": [
                {"name": op.name, "calls": op.calls, "cpu_us": op.cpu_us, "device_us": op.device_us} for op in self.ops
            ],
            "timeline": self.timeline.to_json() if self.timeline is not None else None,
        }


def profile_steps(config: TrainingConfig, steps: int = STEPS, top: int = TOP) -> StepProfile:
    """Run `steps` epochs of `config` (after an untimed warm-up) and say where their time went, in the run's
    step mode: compiled or captured first (not profiled), a graph's epochs replayed as the run replays them
    (so `steps` is rounded up to whole replays).

    Raises TrainingError, as a run does, when the device fails or runs out of memory; a step that cannot be
    compiled or captured too."""
    from torch.profiler import ProfilerActivity, profile, record_function

    on_gpu = config.device.startswith("cuda")
    with prepared(config) as run, _compiled_kernels_named():
        breaks = _graph_breaks()
        try:
            run.prepare_step(with_path=False)
            breaks = _graph_breaks() - breaks if run.mode.compiles else None
        except (MemoryError, torch.cuda.OutOfMemoryError):
            raise
        except Exception as error:  # as a run says it: no compiler, an unsupported model
            raise not_prepared(config, error) from None
        for _ in range(WARM_UP_STEPS):
            run.advance()
        synchronize(run.device)
        epochs = 0
        began = time.perf_counter()
        while epochs < steps:
            epochs += run.advance()
        issued = time.perf_counter()
        synchronize(run.device)
        done = time.perf_counter()
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        profiled = 0
        with _quiet_stderr(), _one_cycle_warning_ignored(), profile(activities=activities) as profiler:
            while profiled < epochs:
                with record_function(STEP_LABEL):
                    profiled += run.advance()
            synchronize(run.device)
    events = profiler.events()
    device_us, kernels, ops, waiting_us, launches = summarize(events, profiler.key_averages(), profiled, on_gpu, top)
    regions = sum(1 for event in events if event.name.startswith(COMPILED_REGION)) / profiled
    return StepProfile(
        config.device,
        epochs,
        (issued - began) / epochs * 1e6,
        (done - began) / epochs * 1e6,
        device_us,
        kernels,
        ops,
        on_gpu,
        waiting_us,
        from_events(events, config.device, on_gpu),
        config.step,
        launches,
        regions,
        breaks,
    )


def _graph_breaks() -> int:
    """The graph breaks dynamo has made in this process so far (0 before torch.compile has been loaded)."""
    import sys

    utils = sys.modules.get("torch._dynamo.utils")
    return int(sum(utils.counters["graph_break"].values())) if utils is not None else 0


def compare_steps(config: TrainingConfig, steps: int = STEPS, top: int = TOP) -> list[StepProfile | RunRefused]:
    """`config` profiled in each step mode, side by side; a mode its device cannot take is its refusal."""
    profiles: list[StepProfile | RunRefused] = []
    for mode in STEP_KEYS:
        one = dataclasses.replace(config, step=mode)
        try:
            check(one)
        except RunRefused as refused:
            profiles.append(refused)
            continue
        profiles.append(profile_steps(one, steps, top))
    return profiles


@contextmanager
def _compiled_kernels_named() -> Iterator[None]:
    """Inductor's CPU kernels each in a profiler range of its own name (cpp_fused_...), so that a compiled step's
    kernels are counted; off again after."""
    try:
        from torch._inductor import config as inductor
    except ImportError:  # no inductor: nothing compiled to name
        yield
        return
    with inductor.patch({"cpp.enable_kernel_profile": True}):
        yield


# The CUDA runtime's calls that launch work: a kernel, a copy or a set, or a whole captured graph.
LAUNCH_CALLS = frozenset(
    {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx", "cudaGraphLaunch",
     "cudaMemcpyAsync", "cudaMemsetAsync"}
)  # fmt: skip
# The CUDA runtime's calls in which the host only waits for the device.
WAITING_CALLS = ("cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaStreamWaitEvent")


def summarize(
    events: Iterable, averages: Iterable, steps: int, on_gpu: bool, top: int = TOP
) -> tuple[float, float, tuple[OpTiming, ...], float, float]:
    """(device µs, kernels, the costliest operators, waiting µs, launches), each per step, from the
    profiler's events and key averages. On the CPU the kernels are ATen's operators and a compiled step's
    fused kernels, and each is a launch; on a GPU the launches are the runtime's launch calls (a graph's
    replay: one)."""
    from torch.autograd import DeviceType

    if on_gpu:  # kernels, memcpys and memsets once each; annotation ranges span them again
        kernels = [
            event
            for event in events
            if event.device_type == DeviceType.CUDA and not getattr(event, "is_user_annotation", False)
        ]
        device_us = sum(event.device_time for event in kernels)
    else:  # ATen's operators are the CPU's kernels: their own time is the arithmetic
        kernels = [event for event in events if _is_kernel(event.name)]
        device_us = sum(event.self_cpu_time_total for event in kernels)
    launches = sum(1 for event in events if event.name in LAUNCH_CALLS) / steps if on_gpu else len(kernels) / steps
    ops, waiting_us = [], 0.0
    for average in averages:
        if average.key in WAITING_CALLS:
            waiting_us += average.self_cpu_time_total
        if not _is_kernel(average.key):
            continue
        device = average.self_device_time_total if on_gpu else average.self_cpu_time_total
        ops.append(OpTiming(average.key, average.count / steps, average.self_cpu_time_total / steps, device / steps))
    if on_gpu and sum(op.device_us for op in ops) * steps < device_us / 2:
        # A graph's replay (or compiled's CUDA graphs): its kernels carry the launch's correlation, with no
        # ATen operator above them, so the operators say little of the device's time. The kernels by name.
        by_name: dict[str, list[float]] = {}
        for kernel in kernels:
            by_name.setdefault(kernel.name, []).append(kernel.device_time)
        ops += [OpTiming(name, len(times) / steps, 0.0, sum(times) / steps) for name, times in by_name.items()]
    ops.sort(key=lambda op: op.cpu_us + op.device_us, reverse=True)
    return device_us / steps, len(kernels) / steps, tuple(ops[:top]), waiting_us / steps, launches


def _is_aten(name: str) -> bool:
    return name.startswith("aten::")


def _is_kernel(name: str) -> bool:
    """An ATen operator, or a kernel inductor fused for the CPU."""
    return name.startswith(("aten::", "cpp_fused"))


@contextmanager
def _one_cycle_warning_ignored() -> Iterator[None]:
    """torch 2.11's profiler warns, once, that it "clears events at the end of each cycle": this
    profile is one cycle (no schedule), so nothing is lost; the suite makes warnings errors."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Profiler clears events at the end of each cycle")
        yield


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Hide what the profiler's C++ side writes to stderr (a "profiler_start" and a "profiler_stop"
    line each time); Python errors still rise as exceptions."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to hide
        yield
        return
    sys.stderr.flush()
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
