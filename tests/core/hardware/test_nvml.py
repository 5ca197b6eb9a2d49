"""Live GPU metrics through NVML, replaced by a fake: read when it answers, absent (never an error) when not."""

import sys
from types import SimpleNamespace

import pytest

from gpudemo.core.hardware import nvml
from gpudemo.core.hardware.nvml import GpuMetrics, read_gpu_metrics


class FakeNvml:
    NVML_CLOCK_SM = 1
    NVML_TEMPERATURE_GPU = 0

    def __init__(self, fail_init=False, no_power=False):
        self.fail_init, self.no_power = fail_init, no_power
        self.asked = []

    def nvmlInit(self):
        if self.fail_init:
            raise RuntimeError("NVML Shared Library Not Found")

    def nvmlDeviceGetHandleByPciBusId(self, bus):
        self.asked.append(bus)
        if bus != "0000:1b:00.0":
            raise RuntimeError("Not Found")
        return "handle"

    def nvmlDeviceGetUtilizationRates(self, handle):
        return SimpleNamespace(gpu=87, memory=40)

    def nvmlDeviceGetPowerUsage(self, handle):
        if self.no_power:
            raise RuntimeError("Not Supported")
        return 312_400

    def nvmlDeviceGetClockInfo(self, handle, kind):
        return 1980

    def nvmlDeviceGetTemperature(self, handle, kind):
        return 54


@pytest.fixture
def fake(monkeypatch):
    def install(**kwargs):
        module = FakeNvml(**kwargs)
        monkeypatch.setitem(sys.modules, "pynvml", module)
        nvml.reset()
        return module

    yield install
    nvml.reset()


def test_the_gpus_figures_are_read_by_its_bus(fake):
    module = fake()
    assert read_gpu_metrics("0000:1b:00.0") == GpuMetrics(87, 312.4, 1980, 54)
    assert module.asked == ["0000:1b:00.0"]
    assert read_gpu_metrics("0000:99:00.0") is None  # not an NVML GPU: nothing


def test_a_figure_the_board_does_not_report_is_left_out(fake):
    fake(no_power=True)
    assert read_gpu_metrics("0000:1b:00.0") == GpuMetrics(87, None, 1980, 54)


def test_without_nvml_there_are_no_metrics_and_no_error(fake, monkeypatch):
    fake(fail_init=True)
    assert read_gpu_metrics("0000:1b:00.0") is None
    monkeypatch.setitem(sys.modules, "pynvml", None)  # not installed: import fails
    nvml.reset()
    assert read_gpu_metrics("0000:1b:00.0") is None
    assert read_gpu_metrics(None) is None


@pytest.mark.gui
def test_the_memory_line_shows_them(qtbot):
    from gpudemo.core.hardware.machine import MemoryReading
    from tests.ui.windows import open_window

    window = open_window(qtbot)
    reading = MemoryReading("cuda:0", 2**30, 2**31, 2**34, GpuMetrics(87, 312.4, 1980, 54))
    window.devicePanel.show_memory(reading)
    text = window.devicePanel.memoryLabel.text()
    assert "87% busy · 312 W · 1,980 MHz · 54 °C" in text and "1.0 GiB allocated" in text
    window.devicePanel.show_memory(MemoryReading("cuda:0", 2**30, 2**31, 2**34))
    assert "busy" not in window.devicePanel.memoryLabel.text()
