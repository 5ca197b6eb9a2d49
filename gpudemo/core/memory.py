"""How much memory a run needs, how much its device has free, and a refusal that says both.

The estimate adds what a step keeps alive: parameters, their gradients, the
optimizer's state, the data (and its shuffled order when batching), and the
activations of one batch through forward, loss and backward. It is an estimate
(allocators round up, libraries keep workspaces), so a run is refused only when
it needs more than is free; a run that passes and still runs out is ended by the
training loop with a clear message.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import torch

from gpudemo.core.devices import _pci_bus_id as pci_bus_id
from gpudemo.core.devices import cpu_memory
from gpudemo.core.errors import TrainingError
from gpudemo.core.messages import QT_TRANSLATE_NOOP, message
from gpudemo.core.nvml import GpuMetrics, read_gpu_metrics
from gpudemo.core.optimizers import OPTIMIZERS
from gpudemo.core.problems import problem_for
from gpudemo.core.settings import TrainingConfig

FLOAT = 4  # bytes: everything trains in float32
INDEX = 8  # bytes: torch.randperm's int64


@dataclass(frozen=True)
class MemoryNeed:
    parameters: int  # bytes, each
    gradients: int
    optimizer_state: int
    data: int
    activations: int

    @property
    def total(self) -> int:
        return self.parameters + self.gradients + self.optimizer_state + self.data + self.activations


def batch_size(config: TrainingConfig) -> int:
    """Samples per step: the whole data set for a full batch (0, or a batch at least as large)."""
    samples = problem_for(config).samples(config)
    return samples if config.batch_size == 0 else min(config.batch_size, samples)


def estimate(config: TrainingConfig) -> MemoryNeed:
    problem = problem_for(config)
    samples, batch = problem.samples(config), batch_size(config)
    parameters = problem.parameter_count(config) * FLOAT
    shuffled = batch < samples
    # a sample: its inputs (float32) and its target (a float32 value, or an int64 class)
    per_sample = problem.inputs * FLOAT + (INDEX if problem.classes else FLOAT)
    test = problem.make_test_data(config) if problem.classes else None
    held_out = len(test[1]) * per_sample if test is not None else 0
    data = samples * per_sample + held_out + (samples * INDEX + batch * per_sample if shuffled else 0)
    return MemoryNeed(
        parameters=parameters,
        gradients=parameters,
        optimizer_state=OPTIMIZERS[config.optimizer].state_per_parameter * parameters,
        data=data,
        activations=batch * problem.activation_floats_per_sample(config) * FLOAT,
    )


def free_bytes(device: str) -> int | None:
    """What the device has free now: a CUDA GPU's free memory, the machine's available memory for the CPU."""
    kind = torch.device(device).type
    if kind == "cuda":
        free, _total = torch.cuda.mem_get_info(torch.device(device))
        return int(free)
    if kind == "cpu":
        return cpu_memory()[1]
    return None  # MPS and XPU: not known; the run is not refused beforehand


def size(count: int) -> str:
    """Bytes for a person: 512 B, 3.4 MiB, 12.0 GiB."""
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


class RunTooLarge(TrainingError):
    """A run that cannot fit on its device; the message has both figures."""

    def __init__(self, config: TrainingConfig, need: MemoryNeed, free: int):
        super().__init__(message(
            QT_TRANSLATE_NOOP("core", "this run needs about {total} on {device} ({data} data, {activations}"
                                      " activations, {state} parameters, gradients and optimizer state), but only"
                                      " {free} is free there; use fewer samples, a smaller batch or a smaller model"),
            total=size(need.total), device=config.device, data=size(need.data), activations=size(need.activations),
            state=size(need.parameters + need.gradients + need.optimizer_state), free=size(free)))
        self.need, self.free = need, free


def check_fits(config: TrainingConfig) -> MemoryNeed:
    """The run's estimated need; raises RunTooLarge when it is more than the device has free."""
    need = estimate(config)
    try:
        free = free_bytes(config.device)
    except Exception:  # a device that cannot say: let the run try, and the loop catch what fails
        free = None
    if free is not None and need.total > free:
        raise RunTooLarge(config, need, free)
    return need


@dataclass(frozen=True)
class MemoryReading:
    """A device's memory now. CUDA: held by tensors, kept by the caching allocator, free on the GPU.
    CPU: this process's resident memory, and the machine's available memory."""

    device: str
    allocated: int | None
    reserved: int | None
    free: int | None
    metrics: GpuMetrics | None = None  # a CUDA GPU's utilisation, power, clock and temperature, where NVML says


def process_resident_bytes() -> int | None:
    """This process's resident memory (Linux: /proc; elsewhere the peak, from getrusage)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError):
        return None


def read_memory(device: str) -> MemoryReading:
    target = torch.device(device)
    if target.type == "cuda":
        free, _total = torch.cuda.mem_get_info(target)
        index = target.index if target.index is not None else torch.cuda.current_device()
        metrics = read_gpu_metrics(pci_bus_id(torch.cuda.get_device_properties(index)))
        return MemoryReading(device, torch.cuda.memory_allocated(target), torch.cuda.memory_reserved(target), free,
                             metrics)
    return MemoryReading(device, process_resident_bytes(), None, cpu_memory()[1] if target.type == "cpu" else None)
