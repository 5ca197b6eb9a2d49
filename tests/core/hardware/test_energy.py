"""Energy counters (core/hardware/energy.py) against a fake powercap tree and a fake NVML: wrap-around, permission
denied, a counter that does not move, a window too short (the work repeated), a device that disappears."""

import os

import pytest

from gpudemo.core.hardware import energy
from gpudemo.core.hardware.energy import EnergyUnavailable, NvmlMeter, RaplMeter, measure, meter_for


def _package(root, index, energy_uj, max_uj=262_143_328_850, name=None):
    zone = root / f"intel-rapl:{index}"
    zone.mkdir(parents=True)
    (zone / "name").write_text((name or f"package-{index}") + "\n")
    (zone / "energy_uj").write_text(f"{energy_uj}\n")
    (zone / "max_energy_range_uj").write_text(f"{max_uj}\n")
    sub = root / f"intel-rapl:{index}:0"  # a core sub-zone: not counted twice
    sub.mkdir()
    (sub / "name").write_text("core\n")
    (sub / "energy_uj").write_text("999999999\n")
    return zone


def test_the_packages_are_summed_and_a_wrapped_counter_counts_on(tmp_path):
    zero = _package(tmp_path, 0, 1_000_000, max_uj=10_000_000)
    one = _package(tmp_path, 1, 5_000_000)
    meter = RaplMeter(tmp_path)
    (zero / "energy_uj").write_text("9_500_000".replace("_", ""))
    (one / "energy_uj").write_text("6000000")
    assert meter.joules() == pytest.approx(8.5 + 1.0)
    (zero / "energy_uj").write_text("500000")  # wrapped at 10 J: 0.5 J to the top, 0.5 J after
    assert meter.joules() == pytest.approx(9.5 + 1.0)


@pytest.mark.linux
def test_no_powercap_no_package_and_root_only_each_say_why(tmp_path, monkeypatch):
    with pytest.raises(EnergyUnavailable, match="no .*nowhere.*a virtual machine"):
        RaplMeter(tmp_path / "nowhere")
    with pytest.raises(EnergyUnavailable, match="no RAPL package counter"):
        RaplMeter(tmp_path)
    zone = _package(tmp_path, 0, 1)
    os.chmod(zone / "energy_uj", 0)
    if os.geteuid() == 0:  # root reads it anyway: the denial is simulated
        original = type(zone).read_text

        def denied(path, *args, **kwargs):
            if path.name == "energy_uj":
                raise PermissionError(13, "Permission denied")
            return original(path, *args, **kwargs)

        monkeypatch.setattr(type(zone), "read_text", denied)
    with pytest.raises(EnergyUnavailable, match=r"readable by root only .*CVE-2020-8694.*chmod o\+r"):
        RaplMeter(tmp_path)


def test_a_counter_that_disappears_says_so(tmp_path):
    zone = _package(tmp_path, 0, 1)
    meter = RaplMeter(tmp_path)
    (zone / "energy_uj").unlink()
    with pytest.raises(EnergyUnavailable, match="stopped answering"):
        meter.joules()


class FakeNvml:
    def __init__(self, millijoules, supported=True):
        self.millijoules, self.supported, self.gone = millijoules, supported, False

    def nvmlDeviceGetHandleByPciBusId(self, bus):  # noqa: N802 (NVML's names)
        return bus

    def nvmlDeviceGetTotalEnergyConsumption(self, handle):  # noqa: N802
        if not self.supported:
            raise RuntimeError("Not Supported")
        if self.gone:
            raise RuntimeError("GPU is lost")
        return self.millijoules


def test_nvml_counts_millijoules_and_says_when_it_has_none_or_loses_the_gpu():
    library = FakeNvml(1_000_000)
    meter = meter_for("cuda:0", "0000:01:00.0", library=library)
    library.millijoules += 2_500
    assert isinstance(meter, NvmlMeter) and meter.joules() == pytest.approx(2.5)
    library.gone = True
    with pytest.raises(EnergyUnavailable, match="cuda:0's energy counter stopped answering: GPU is lost"):
        meter.joules()
    with pytest.raises(EnergyUnavailable, match="Volta and newer have one"):
        NvmlMeter("cuda:0", "0000:01:00.0", FakeNvml(0, supported=False))


def test_without_nvidia_ml_py_the_reason_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(energy.nvml, "library", lambda: None)
    with pytest.raises(EnergyUnavailable, match="pip install nvidia-ml-py"):
        meter_for("cuda:0", "0000:01:00.0")
    assert "no energy counter gpudemo can read" in str(energy.status("mps"))


class Clocked(energy.Meter):
    """A meter of a steady `watts` over a fake clock; the work adds `joules_per_epoch` an epoch."""

    device, source = "cpu", "fake"

    def __init__(self, watts, joules_per_epoch, epoch_seconds):
        self.now, self.total = 0.0, 0.0
        self.watts, self.per_epoch, self.epoch_seconds = watts, joules_per_epoch, epoch_seconds

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds
        self.total += self.watts * seconds

    def work(self):
        self.sleep(10 * self.epoch_seconds)
        self.total += 10 * self.per_epoch
        return 10

    def joules(self):
        return self.total


def test_a_short_run_is_repeated_to_the_counters_window_and_idle_is_shown_apart():
    meter = Clocked(watts=20.0, joules_per_epoch=0.001, epoch_seconds=0.01)  # 10 epochs: 0.1 s, far under 4 s
    found = measure(meter, meter.work, clock=meter.clock, sleep=meter.sleep)
    assert found.extended and found.seconds >= energy.MIN_WINDOW_S and found.epochs == 10 * found.calls
    assert found.idle_watts == pytest.approx(20.0)
    assert found.above_idle_per_epoch == pytest.approx(0.001)
    assert found.joules_per_epoch == pytest.approx(0.001 + 20.0 * 0.01)
    assert found.to_json()["repeated"] == found.calls


def test_a_window_that_drew_less_than_idle_says_nothing_above_idle_not_a_negative_amount():
    meter = Clocked(watts=20.2, joules_per_epoch=0.0, epoch_seconds=0.01)  # idle read a little high...

    def work():
        meter.watts = 20.0  # ...and the background's draw fell while the step ran
        return Clocked.work(meter)

    found = measure(meter, work, clock=meter.clock, sleep=meter.sleep)
    assert found.above_idle_per_epoch == 0.0 and found.joules_per_epoch == pytest.approx(20.0 * 0.01)


def test_a_counter_that_does_not_move_meters_nothing():
    meter = Clocked(watts=0.0, joules_per_epoch=0.0, epoch_seconds=0.5)
    with pytest.raises(EnergyUnavailable, match="did not move in .* s: it cannot meter this"):
        measure(meter, meter.work, clock=meter.clock, sleep=meter.sleep)
