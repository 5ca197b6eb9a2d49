"""A fake energy counter for the tests (core/hardware/energy.py's Meter): a steady draw, nothing above it."""

import time

from gpudemo.core.hardware import energy


class Steady(energy.Meter):
    """`watts` all the time: the idle power, and nothing above it."""

    device, source = "cpu", "fake"

    def __init__(self, watts: float):
        self.watts, self.began = watts, time.monotonic()

    def joules(self) -> float:
        return self.watts * (time.monotonic() - self.began)


def metered_quickly(monkeypatch, watts: float = 5.0) -> None:
    """Every device metered by a Steady counter, over a short window (0.05 s idle, 0.2 s of the step)."""
    from gpudemo.core.measure import joules

    monkeypatch.setattr(joules, "meter_for", lambda device, bus: Steady(watts))
    monkeypatch.setattr(energy, "IDLE_S", 0.05)
    monkeypatch.setattr(energy, "MIN_WINDOW_S", 0.2)


def without_counters(monkeypatch) -> None:
    """No powercap folder, as on a virtual machine: the CPU has no counter (and this machine has no GPU)."""
    from gpudemo.core.measure import joules

    monkeypatch.setattr(energy, "POWERCAP", energy.POWERCAP.with_name("nowhere-at-all"))
    monkeypatch.setattr(joules, "meter_for", lambda device, bus: energy.meter_for(device, bus, root=energy.POWERCAP))
