"""The roofline: how far a step is from what its device can do.

A device has two limits: its arithmetic (FLOP/s) and its memory's bandwidth (bytes/s). A step
does `flops` operations on `bytes` of data; its arithmetic intensity is flops / bytes. With few
operations per byte (the line: about one per four bytes) no device can compute faster than its
memory delivers: the step sits under the slanted roof, bandwidth x intensity. Only with many
operations per byte (a large matmul) does it reach the flat roof, the device's peak FLOP/s.

The work of a step is counted by running it once under a dispatch mode that sees every
PyTorch operator:
- FLOPs: matrix products by torch's own formulas (torch.utils.flop_counter); element-wise
  operators one per output element; reductions and losses one per element read; creating,
  filling and copying none;
- bytes: every operator's inputs read and outputs written, as if no two operators shared a
  cache (a fused or cached step moves fewer): the memory traffic of eager PyTorch.

The peaks: for a known GPU its maker's published figures (dense, for the precision asked);
otherwise, the CPU included, measured here with a large matmul and a large copy.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import torch

from gpudemo.core.hardware.devices import synchronize
from gpudemo.core.measure.timing import median_seconds
from gpudemo.core.step.precision import STORAGE, matmul_precision

PUBLISHED = "published"
MEASURED = "measured"


@dataclass(frozen=True)
class Work:
    flops: float
    bytes: float

    @property
    def intensity(self) -> float:
        """Operations per byte moved."""
        return self.flops / self.bytes if self.bytes else 0.0


@dataclass(frozen=True)
class Peak:
    flops_per_second: float
    bytes_per_second: float
    source: str  # PUBLISHED or MEASURED
    detail: str = ""  # whose figures, or what was measured

    @property
    def ridge(self) -> float:
        """The intensity at which the two roofs meet: below it a step is bound by memory."""
        return self.flops_per_second / self.bytes_per_second

    def roof(self, intensity: float) -> float:
        """The most FLOP/s a step of this intensity can reach on this device."""
        return min(self.flops_per_second, self.bytes_per_second * intensity)

    def to_json(self) -> dict:
        return {
            "flops_per_second": self.flops_per_second,
            "bytes_per_second": self.bytes_per_second,
            "source": self.source,
            "detail": self.detail,
        }


# Operators that create, fill or copy data: they move bytes but do no arithmetic.
NO_ARITHMETIC = frozenset(
    {
        "ones_like",
        "zeros_like",
        "empty",
        "empty_like",
        "empty_strided",
        "fill_",
        "zero_",
        "copy_",
        "_to_copy",
        "clone",
        "ones",
        "zeros",
        "full",
        "full_like",
        "lift_fresh",
        "_local_scalar_dense",
        "scalar_tensor",
        "index",
        "index_select",
        "embedding",
    }
)


def count_work(step: Callable[[], object]) -> Work:
    """Run `step` once and count its FLOPs and the bytes its operators read and write."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves
    from torch.utils.flop_counter import flop_registry

    class Counter(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.flops = 0.0
            self.bytes = 0.0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if func.is_view or func.namespace != "aten":
                return out
            inputs = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
            outputs = [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]
            self.bytes += sum(t.numel() * t.element_size() for t in (*inputs, *outputs))
            name = func.overloadpacket.__name__
            if func.overloadpacket in flop_registry:
                self.flops += flop_registry[func.overloadpacket](*args, **kwargs, out_val=out)
            elif name in NO_ARITHMETIC:
                pass
            elif torch.Tag.pointwise in func.tags:
                self.flops += sum(t.numel() for t in outputs)
            elif inputs:  # a reduction, a loss or its gradient: at least one operation per element read
                self.flops += max(t.numel() for t in inputs)
            return out

    with Counter() as counter:
        step()
    return Work(counter.flops, counter.bytes)


def matmul_work(size: int, dtype: torch.dtype) -> Work:
    """An n x n product: 2n^3 operations on two inputs read and one output written."""
    return Work(2.0 * size**3, 3.0 * size * size * dtype.itemsize)


# Dense figures from NVIDIA's data sheets: (name, FP32, TF32 tensor, BF16 tensor, bytes/s). A row matches
# whole words of the device's name (an L40 is not an L4, a GH200 is no H200); the first match wins, so the
# more specific names come first. None: the precision has no such units. No match: the peaks are measured.
GPUS = (
    ("H200 NVL", 60e12, 417.5e12, 835.5e12, 4.8e12),
    ("H200", 67e12, 494.5e12, 989.5e12, 4.8e12),
    ("H100 NVL", 60e12, 417.5e12, 835.5e12, 3.9e12),
    ("H100 PCIe", 51e12, 378e12, 756e12, 2.0e12),
    ("H100", 67e12, 494.5e12, 989.5e12, 3.35e12),
    ("A100-SXM4-80GB", 19.5e12, 156e12, 312e12, 2.039e12),
    ("A100 80GB PCIe", 19.5e12, 156e12, 312e12, 1.935e12),
    ("A100", 19.5e12, 156e12, 312e12, 1.555e12),
    ("L40S", 91.6e12, 183e12, 362e12, 864e9),
    ("L40", 90.5e12, 90.5e12, 181e12, 864e9),
    ("L4", 30.3e12, 60e12, 121e12, 300e9),
    ("T4", 8.1e12, None, None, 320e9),
    ("V100", 15.7e12, None, None, 900e9),
)
COLUMN = {"float32": 1, "tf32": 2, "bfloat16": 3}


def published(name: str, dtype: str) -> Peak | None:
    for row in GPUS:
        if re.search(rf"\b{re.escape(row[0])}\b", name):
            flops = row[COLUMN[dtype]]
            if flops is None:
                return None
            return Peak(flops, row[4], PUBLISHED, f"NVIDIA {row[0]} data sheet, dense")
    return None


def measure(device: str, dtype: str) -> Peak:
    """The device's FLOP/s on a large matmul and its bytes/s on a large copy, measured here."""
    torch_device, torch_dtype = torch.device(device), STORAGE[dtype]
    on_gpu = torch_device.type == "cuda"
    sync = functools.partial(synchronize, torch_device)
    sizes = (4096, 8192) if on_gpu else (256, 512, 1024)  # the best of a few: caches favour one or another
    copy_bytes = (1 << 30) if on_gpu else (64 << 20)
    generator = torch.Generator(device=torch_device).manual_seed(0)
    flops = 0.0
    for size in sizes:
        a = torch.randn(size, size, generator=generator, device=torch_device).to(torch_dtype)
        b = torch.randn(size, size, generator=generator, device=torch_device).to(torch_dtype)
        with matmul_precision(dtype):
            flops = max(flops, 2.0 * size**3 / median_seconds(functools.partial(torch.mm, a, b), sync, timings=3))
    a = b = None  # free them before the copy's buffers
    source = torch.empty(copy_bytes // 4, device=torch_device)
    target = torch.empty_like(source)
    bandwidth = 2.0 * copy_bytes / median_seconds(lambda: target.copy_(source), sync, timings=3)  # read + write
    return Peak(
        flops,
        bandwidth,
        MEASURED,
        f"the best of {', '.join(map(str, sizes))}-square matmuls, a {copy_bytes >> 20} MiB copy",
    )


def peak_for(device: str, dtype: str) -> Peak:
    """Published figures for a known GPU, else measured."""
    if device.startswith("cuda"):
        found = published(torch.cuda.get_device_name(torch.device(device)), dtype)
        if found is not None:
            return found
    return measure(device, dtype)
