"""Energy counters: joules read from the hardware, or exactly why there are none. Never an estimate.

- A CUDA GPU: NVML's energy counter (`nvmlDeviceGetTotalEnergyConsumption`, millijoules since the driver
  loaded, Volta and newer), through the optional `nvidia-ml-py` (core/hardware/nvml.py). Not the power reading,
  which Ampere and newer average over a second.
- The CPU: RAPL's package counters under /sys/class/powercap (`intel-rapl:N/energy_uj`, microjoules,
  Intel and AMD), summed over the packages; each counter wraps at its `max_energy_range_uj`, which is
  handled. Readable by root only since Linux 5.10 (CVE-2020-8694).

Both counters tick about every 100 ms, so an epoch of microseconds cannot be metered alone: `measure`
meters a window of at least MIN_WINDOW_S (work repeated until it is that long: the error stays under
~5 %), after the idle power over IDLE_S, and gives the joules per epoch in total and above idle.
Figures and sources: ../shared/reviews/anchors-2026-12-05b.md, section 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.hardware import nvml

POWERCAP = Path("/sys/class/powercap")
MIN_WINDOW_S = 4.0  # a window this long keeps a ~100 ms counter's error under ~5 %
IDLE_S = 1.0  # the idle power, metered before the work


class EnergyUnavailable(PersonError):
    """No counter here, or it stopped answering; the message says why and, where it can be, how to allow it."""


class Meter:
    """A device's energy counter: `joules()` since the meter was made, growing (wrap-around handled)."""

    device = ""
    source = ""  # "rapl" or "nvml"

    def joules(self) -> float:
        raise NotImplementedError


class RaplMeter(Meter):
    """The CPU packages' RAPL counters under `root` (a powercap tree; the tests hand a fake one)."""

    device, source = "cpu", "rapl"

    def __init__(self, root: Path = POWERCAP):
        if not root.is_dir():
            raise EnergyUnavailable(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "the CPU has no energy counter here: no {root} (a virtual machine, a container without"
                        " it, or a kernel or CPU without RAPL)",
                    ),
                    root=str(root),
                )
            )
        self.zones = sorted(
            zone
            for zone in root.glob("intel-rapl:*")
            if zone.name.count(":") == 1 and _text(zone / "name").startswith("package")
        )  # the packages: their sub-zones (core, uncore, dram) are inside them
        if not self.zones:
            raise EnergyUnavailable(
                message(QT_TRANSLATE_NOOP("core", "the CPU has no RAPL package counter under {root}"), root=str(root))
            )
        self.ranges = [int(_text(zone / "max_energy_range_uj") or 0) for zone in self.zones]
        self.last = [self._counter(zone) for zone in self.zones]
        self.total_uj = 0

    @staticmethod
    def _counter(zone: Path) -> int:
        path = zone / "energy_uj"
        try:
            return int(path.read_text())
        except PermissionError:
            raise EnergyUnavailable(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "the CPU's energy counter {path} is readable by root only (Linux 5.10 and newer,"
                        " CVE-2020-8694): allow it until the next boot with `sudo chmod o+r"
                        " /sys/class/powercap/intel-rapl:*/energy_uj`, or run gpudemo as root",
                    ),
                    path=str(path),
                )
            ) from None
        except (OSError, ValueError):
            raise EnergyUnavailable(
                message(QT_TRANSLATE_NOOP("core", "the CPU's energy counter {path} stopped answering"), path=str(path))
            ) from None

    def joules(self) -> float:
        for index, zone in enumerate(self.zones):
            now, last = self._counter(zone), self.last[index]
            # A counter that went back wrapped at its range (at most once between two reads: it takes
            # minutes at a package's power, and a window reads it every few seconds).
            self.total_uj += now - last if now >= last else self.ranges[index] - last + now
            self.last[index] = now
        return self.total_uj / 1e6


class NvmlMeter(Meter):
    """A CUDA GPU's NVML energy counter, found by its PCI bus id (CUDA_VISIBLE_DEVICES cannot mislead it)."""

    source = "nvml"

    def __init__(self, device: str, pci_bus_id: str | None, library=None):
        self.device = device
        self.nvml = library if library is not None else nvml.library()
        if self.nvml is None:
            raise EnergyUnavailable(
                QT_TRANSLATE_NOOP(
                    "core",
                    "the GPU's energy counter is read through NVML: install nvidia-ml-py (pip install"
                    " nvidia-ml-py) where NVIDIA's driver is",
                )
            )
        try:
            self.handle = self.nvml.nvmlDeviceGetHandleByPciBusId(pci_bus_id)
            self.first = self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle)
        except Exception as error:
            raise EnergyUnavailable(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "{device} has no energy counter NVML can read (Volta and newer have one): {reason}",
                    ),
                    device=device,
                    reason=str(error) or type(error).__name__,
                )
            ) from None

    def joules(self) -> float:
        try:
            return (self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle) - self.first) / 1e3
        except Exception as error:  # the GPU fell off the bus, the driver was reloaded
            raise EnergyUnavailable(
                message(
                    QT_TRANSLATE_NOOP("core", "{device}'s energy counter stopped answering: {reason}"),
                    device=self.device,
                    reason=str(error) or type(error).__name__,
                )
            ) from None


def meter_for(device: str, pci_bus_id: str | None = None, root: Path = POWERCAP, library=None) -> Meter:
    """The energy meter of `device` ("cpu", "cuda:N"); EnergyUnavailable says why there is none."""
    if device == "cpu":
        return RaplMeter(root)
    if device.startswith("cuda"):
        return NvmlMeter(device, pci_bus_id, library)
    raise EnergyUnavailable(
        message(QT_TRANSLATE_NOOP("core", "{device} has no energy counter gpudemo can read"), device=device)
    )


def _text(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class EnergyPerEpoch:
    device: str
    source: str
    joules_per_epoch: float  # in total, idle included
    above_idle_per_epoch: float  # what the work added over the idle power in the same time
    idle_watts: float
    seconds: float  # the metered window
    epochs: int  # the epochs in it
    calls: int  # how many times the work ran to make the window long enough

    @property
    def extended(self) -> bool:
        """The work was repeated to reach the counter's window."""
        return self.calls > 1

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "source": self.source,
            "joules_per_epoch": self.joules_per_epoch,
            "above_idle_joules_per_epoch": self.above_idle_per_epoch,
            "idle_watts": self.idle_watts,
            "seconds": self.seconds,
            "epochs": self.epochs,
            "repeated": self.calls,
        }


def measure(
    meter: Meter,
    work: Callable[[], int],
    min_seconds: float | None = None,
    idle_seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> EnergyPerEpoch:
    """Joules per epoch of `work()` (which runs some epochs, and says how many, its device synchronised),
    repeated until the window is `min_seconds` long; the idle power over `idle_seconds` before it.
    EnergyUnavailable when the counter does not move over the window (nothing to divide) or stops."""
    min_seconds = MIN_WINDOW_S if min_seconds is None else min_seconds
    idle_seconds = IDLE_S if idle_seconds is None else idle_seconds
    began, start = clock(), meter.joules()
    sleep(idle_seconds)
    idle_seconds = clock() - began
    idle_watts = (meter.joules() - start) / idle_seconds if idle_seconds > 0 else 0.0
    began, start = clock(), meter.joules()
    epochs = calls = 0
    while True:
        epochs += work()
        calls += 1
        if clock() - began >= min_seconds:
            break
    seconds, joules = clock() - began, meter.joules() - start
    if joules <= 0 or epochs <= 0:
        raise EnergyUnavailable(
            message(
                QT_TRANSLATE_NOOP(
                    "core", "the energy counter of {device} did not move in {seconds} s: it cannot meter this"
                ),
                device=meter.device,
                seconds=f"{seconds:.1f}",
            )
        )
    # Less than idle in the window is the counter's noise around a draw the work hardly moved (a small step on a
    # CPU whose background load fell): the work added nothing measurable, not a negative amount.
    above = max(0.0, joules - idle_watts * seconds)
    return EnergyPerEpoch(
        meter.device, meter.source, joules / epochs, above / epochs, idle_watts, seconds, epochs, calls
    )


def status(device: str, pci_bus_id: str | None = None, root: Path = POWERCAP) -> Message | None:
    """Why `device`'s energy cannot be metered here (None: it can)."""
    try:
        meter_for(device, pci_bus_id, root)
    except EnergyUnavailable as unavailable:
        return unavailable.message
    return None
