"""The second lesson's guesses: what a learner may answer before a measurement, what the measurement
says in the same units, how far off the guess was, and the table of them all as CSV.

Predict, observe, explain: each step of "Make the GPU win" (resources/lesson/gpu_win.json) asks a
question with a guess of one kind (a choice of sizes, a percentage, a ratio), runs one of the tabs'
own measurements on this machine, and reads its answer out of that measurement's result here, so
that the window and the tests read it the same way. Where the answer needs a GPU this machine lacks,
it is None and the step quotes what a GPU showed (the README's figures, with their device and date).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpudemo.core.base.control import COMPLETED
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.lessons.lesson import PERCENT, GuessSpec

if TYPE_CHECKING:  # the measurements' records, read here after they ran (the window reads lessons before torch)
    from gpudemo.core.measure.compare import DeviceTiming
    from gpudemo.core.measure.profile import StepProfile
    from gpudemo.core.measure.sweep import SweepResult
    from gpudemo.core.measure.transfer import TransferResult

NOTHING = Message("-")  # nothing measured, nothing to say


def off_by(spec: GuessSpec, guess: float, measured: float | None) -> Message:
    """How far the guess was: percentage points for a percentage, else a factor ("x3.2 too high", "x2 too
    low", "about right" within 25 %); "-" when nothing was measured. A sentence to translate."""
    if measured is None or not math.isfinite(measured):
        return NOTHING
    if spec.kind == PERCENT:
        return message(QT_TRANSLATE_NOOP("core", "{points} points"), points=f"{guess - measured:+.0f}")
    if guess <= 0 or measured <= 0:
        return NOTHING
    factor = guess / measured
    if 0.8 <= factor <= 1.25:
        return Message(QT_TRANSLATE_NOOP("core", "about right"))
    if factor > 1:
        return message(QT_TRANSLATE_NOOP("core", "x{factor} too high"), factor=f"{factor:,.2g}")
    return message(QT_TRANSLATE_NOOP("core", "x{factor} too low"), factor=f"{1 / factor:,.2g}")


# What each measurement says, in the units its question asks. --------------------------------------


def crossover(result: SweepResult) -> float | None:
    """The smallest size at which any GPU beat the CPU (None: no GPU measured, or none beat it)."""
    sizes = [size for size in result.crossover.values() if size is not None]
    return float(min(sizes)) if sizes else None


def busy_percent(profile: StepProfile) -> float | None:
    """The share of a step the device computed (on the CPU: the share inside PyTorch's operators), read off the
    profiled step's timeline where there is one: the figure its tab shows beside the lesson. (The profile's
    `busy_share` sets the operators' time under the profiler against a step timed without it: 7 % in the
    lesson beside 40 % in the tab it framed.)"""
    if profile.device.startswith("mps"):  # the profiler sees Metal's encoding on the CPU, not the GPU's time
        return None
    timeline = profile.timeline
    if timeline is not None:
        return 100 * (timeline.busy_share if timeline.on_gpu else timeline.operator_share)
    return 100 * profile.busy_share


DOUBLING_OVERHEAD = 1.4  # twice the samples in less than this many times the time: the fixed costs dominate
OVERHEAD, MEMORY, COMPUTE = "overhead", "memory", "compute"  # what bounds a step


FIXED_COSTS_S = 2e-3  # a step's fixed costs (launches, dispatch, Python) stay far below this on any device


def timing_doubtful(result: SweepResult, device: str) -> bool:
    """Whether twice the samples barely took longer for a step far too long to be its fixed costs: a step of
    150 ms cannot be overhead-bound, so another program held the cores while one of the two was timed."""
    rows = sorted((row for row in result.rows if row.device == device), key=lambda row: row.size)
    return len(rows) >= 2 and rows[1].seconds / rows[0].seconds < DOUBLING_OVERHEAD and rows[0].seconds > FIXED_COSTS_S


def doubling(result: SweepResult, device: str) -> tuple[float | None, str | None]:
    """The time of `device`'s step at the sweep's second size over its first (twice as many samples), and
    what bounds it: overhead (the time barely grows, and the step is short enough for its fixed costs to be
    most of it), else memory or compute by the roofline's ridge."""
    rows = sorted((row for row in result.rows if row.device == device), key=lambda row: row.size)
    if len(rows) < 2:
        return None, None
    ratio = rows[1].seconds / rows[0].seconds
    if ratio < DOUBLING_OVERHEAD and not timing_doubtful(result, device):
        return ratio, OVERHEAD
    peak, work = result.peaks.get(device), rows[1].work
    if peak is None or work is None:
        return ratio, MEMORY
    return ratio, MEMORY if work.intensity < peak.ridge else COMPUTE


def speedup(timings: Sequence[DeviceTiming], device: str, faster: str) -> float | None:
    """How many times the epochs/s of `device`'s `faster` step mode is its eager step's."""
    rates = {
        t.step: t.epochs_per_second
        for t in timings
        if t.device == device and t.status == COMPLETED and t.epochs_per_second
    }
    return rates[faster] / rates["eager"] if "eager" in rates and faster in rates else None


def matmul_speedup(float32: SweepResult, bfloat16: SweepResult, device: str) -> float | None:
    """How many times as fast `device`'s largest matmul measured in both ran in bfloat16 as in float32."""
    first = {row.size: row.seconds for row in float32.rows if row.device == device}
    second = {row.size: row.seconds for row in bfloat16.rows if row.device == device}
    sizes = sorted(set(first) & set(second))
    return first[sizes[-1]] / second[sizes[-1]] if sizes else None


def pinned_speedup(result: TransferResult) -> float | None:
    """The bandwidth of the largest copy to the GPU from pinned memory over the same from pageable memory."""
    from gpudemo.core.measure.transfer import HOST_TO_DEVICE

    rows = [row for row in result.rows if row.direction == HOST_TO_DEVICE]
    if not rows:
        return None
    largest = max(row.bytes for row in rows)
    speeds = {row.pinned: row.gb_per_second for row in rows if row.bytes == largest}
    return speeds[True] / speeds[False] if True in speeds and False in speeds and speeds[False] > 0 else None


def parallel_speedup(results: Sequence) -> tuple[float | None, float | None]:
    """Two workers' epochs/s over one's, and the all-reduce's share of the two workers' step."""
    by_workers = {r.workers: r for r in results if r.status == COMPLETED and r.epochs_per_second}
    if 1 not in by_workers or 2 not in by_workers:
        return None, None
    two = by_workers[2]
    return two.epochs_per_second / by_workers[1].epochs_per_second, two.allreduce_share


def energy_ratio(timings: Sequence[DeviceTiming], gpu: str) -> float | None:
    """The joules an epoch took on `gpu` over the CPU's, each metered on its counter (None: either was not)."""
    joules = {
        t.device: t.energy.figures.joules_per_epoch
        for t in timings
        if t.status == COMPLETED and t.energy is not None and t.energy.figures is not None
    }
    return joules[gpu] / joules["cpu"] if gpu in joules and joules.get("cpu") else None


# The table. ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    key: str  # the step's
    question: str
    guess: float
    measured: float | None  # None: not measurable here (no GPU), see `note`
    off: Message
    note: str = ""  # what was measured on, at what size; or why nothing was
    extra: dict[str, str] = field(default_factory=dict)  # what a step's explanation names besides (a bound, a share)


COLUMNS = ("step", "question", "guess", "measured", "off by", "note")


def to_csv(outcomes: Iterable[Outcome]) -> str:
    """The table as CSV text: a row per guess."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for outcome in outcomes:
        measured = "" if outcome.measured is None else f"{outcome.measured:.6g}"
        row = (outcome.key, outcome.question, f"{outcome.guess:g}", measured, str(outcome.off), outcome.note)
        writer.writerow(row)
    return out.getvalue()


def guesses_to_texts(guesses: Mapping[str, float]) -> dict[str, str]:
    """Guesses as the preferences keep them (text, read back exactly)."""
    return {key: repr(float(value)) for key, value in guesses.items()}


def guesses_from_texts(texts: Mapping[str, object]) -> dict[str, float]:
    """Remembered guesses back; anything that is not a finite number is dropped."""
    found = {}
    for key, text in texts.items():
        try:
            value = float(str(text))
        except ValueError:
            continue
        if math.isfinite(value):
            found[key] = value
    return found
