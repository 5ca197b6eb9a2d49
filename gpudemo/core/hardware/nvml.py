"""Live GPU metrics from NVIDIA's management library (NVML, the `nvidia-ml-py` package): how busy the
chosen GPU is, its power, its clock and its temperature, as `nvidia-smi` shows them.

Optional and lazy: imported on the first reading of a CUDA device; where the package or the
driver's library is missing, or NVML fails, there are no metrics (None) and the memory line
stays as it was, never an error. A GPU is found by its PCI bus id, so CUDA_VISIBLE_DEVICES
renumbering cannot pick another GPU's figures.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass

_lock = threading.Lock()
_state: dict[str, object] = {}  # "nvml": the module once initialised, or "failed": True


@dataclass(frozen=True)
class GpuMetrics:
    utilization: int | None  # % of the last sample period a kernel ran
    power_watts: float | None
    sm_clock_mhz: int | None
    temperature_c: int | None


def _nvml():
    """The initialised pynvml module, or None (missing, or it failed once: not tried again)."""
    with _lock:
        if "nvml" in _state:
            return _state["nvml"]
        if _state.get("failed"):
            return None
        try:
            nvml = importlib.import_module("pynvml")
            nvml.nvmlInit()
        except Exception:  # not installed, no driver library, no permission: no metrics
            _state["failed"] = True
            return None
        _state["nvml"] = nvml
        return nvml


def library():
    """The initialised pynvml module, or None where it is missing or failed (core/hardware/energy.py reads its
    counter)."""
    return _nvml()


def _read(call, *args):
    try:
        return call(*args)
    except Exception:  # one figure the GPU does not report (power on some boards): leave it out
        return None


def read_gpu_metrics(pci_bus_id: str | None) -> GpuMetrics | None:
    """The GPU's figures now, or None where NVML cannot say."""
    if not pci_bus_id:
        return None
    nvml = _nvml()
    if nvml is None:
        return None
    try:
        handle = nvml.nvmlDeviceGetHandleByPciBusId(pci_bus_id)
    except Exception:
        return None
    rates = _read(nvml.nvmlDeviceGetUtilizationRates, handle)
    milliwatts = _read(nvml.nvmlDeviceGetPowerUsage, handle)
    return GpuMetrics(
        utilization=getattr(rates, "gpu", None),
        power_watts=milliwatts / 1000 if milliwatts is not None else None,
        sm_clock_mhz=_read(nvml.nvmlDeviceGetClockInfo, handle, getattr(nvml, "NVML_CLOCK_SM", 1)),
        temperature_c=_read(nvml.nvmlDeviceGetTemperature, handle, getattr(nvml, "NVML_TEMPERATURE_GPU", 0)),
    )


def reset() -> None:
    """Forget NVML (tests)."""
    with _lock:
        _state.clear()
