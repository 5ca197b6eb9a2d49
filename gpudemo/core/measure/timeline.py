"""A timeline of one training step, from the profiler's trace: what the host did, and what the device did.

Two rows against time, from the step's start:
- host: the operators the CPU ran (PyTorch's operators, autograd's functions, the optimizer),
  nested ones one lane deeper; on a GPU this is where the kernels are *issued*;
- device: the kernels the GPU ran, each linked to the host operator that launched it (the
  profiler's correlation id), so a learner sees launch and execution apart.

On the tutorial the device row is a few slivers with gaps between them: the GPU waits for the
host's next launch. On the line at 1,000,000 samples the kernels run back to back: the GPU is
busy. `busy_share` is the share of the step during which any kernel ran. On the CPU there is no
device row; `operator_share` is then the share of the step spent inside the outermost operators
(the rest is Python between them).

The step is marked with `torch.profiler.record_function(STEP_LABEL)`; the timeline takes the
middle one of the profiled steps, whose neighbours' work cannot spill into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

STEP_LABEL = "gpudemo step"
LANES = 4  # host operators nested deeper than this are drawn in the last lane


@dataclass(frozen=True)
class Span:
    name: str
    start_us: float  # from the step's start
    duration_us: float
    lane: int = 0  # host: how deeply nested (0 = called by the step itself)
    launched_by: int = -1  # device: index in Timeline.host of the operator that launched the kernel

    @property
    def end_us(self) -> float:
        return self.start_us + self.duration_us


@dataclass(frozen=True)
class Timeline:
    device: str
    step_us: float  # from the step's start to its last host operator or kernel done
    host: tuple[Span, ...]
    kernels: tuple[Span, ...] = ()
    on_gpu: bool = False

    @property
    def busy_us(self) -> float:
        """How long at least one kernel ran (overlapping kernels count once)."""
        return covered(self.kernels)

    @property
    def busy_share(self) -> float:
        return min(1.0, self.busy_us / self.step_us) if self.step_us > 0 else 0.0

    @property
    def operator_share(self) -> float:
        """The share of the step inside the outermost host operators."""
        outer = [span for span in self.host if span.lane == 0]
        return min(1.0, covered(outer) / self.step_us) if self.step_us > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "step_us": self.step_us,
            "busy_share": self.busy_share if self.on_gpu else None,
            "operator_share": self.operator_share,
            "host": [
                {"name": s.name, "start_us": s.start_us, "duration_us": s.duration_us, "lane": s.lane}
                for s in self.host
            ],
            "device_kernels": [
                {"name": s.name, "start_us": s.start_us, "duration_us": s.duration_us, "launched_by": s.launched_by}
                for s in self.kernels
            ],
        }


def covered(spans: Iterable[Span]) -> float:
    """The length of the union of the spans' intervals."""
    total, reach = 0.0, float("-inf")
    for span in sorted(spans, key=lambda s: s.start_us):
        start = max(span.start_us, reach)
        if span.end_us > start:
            total += span.end_us - start
            reach = span.end_us
    return total


def _is_device(event) -> bool:
    return getattr(event.device_type, "name", str(event.device_type)).upper() not in ("CPU",)


def _depth(event) -> int:
    depth, parent = 0, event.cpu_parent
    while parent is not None:
        depth, parent = depth + 1, parent.cpu_parent
    return depth


def _is_runtime_call(event) -> bool:
    """A CUDA (or HIP) runtime or driver call on the host: cudaLaunchKernel, cuLaunchKernel, hipMemcpyAsync..."""
    return event.name.startswith(("cuda", "cu", "hip"))


def _launchers(host_events: Sequence, index_of: dict[int, int]) -> Callable[[object], int | None]:
    """How a device kernel finds the host operator that launched it (its index in the host row), on every torch.

    A kernel's `id` is its CUPTI correlation id, the same as the runtime call that launched it
    (cudaLaunchKernel, whose `cpu_parent` is the operator): that link holds on every torch. torch
    2.12 and later also give a kernel `linked_correlation_id`, the operator's own id, used first. The
    operators' ids and the runtime calls' ids come from two counters that can collide, so each has
    its own map.
    """
    operators, calls = {}, {}
    for event in host_events:
        if _is_runtime_call(event):
            parent = event.cpu_parent
            calls.setdefault(event.id, index_of.get(id(parent), index_of[id(event)]) if parent else index_of[id(event)])
        else:
            operators.setdefault(event.id, index_of[id(event)])

    def launched_by(kernel) -> int | None:
        linked = getattr(kernel, "linked_correlation_id", 0)  # absent before torch 2.12
        found = operators.get(linked) if linked else None
        return found if found is not None else calls.get(kernel.id)

    return launched_by


def from_events(events: Sequence, device: str, on_gpu: bool) -> Timeline | None:
    """The timeline of the middle step marked STEP_LABEL among the profiler's `events`
    (torch's FunctionEvents: name, time_range, device_type, id, cpu_parent; linked_correlation_id from torch
    2.12 on);
    None when no step was marked."""
    steps = sorted((e for e in events if e.name == STEP_LABEL and not _is_device(e)), key=lambda e: e.time_range.start)
    if not steps:
        return None
    index = len(steps) // 2
    step = steps[index]
    begin = step.time_range.start
    # The next step's start bounds this one's host work (autograd's thread may outlast the annotation).
    until = steps[index + 1].time_range.start if index + 1 < len(steps) else float("inf")
    step_depth = _depth(step)
    host_events = sorted(
        (
            e
            for e in events
            if not _is_device(e)
            and e is not step
            and e.name != STEP_LABEL
            and not getattr(e, "is_async", False)
            and begin <= e.time_range.start < until
        ),
        key=lambda e: e.time_range.start,
    )
    host, index_of = [], {}
    for event in host_events:
        depth = _depth(event)
        lane = depth - step_depth - 1 if depth > step_depth else depth  # autograd's own thread: its own nesting
        host.append(
            Span(
                event.name,
                event.time_range.start - begin,
                event.time_range.end - event.time_range.start,
                min(max(lane, 0), LANES - 1),
            )
        )
        index_of[id(event)] = len(host) - 1
    kernels = []
    if on_gpu:
        launched_by = _launchers(host_events, index_of)
        for event in events:
            if not _is_device(event) or getattr(event, "is_user_annotation", False):
                continue
            launcher = launched_by(event)
            if launcher is None:
                continue
            kernels.append(
                Span(
                    event.name,
                    event.time_range.start - begin,
                    event.time_range.end - event.time_range.start,
                    launched_by=launcher,
                )
            )
        kernels.sort(key=lambda s: s.start_us)
    ends = [s.end_us for s in host] + [s.end_us for s in kernels] + [step.time_range.end - begin]
    return Timeline(device, max(ends), tuple(host), tuple(kernels), on_gpu)
