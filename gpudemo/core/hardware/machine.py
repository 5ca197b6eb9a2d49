"""The compute devices described for a person, without torch: what the window shows before PyTorch
has loaded (core/hardware/devices.py finds them with torch), and what this machine's CPU and memory are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field

from gpudemo.core.base import oscalls
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.hardware.nvml import GpuMetrics
from gpudemo.core.settings.rules import InvalidSetting


@dataclass(frozen=True)
class DeviceInfo:
    id: str  # what torch.device() takes: "cpu", "cuda:0", "mps", "xpu:0"
    kind: str  # "cpu", "cuda", "mps" or "xpu"
    name: str
    total_memory: int | None = None  # bytes
    free_memory: int | None = None  # bytes
    capability: tuple[int, int] | None = None  # CUDA compute capability
    multiprocessors: int | None = None  # CUDA streaming multiprocessors
    threads: int | None = None  # CPU hardware threads
    pci_bus_id: str | None = None  # a CUDA GPU's place on the bus, "0000:3b:00.0": tells two of one model apart

    def to_json(self) -> dict:
        data = asdict(self)
        if self.capability is not None:
            data["capability"] = f"{self.capability[0]}.{self.capability[1]}"
        return data


@dataclass(frozen=True)
class DeviceList:
    """The devices found, the CPU always last, and why no GPU is listed when none is."""

    devices: tuple[DeviceInfo, ...]
    note: Message | None = None  # str(note) in English; the window translates it
    ids: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", tuple(device.id for device in self.devices))

    def __iter__(self) -> Iterator[DeviceInfo]:
        return iter(self.devices)

    def __len__(self) -> int:
        return len(self.devices)

    def __getitem__(self, index: int) -> DeviceInfo:
        return self.devices[index]

    def label(self, device: DeviceInfo) -> str:
        """Its name, with its PCI bus id where another listed device has the same name."""
        twins = sum(other.name == device.name for other in self.devices)
        return f"{device.name} ({device.pci_bus_id})" if twins > 1 and device.pci_bus_id else device.name

    def default(self) -> DeviceInfo:
        """The best device to train on: the first accelerator, else the CPU."""
        return self.devices[0]

    def resolve(self, text: object) -> DeviceInfo:
        """The listed device a person meant by `text` ("cuda" means "cuda:0")."""
        wanted = text.strip().lower() if isinstance(text, str) else ""
        if wanted in ("cuda", "xpu"):
            wanted += ":0"
        for device in self.devices:
            if device.id == wanted:
                return device
        choices = ", ".join(self.ids)
        if not wanted:
            raise InvalidSetting(
                "device",
                message(QT_TRANSLATE_NOOP("core", "the device is empty; choose one of: {choices}"), choices=choices),
            )
        raise InvalidSetting(
            "device",
            message(
                QT_TRANSLATE_NOOP("core", "device {value} is not available here; choose one of: {choices}"),
                value=repr(text),
                choices=choices,
            ),
        )


def cpu_memory() -> tuple[int | None, int | None]:
    """(total, available) bytes of the machine's memory; None where the system does not say."""
    found = oscalls.memory()
    return found.total, found.available


def cpu_device() -> DeviceInfo:
    total, free = cpu_memory()
    return DeviceInfo(
        id="cpu", kind="cpu", name=oscalls.cpu_name(), total_memory=total, free_memory=free, threads=os.cpu_count()
    )


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
    """This process's resident memory (where the system does not say it, its peak)."""
    return oscalls.process_memory() or oscalls.peak_process_memory()
