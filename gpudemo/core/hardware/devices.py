"""Which compute devices this machine has, described for a person.

Discovery never raises: a CPU-only build of torch, a missing driver or a broken
CUDA install all end in a list with the CPU alone and a note that says why.

Discovery reads each GPU's properties, which needs no CUDA context. A GPU's free memory
does (0.3-0.5 GiB and about 0.2 s on each GPU): it is read only for a device a person
chose or asked about (`with_free_memory`), never for every GPU at start-up.
"""

from __future__ import annotations

import dataclasses
import warnings

import torch

from gpudemo.core.base import oscalls
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.hardware.machine import (
    DeviceInfo,
    DeviceList,
    MemoryReading,
    cpu_device,
    cpu_memory,
    process_resident_bytes,
)
from gpudemo.core.hardware.nvml import read_gpu_metrics

# PyTorch's own index for CUDA 12.6 builds (pytorch.org's install selector): drivers from 560 on (Windows and
# Linux) run them. pip on Windows takes a CPU-only build from PyPI whatever card is there.
CUDA_BUILD = "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu126"


def _cuda_devices() -> tuple[list[DeviceInfo], Message | None]:
    if torch.version.cuda is None and getattr(torch.version, "hip", None) is None:
        if oscalls.nvidia_driver():  # pip's choice on Windows, whatever card is there: say what fixes it
            return [], message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "No GPU listed: this PyTorch ({version}) is a CPU-only build, and an NVIDIA driver is here."
                    " For the CUDA build: {command}",
                ),
                version=torch.__version__,
                command=CUDA_BUILD,
            )
        return [], message(
            QT_TRANSLATE_NOOP("core", "No GPU listed: this PyTorch ({version}) is a CPU-only build."),
            version=torch.__version__,
        )
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            available = torch.cuda.is_available()
            count = torch.cuda.device_count() if available else 0
    except Exception as error:  # a broken driver raises many kinds of error
        return [], message(
            QT_TRANSLATE_NOOP("core", "No GPU listed: CUDA failed to start ({reason})."), reason=_one_line(error)
        )
    if not available or count == 0:
        if caught:
            return [], message(
                QT_TRANSLATE_NOOP("core", "No GPU listed: {reason}."), reason=_one_line(caught[0].message)
            )
        return [], Message(QT_TRANSLATE_NOOP("core", "No GPU listed: no CUDA GPU or driver was found."))
    devices = []
    for index in range(count):
        try:
            props = torch.cuda.get_device_properties(index)  # no CUDA context is made for this
            devices.append(
                DeviceInfo(
                    id=f"cuda:{index}",
                    kind="cuda",
                    name=props.name,
                    total_memory=int(props.total_memory),
                    capability=(int(props.major), int(props.minor)),
                    multiprocessors=int(props.multi_processor_count),
                    pci_bus_id=pci_bus_id(props),
                )
            )
        except Exception as error:
            return devices, message(
                QT_TRANSLATE_NOOP("core", "GPU cuda:{index} could not be read ({reason})."),
                index=index,
                reason=_one_line(error),
            )
    return devices, None


def pci_bus_id(props) -> str | None:
    """ "domain:bus:device.0" as nvidia-smi writes it, where torch gives the three numbers."""
    try:
        return f"{int(props.pci_domain_id):04x}:{int(props.pci_bus_id):02x}:{int(props.pci_device_id):02x}.0"
    except (AttributeError, TypeError, ValueError):
        return None


def with_free_memory(device: DeviceInfo) -> DeviceInfo:
    """`device` with its free memory read now (on a CUDA GPU this starts its context: only for
    a device chosen or asked about). Unchanged where the reading fails."""
    try:
        free = free_bytes(device.id)
    except Exception:  # a driver that fails now leaves the figure unknown, not the app down
        return device
    return device if free is None else dataclasses.replace(device, free_memory=free)


def _other_accelerators() -> list[DeviceInfo]:
    devices = []
    try:
        if torch.backends.mps.is_available():
            devices.append(DeviceInfo(id="mps", kind="mps", name="Apple GPU (Metal)"))
    except Exception:
        pass
    try:
        xpu = getattr(torch, "xpu", None)
        if xpu is not None and xpu.is_available():
            for index in range(xpu.device_count()):
                props = xpu.get_device_properties(index)
                devices.append(
                    DeviceInfo(
                        id=f"xpu:{index}",
                        kind="xpu",
                        name=props.name,
                        total_memory=int(getattr(props, "total_memory", 0)) or None,
                    )
                )
    except Exception:
        pass
    return devices


def _one_line(error: object) -> str:
    text = str(error).strip().splitlines()
    return text[0].rstrip(".") if text else type(error).__name__


def synchronize(device: torch.device | str) -> None:
    """Wait until `device` has done all the work queued on it (nothing to wait for on the CPU)."""
    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()
    elif device.type == "xpu":
        torch.xpu.synchronize(device)


def release_cache(device: torch.device | str) -> None:
    """Hand the device allocator's cached blocks back to the driver (a CUDA GPU's; nothing elsewhere)."""
    if torch.device(device).type == "cuda":
        torch.cuda.empty_cache()


def list_devices() -> DeviceList:
    """Every device torch can train on here, accelerators first and the CPU always last."""
    cuda, note = _cuda_devices()
    others = _other_accelerators()
    if others and note and not cuda:
        note = None  # an Apple or Intel GPU is listed: the CUDA note would only confuse
    return DeviceList(devices=tuple(cuda + others + [cpu_device()]), note=note)


# What a device has now ------------------------------------------------------------------------


def free_bytes(device: str) -> int | None:
    """What the device has free now: a CUDA GPU's free memory, the machine's available memory for the CPU (asked
    of the OS on every platform: core/base/oscalls.py), what Metal recommends for MPS."""
    kind = torch.device(device).type
    if kind == "cuda":
        free, _total = torch.cuda.mem_get_info(torch.device(device))
        return int(free)
    if kind == "cpu":
        return cpu_memory()[1]
    if kind == "mps":  # unified memory: what Metal recommends this process may hold, less what it holds
        recommended = getattr(torch.mps, "recommended_max_memory", None)
        if recommended is None:
            return None
        return max(0, int(recommended()) - int(torch.mps.driver_allocated_memory()))
    return None  # XPU: not known; the run is not refused beforehand


def read_memory(device: str) -> MemoryReading:
    target = torch.device(device)
    if target.type == "cuda":
        free, _total = torch.cuda.mem_get_info(target)
        index = target.index if target.index is not None else torch.cuda.current_device()
        metrics = read_gpu_metrics(pci_bus_id(torch.cuda.get_device_properties(index)))
        return MemoryReading(
            device, torch.cuda.memory_allocated(target), torch.cuda.memory_reserved(target), free, metrics
        )
    return MemoryReading(device, process_resident_bytes(), None, cpu_memory()[1] if target.type == "cpu" else None)
