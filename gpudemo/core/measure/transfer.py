"""Moving data: what `.to(device)` and `.cpu()` cost, by size, from pageable and from pinned memory.

The tutorial moves its model and data to the GPU and brings the model back. Each copy pays
a fixed cost (a driver call, a DMA set-up: microseconds) and then the link's bandwidth
(PCIe or NVLink: tens of GB/s). Small copies are all fixed cost, which is why many small
copies are slow and one large one is fast; the bandwidth levels off where the fixed cost
stops mattering. Host memory that the GPU can reach directly ("pinned", page-locked) copies
faster than ordinary ("pageable") memory, which the driver first copies into a pinned buffer
of its own, and only pinned memory lets `non_blocking=True` overlap a copy with compute.

Each figure is the median of TIMINGS timings, each over enough copies to last TIMING_S, warm
(one copy first), the device synchronised before every clock read. Sizes grow by 4 from
1 KiB to 1 GiB, or to what fits in a quarter of the device's and the host's free memory.

The measurement runs through a `Copier` (buffers, a copy, a sync), so the logic is tested on
the CPU with a copier whose "device" is the CPU; on a machine without a GPU, `gpudemo
transfer` says there is nothing to move to (`pin_memory()` itself needs CUDA).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from gpudemo.core.base.control import never
from gpudemo.core.hardware.machine import cpu_memory
from gpudemo.core.measure.timing import median_seconds
from gpudemo.core.settings.rules import TRANSFER_DIRECTIONS

HOST_TO_DEVICE, DEVICE_TO_HOST = TRANSFER_DIRECTIONS
SIZES = tuple(1024 * 4**k for k in range(11))  # 1 KiB ... 1 GiB
TIMING_S = 0.005
TIMINGS = 5
COMPUTE_TIMED = 5  # matmuls timed, after a warm one, to size the compute that runs beside a copy
OVERLAP_BYTES = 64 * 2**20  # the copy that the overlap lesson hides behind compute


@dataclass(frozen=True)
class TransferRow:
    direction: str  # HOST_TO_DEVICE or DEVICE_TO_HOST
    pinned: bool
    bytes: int
    seconds: float  # median per copy

    @property
    def gb_per_second(self) -> float:
        return self.bytes / self.seconds / 1e9 if self.seconds > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "direction": self.direction,
            "pinned": self.pinned,
            "bytes": self.bytes,
            "seconds": self.seconds,
            "gb_per_second": self.gb_per_second,
        }


@dataclass(frozen=True)
class Overlap:
    """A pinned host-to-device copy and a compute of about the same time: one after the other, and at once."""

    bytes: int
    copy_seconds: float
    compute_seconds: float
    serial_seconds: float
    overlapped_seconds: float

    @property
    def hidden_part(self) -> str:
        """Which of the two hid behind the other: the shorter one, "copy" or "compute"."""
        return "copy" if self.copy_seconds <= self.compute_seconds else "compute"

    @property
    def hidden(self) -> float:
        """The share of the shorter of the two (`hidden_part`) that the overlap hid (1: all of it)."""
        shorter = min(self.copy_seconds, self.compute_seconds)
        return max(0.0, min(1.0, (self.serial_seconds - self.overlapped_seconds) / shorter)) if shorter > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "bytes": self.bytes,
            "copy_seconds": self.copy_seconds,
            "compute_seconds": self.compute_seconds,
            "serial_seconds": self.serial_seconds,
            "overlapped_seconds": self.overlapped_seconds,
            "hidden": self.hidden,
            "hidden_part": self.hidden_part,
        }


@dataclass
class TransferResult:
    device: str
    rows: list[TransferRow] = field(default_factory=list)
    overlap: Overlap | None = None
    note: str = ""  # why nothing was measured
    complete: bool = True

    def fixed_cost(self, direction: str = HOST_TO_DEVICE, pinned: bool = True) -> float | None:
        """Seconds of the smallest copy: all of it fixed cost."""
        rows = self.series(direction, pinned)
        return rows[0].seconds if rows else None

    def peak(self, direction: str = HOST_TO_DEVICE, pinned: bool = True) -> float | None:
        """The best bandwidth measured, GB/s: where it levels off."""
        rows = self.series(direction, pinned)
        return max(row.gb_per_second for row in rows) if rows else None

    def series(self, direction: str, pinned: bool) -> list[TransferRow]:
        return [row for row in self.rows if row.direction == direction and row.pinned == pinned]

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "rows": [row.to_json() for row in self.rows],
            "overlap": self.overlap.to_json() if self.overlap else None,
            "note": self.note,
            "complete": self.complete,
        }


class Copier:
    """Buffers on the host and the device, a copy between them, a sync: CUDA's, by default."""

    def __init__(self, device: str):
        self.device = torch.device(device)

    def host(self, nbytes: int, pinned: bool) -> torch.Tensor:
        buffer = torch.empty(nbytes, dtype=torch.uint8)
        buffer.fill_(1)  # touched: its pages exist before the clock
        return buffer.pin_memory() if pinned else buffer

    def on_device(self, nbytes: int) -> torch.Tensor:
        return torch.ones(nbytes, dtype=torch.uint8, device=self.device)

    def copy(self, destination: torch.Tensor, source: torch.Tensor, non_blocking: bool) -> None:
        destination.copy_(source, non_blocking=non_blocking)

    def sync(self) -> None:
        torch.cuda.synchronize(self.device)

    def free_bytes(self) -> int:
        free, _ = torch.cuda.mem_get_info(self.device)
        return int(free)

    def compute(self, seconds: float) -> Callable[[], object]:
        """Work on the device's default stream that takes about `seconds` (matmuls)."""
        a = torch.randn(2048, 2048, device=self.device)
        a @ a  # the process's first matmul pays for cuBLAS's handle, workspace and kernels: not timed
        self.sync()
        began = time.perf_counter()
        for _ in range(COMPUTE_TIMED):
            a @ a
        self.sync()
        one = max((time.perf_counter() - began) / COMPUTE_TIMED, 1e-6)
        repeats = max(1, round(seconds / one))
        return lambda: [a @ a for _ in range(repeats)]

    def side_copy(self, destination: torch.Tensor, source: torch.Tensor) -> Callable[[], object]:
        """A copy on a stream of its own, so that it can run beside the default stream's compute."""
        stream = torch.cuda.Stream(self.device)

        def run() -> None:
            with torch.cuda.stream(stream):
                destination.copy_(source, non_blocking=True)

        return run


def no_gpu_note() -> str:
    return (
        "nothing to move to: torch sees no GPU here, so a tensor already lives where it is computed"
        " (and pin_memory() needs CUDA)"
    )


def measure_transfers(
    device: str,
    max_bytes: int | None = None,
    should_stop: Callable[[], bool] = never,
    on_row: Callable[[TransferRow], None] | None = None,
    copier: Copier | None = None,
    overlap: bool = True,
) -> TransferResult:
    """Copy times at growing sizes, both ways, pageable and pinned; then the overlap lesson."""
    result = TransferResult(device)
    if copier is None:
        if torch.device(device).type != "cuda" or not torch.cuda.is_available():
            result.note = no_gpu_note()
            return result
        copier = Copier(device)
    host_free = cpu_memory()[1]
    limit = min(copier.free_bytes(), host_free if host_free is not None else SIZES[-1] * 4) // 4
    sizes = [size for size in SIZES if size <= limit and (max_bytes is None or size <= max_bytes)]
    for size in sizes:
        host = {pinned: copier.host(size, pinned) for pinned in (False, True)}
        there = copier.on_device(size)
        for direction in (HOST_TO_DEVICE, DEVICE_TO_HOST):
            for pinned in (False, True):
                if should_stop():
                    result.complete = False
                    return result
                source, destination = (host[pinned], there) if direction == HOST_TO_DEVICE else (there, host[pinned])
                copy = functools.partial(copier.copy, destination, source, pinned)
                seconds = median_seconds(copy, copier.sync, TIMING_S, TIMINGS)
                row = TransferRow(direction, pinned, size, seconds)
                result.rows.append(row)
                if on_row is not None:
                    on_row(row)
        del host, there
    if overlap and sizes and not should_stop():
        result.overlap = measure_overlap(copier, min(OVERLAP_BYTES, sizes[-1]))
    return result


def measure_overlap(copier: Copier, nbytes: int) -> Overlap:
    """A pinned copy on a side stream beside compute on the default stream: serial, then at once."""
    source, destination = copier.host(nbytes, True), copier.on_device(nbytes)
    copy = copier.side_copy(destination, source)
    copy_seconds = median_seconds(copy, copier.sync, TIMING_S, TIMINGS)
    compute = copier.compute(copy_seconds)
    compute_seconds = median_seconds(compute, copier.sync, TIMING_S, TIMINGS)
    serial = median_seconds(lambda: (copy(), copier.sync(), compute()), copier.sync, TIMING_S, TIMINGS)
    overlapped = median_seconds(lambda: (copy(), compute()), copier.sync, TIMING_S, TIMINGS)
    return Overlap(nbytes, copy_seconds, compute_seconds, serial, overlapped)
