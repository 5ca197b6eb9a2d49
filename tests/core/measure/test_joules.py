"""A run's joules per epoch (core/measure/joules.py) with a fake counter: the step repeated to the window,
idle apart; the command line's energy block, measured or with the reason."""

import json

import pytest

from gpudemo.core.hardware import energy
from gpudemo.core.measure import joules
from gpudemo.core.settings.config import TrainingConfig
from tests.commands import gpudemo
from tests.meters import Steady, metered_quickly, without_counters


def test_the_step_is_repeated_to_the_window_and_idle_is_measured_apart(monkeypatch):
    monkeypatch.setattr(energy, "IDLE_S", 0.05)
    found = joules.joules_per_epoch(TrainingConfig(), Steady(10.0), min_seconds=0.3)
    assert found.seconds >= 0.3 and found.calls > 1 and found.epochs > 100
    assert found.idle_watts == pytest.approx(10.0, rel=0.05)
    assert found.joules_per_epoch == pytest.approx(10.0 * found.seconds / found.epochs, rel=0.05)
    assert abs(found.above_idle_per_epoch) < 0.05 * found.joules_per_epoch  # a steady draw: nothing above idle


def test_train_says_why_there_is_no_energy_or_meters_it(monkeypatch):
    monkeypatch.setattr(energy, "POWERCAP", energy.POWERCAP.with_name("nowhere-at-all"))
    monkeypatch.setattr(joules, "meter_for", lambda device, bus: energy.meter_for(device, bus, root=energy.POWERCAP))
    out = gpudemo("train", "--device", "cpu", "--epochs", "20", "--json")
    block = json.loads(out.stdout)["energy"]
    assert block["available"] is False and "no energy counter here" in block["reason"]
    monkeypatch.setattr(joules, "meter_for", lambda device, bus: Steady(5.0))
    monkeypatch.setattr(energy, "IDLE_S", 0.05)
    monkeypatch.setattr(energy, "MIN_WINDOW_S", 0.2)
    block = json.loads(gpudemo("train", "--device", "cpu", "--epochs", "20", "--json", "--energy").stdout)["energy"]
    assert block["measured"] and block["source"] == "fake" and block["joules_per_epoch"] > 0 and block["repeated"] > 1
    text = gpudemo("train", "--device", "cpu", "--epochs", "20", "--energy").stdout
    assert "J/epoch" in text and "W idle; fake: the step repeated" in text


def test_compare_meters_each_completed_run_when_asked(monkeypatch):
    monkeypatch.setattr(joules, "meter_for", lambda device, bus: Steady(5.0))
    monkeypatch.setattr(energy, "IDLE_S", 0.05)
    monkeypatch.setattr(energy, "MIN_WINDOW_S", 0.2)
    rows = json.loads(gpudemo("compare", "--device", "cpu", "--epochs", "20", "--json", "--energy").stdout)
    assert rows[0]["energy"]["measured"] and rows[0]["energy"]["joules_per_epoch"] > 0
    assert json.loads(gpudemo("compare", "--device", "cpu", "--epochs", "20", "--json").stdout)[0]["energy"] is None
    text = gpudemo("compare", "--device", "cpu", "--epochs", "20", "--energy").stdout
    assert "J/EPOCH ABOVE IDLE" in text


def test_a_stop_while_metering_is_its_reason_not_a_figure_of_a_cut_window(monkeypatch):
    monkeypatch.setattr(joules, "meter_for", lambda device, bus: Steady(5.0))
    monkeypatch.setattr(energy, "IDLE_S", 0.01)
    asked = []

    def stop_on_the_second_look() -> bool:
        asked.append(True)
        return len(asked) > 1

    found = joules.run_energy(TrainingConfig(), True, stop_on_the_second_look)
    assert found.available and not found.measured and str(found.reason) == "stopped while it was metered"
    assert found.to_json() == {"available": True, "measured": False, "reason": "stopped while it was metered"}


def test_a_sweep_meters_each_size_and_finds_where_the_gpu_uses_less_energy(monkeypatch):
    from gpudemo.core.measure.sweep import SweepRequest, SweepResult, SweepRow, sweep

    metered_quickly(monkeypatch)
    result = sweep(SweepRequest(devices=("cpu",), sizes=[10, 1000], energy=True))
    assert result.metered and result.not_metered == {} and [row.size for row in result.rows] == [10, 1000]
    assert all(row.energy is not None and row.energy.joules_per_epoch > 0 for row in result.rows)
    data = result.to_json()
    assert data["energy_crossover"] == {} and data["rows"][0]["energy_source"] == "fake"
    # Where a GPU's epoch takes fewer joules than the CPU's, size by size (idle included)
    cpu = [SweepRow("cpu", size, 1e-4, 1.0, energy=_joules(j)) for size, j in ((10, 0.01), (1000, 0.02), (10**5, 1.0))]
    gpu = [
        SweepRow("cuda:0", size, 1e-4, 1.0, energy=_joules(j)) for size, j in ((10, 0.05), (1000, 0.03), (10**5, 0.1))
    ]
    assert SweepResult("step", "float32", cpu + gpu, metered=True).energy_crossover == {"cuda:0": 10**5}
    assert SweepResult("step", "float32", cpu + gpu[:2], metered=True).energy_crossover == {"cuda:0": None}


def test_a_sweep_without_a_counter_says_why_and_times_as_before(monkeypatch):
    from gpudemo.core.measure.sweep import SweepRequest, sweep

    without_counters(monkeypatch)
    result = sweep(SweepRequest(devices=("cpu",), sizes=[10], energy=True))
    assert [row.energy for row in result.rows] == [None] and "no energy counter here" in str(result.not_metered["cpu"])
    assert "no energy counter here" in result.to_json()["energy_not_metered"]["cpu"]
    assert "energy_crossover" not in sweep(SweepRequest(devices=("cpu",), sizes=[10])).to_json()  # not asked: not said
    text = gpudemo("sweep", "--device", "cpu", "--max-size", "10", "--energy").stdout
    assert "J/EPOCH" in text and "cpu's energy not metered: the CPU has no energy counter here" in text


def _joules(per_epoch: float) -> energy.EnergyPerEpoch:
    return energy.EnergyPerEpoch("x", "fake", per_epoch, per_epoch / 2, 10.0, 4.0, 100, 3)
