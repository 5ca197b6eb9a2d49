"""What a measurement says, in sentences: one reading of a step's profile and one of a sweep, made from its
result. The command line prints them as they are (`str`), the window shows them translated (its views draw
the plots and tables; the words are these), so that both say the same thing from the same figures.

Each sentence is a Message (core/base/messages.py): an English template marked for translation and its
fields, the figures already written as a person reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.measure.profile import HOST_BOUND, WARM_UP_STEPS, StepProfile
from gpudemo.core.measure.roofline import PUBLISHED
from gpudemo.core.measure.sweep import SweepResult
from gpudemo.core.measure.timeline import Timeline
from gpudemo.core.step.modes import MODES


def _us(value: float, places: int = 1) -> str:
    return f"{value:,.{places}f}"


def profile_reading(profile: StepProfile, problem: str) -> list[Message]:
    """What a step's profile says: what was profiled, where the step's time went, whether a GPU could help
    (on the CPU) or waits for the host (on a GPU), and what each launch cost."""
    said = [
        message(
            QT_TRANSLATE_NOOP("core", "{steps} steps of {problem} on {device}, after {warm} that were not profiled."),
            steps=profile.steps,
            problem=problem,
            device=profile.device,
            warm=WARM_UP_STEPS,
        )
    ]
    if profile.device.startswith("mps"):
        said.append(
            Message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "On the Apple GPU (MPS), torch.profiler sees the CPU encoding Metal's commands, not the GPU's"
                    " own time: the figures below are the CPU's side of the step, and say nothing of how busy the"
                    " GPU was.",
                )
            )
        )
    said += _on_gpu(profile) if profile.on_gpu else _on_cpu(profile)
    said += _launches(profile)
    return said


def _on_gpu(profile: StepProfile) -> list[Message]:
    host_bound = QT_TRANSLATE_NOOP(
        "core",
        "The GPU computes {share} of the step and waits for the CPU the rest: the step is too small to pay"
        " for its launches; more samples per step (or a bigger model) would.",
    )
    device_bound = QT_TRANSLATE_NOOP(
        "core", "The GPU computes {share} of the step: the arithmetic dominates, as a GPU likes it."
    )
    return [
        message(
            QT_TRANSLATE_NOOP(
                "core",
                "Per step: {cpu} µs on the CPU side to issue it, {device} µs of GPU work in {kernels} kernels;"
                " {wall} µs from start to the GPU done; {waiting} µs of it the CPU waited for the GPU (not work).",
            ),
            cpu=_us(profile.cpu_us),
            device=_us(profile.device_us),
            kernels=f"{profile.kernels:,.0f}",
            wall=_us(profile.wall_us),
            waiting=_us(profile.waiting_us),
        ),
        message(host_bound if profile.bound == HOST_BOUND else device_bound, share=f"{profile.busy_share:.0%}"),
        message(
            QT_TRANSLATE_NOOP(
                "core",
                "Honest timing: without torch.cuda.synchronize() a step seems to take {unsynced} µs, with it"
                " {synced} µs. Without it the clock stops when the CPU has queued the work, not when the GPU has"
                " done it: {times}× too fast.",
            ),
            unsynced=_us(profile.cpu_us),
            synced=_us(profile.wall_us),
            times=f"{profile.overstated:,.1f}",
        ),
    ]


def _on_cpu(profile: StepProfile) -> list[Message]:
    host_bound = QT_TRANSLATE_NOOP(
        "core",
        "An operator takes {each} µs: its fixed cost, not arithmetic. A GPU's kernel launch costs about as"
        " much, so a GPU cannot make this step faster.",
    )
    device_bound = QT_TRANSLATE_NOOP(
        "core",
        "An operator takes {each} µs: the arithmetic dominates, and a GPU, which does it in parallel, would"
        " make this step faster.",
    )
    return [
        message(
            QT_TRANSLATE_NOOP(
                "core",
                "Per step: {wall} µs on the CPU, timed alone; under the profiler, {device} µs inside {kernels}"
                " PyTorch operator calls ({each} µs each, the profiler's own cost included).",
            ),
            wall=_us(profile.wall_us),
            device=_us(profile.device_us),
            kernels=f"{profile.kernels:,.0f}",
            each=_us(profile.per_kernel_us),
        ),
        message(host_bound if profile.bound == HOST_BOUND else device_bound, each=_us(profile.per_kernel_us)),
    ]


def _launches(profile: StepProfile) -> list[Message]:
    """The step mode profiled, and what the host paid per launch in it (a graph: one launch per replay)."""
    mode = MODES[profile.step].heading()
    each = _us(profile.host_us_per_launch, 2)
    if profile.on_gpu:
        said = message(
            QT_TRANSLATE_NOOP("core", "{mode}: {launches} launches a step, {each} µs of the host's time each."),
            mode=mode,
            launches=f"{profile.launches:,.2f}",
            each=each,
        )
    else:  # a CPU launches nothing: it runs each operator itself
        said = message(
            QT_TRANSLATE_NOOP("core", "{mode}: {calls} operator calls a step, {each} µs of the CPU's time each."),
            mode=mode,
            calls=f"{profile.launches:,.0f}",
            each=each,
        )
    if profile.graph_breaks is None:
        return [said]
    return [  # a compiled step: one graph, or the regions it breaks into
        said,
        message(
            QT_TRANSLATE_NOOP("core", "Compiled regions entered a step: {regions}; graph breaks: {breaks}."),
            regions=f"{profile.regions:,.1f}",
            breaks=f"{profile.graph_breaks:,}",
        ),
    ]


def timeline_reading(timeline: Timeline) -> Message:
    """What the drawing of one profiled step shows."""
    if timeline.on_gpu:
        return message(
            QT_TRANSLATE_NOOP(
                "core",
                "The timeline of one step ({step} µs): operators on the CPU above, the kernels they launched on the"
                " GPU below, a line from each operator to its kernel. The GPU was busy {share} of the step; in the"
                " gaps it waited for the CPU's next launch.",
            ),
            step=_us(timeline.step_us),
            share=f"{timeline.busy_share:.0%}",
        )
    return message(
        QT_TRANSLATE_NOOP(
            "core",
            "The timeline of one step ({step} µs) on the CPU, which has no device row: the CPU spent {share} of"
            " it inside PyTorch's operators (nested ones drawn higher) and the rest between them: Python,"
            " PyTorch's dispatch, and whatever else held the cores (another program, the profiler itself).",
        ),
        step=_us(timeline.step_us),
        share=f"{timeline.operator_share:.0%}",
    )


@dataclass(frozen=True)
class SweepReading:
    """What a sweep says: `wins`, where each device beats the CPU in time and in energy (and why one was not
    metered), the headline; `more`, what the roofs, the step modes and a busy machine add."""

    wins: list[Message] = field(default_factory=list)
    more: list[Message] = field(default_factory=list)

    @property
    def all(self) -> list[Message]:
        return [*self.wins, *self.more]


def sweep_reading(result: SweepResult, step: str) -> SweepReading:
    """The reading of `result`, a sweep of steps in mode `step` (or of matrix products)."""
    wins = []
    for device, size in result.crossover.items():
        if size is None:
            wins.append(
                message(
                    QT_TRANSLATE_NOOP("core", "{device} does not beat the CPU at any size measured."), device=device
                )
            )
        else:
            wins.append(
                message(
                    QT_TRANSLATE_NOOP("core", "{device} beats the CPU from {size} on."), device=device, size=f"{size:,}"
                )
            )
    if not result.crossover:
        wins.append(
            Message(
                QT_TRANSLATE_NOOP(
                    "core", "Only the CPU was measured: with a GPU listed, the sweep shows where it overtakes."
                )
            )
        )
    wins += _energy(result)
    more = _roofs(result)
    for device in dict.fromkeys(row.device for row in result.rows if row.step != step):
        more.append(
            message(
                QT_TRANSLATE_NOOP(
                    "core", "{device}: the {step} step cannot run there, so it ran eager beside the others."
                ),
                device=device,
                step=step,
            )
        )
    if not result.complete:
        more.append(Message(QT_TRANSLATE_NOOP("core", "Stopped before the end.")))
    busy = [row for row in result.rows if row.busy]
    if busy:
        worst = max(busy, key=lambda row: row.seconds / row.one_thread_seconds)
        more.append(
            message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "The machine was busy: the CPU's figures at {sizes} are too slow, {ratio}x slower than on one"
                    " thread (another program took a core, and torch's threads waited for each other at every"
                    " step). Close other programs and sweep again.",
                ),
                sizes=", ".join(f"{row.size:,}" for row in busy),
                ratio=f"{worst.seconds / worst.one_thread_seconds:,.0f}",
            )
        )
    return SweepReading(wins, more)


def _energy(result: SweepResult) -> list[Message]:
    """Where each GPU uses less energy per epoch than the CPU, and why a device was not metered."""
    said = []
    for device, size in result.energy_crossover.items():
        if size is None:
            template = QT_TRANSLATE_NOOP(
                "core", "{device} does not use less energy per epoch than the CPU at any size metered."
            )
            said.append(message(template, device=device))
        else:
            template = QT_TRANSLATE_NOOP("core", "{device} uses less energy per epoch than the CPU from {size} on.")
            said.append(message(template, device=device, size=f"{size:,}"))
    for device, reason in result.not_metered.items():
        said.append(
            message(QT_TRANSLATE_NOOP("core", "{device}'s energy not metered: {reason}."), device=device, reason=reason)
        )
    return said


def _roofs(result: SweepResult) -> list[Message]:
    """Each device's roofs, and how far the largest size's step is from the roof above it."""
    said = []
    for device, peak in result.peaks.items():
        rows = [row for row in result.rows if row.device == device and row.work is not None and row.work.bytes]
        if not rows:
            continue
        largest = rows[-1]
        source = (
            Message(QT_TRANSLATE_NOOP("core", "published figures"))
            if peak.source == PUBLISHED
            else Message(QT_TRANSLATE_NOOP("core", "measured here"))
        )
        said.append(
            message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "Roofline of {device} ({source}): {flops} GFLOP/s at most, {bandwidth} GB/s from memory; a step"
                    " with fewer than {ridge} operations per byte cannot reach the peak whatever the device. At"
                    " {size} this step does {intensity} per byte and reaches {share} of the roof above it.",
                ),
                device=device,
                source=source,
                flops=f"{peak.flops_per_second / 1e9:,.0f}",
                bandwidth=f"{peak.bytes_per_second / 1e9:,.0f}",
                ridge=f"{peak.ridge:,.1f}",
                size=f"{largest.size:,}",
                intensity=f"{largest.work.intensity:,.2f}",
                share=f"{largest.flops_per_second / peak.roof(largest.work.intensity):.0%}",
            )
        )
    return said
