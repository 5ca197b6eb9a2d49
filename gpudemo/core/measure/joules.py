"""Joules per epoch of a run's step, metered by the device's energy counter (core/hardware/energy.py).

An epoch of microseconds is far under the counters' ~100 ms tick, so the step is run again, as the run
takes it (its mode prepared first, not metered), in batches of epochs until the window is long enough
(MIN_WINDOW_S), after the device's idle power is metered: the figure is that of the run's step, repeated,
and says so (`calls`). Where the device has no counter, EnergyUnavailable says why, and nothing runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from gpudemo.core.base.errors import TrainingError
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message
from gpudemo.core.hardware.devices import synchronize
from gpudemo.core.hardware.energy import EnergyPerEpoch, EnergyUnavailable, Meter, measure, meter_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import Stopped
from gpudemo.core.training import not_prepared, prepared

BATCH_S = 0.25  # each call of the work runs about this long, so a stop or the window's end comes soon


def bus_id(device: str) -> str | None:
    """A CUDA GPU's PCI bus id, which NVML finds it by (None for any other device)."""
    if not device.startswith("cuda"):
        return None
    import torch

    from gpudemo.core.hardware.devices import pci_bus_id

    return pci_bus_id(torch.cuda.get_device_properties(torch.device(device)))


def meter_of(device: str) -> Meter:
    """`device`'s energy counter (EnergyUnavailable saying why it has none)."""
    return meter_for(device, bus_id(device))


@dataclass(frozen=True)
class RunEnergy:
    """A run's energy as it was asked for: metered (`figures`), or whether the device has a counter and why
    it was not metered (`reason`, a sentence the window translates)."""

    available: bool  # the device has a counter here
    figures: EnergyPerEpoch | None = None
    reason: Message | None = None

    @property
    def measured(self) -> bool:
        return self.figures is not None

    def to_json(self) -> dict:
        """The "energy" block of a run's JSON."""
        block = {"available": self.available, "measured": self.measured, "reason": self.reason and str(self.reason)}
        return {**block, **self.figures.to_json()} if self.figures is not None else block


def run_energy(config: TrainingConfig, metered: bool, should_stop: Callable[[], bool] = lambda: False) -> RunEnergy:
    """The joules per epoch of `config`'s step where `metered` and its device has a counter; else whether it
    has one, and why not. Never raises for the device: a failure or a stop while metering is its reason."""
    try:
        meter = meter_of(config.device)
        if not metered:
            return RunEnergy(True)
        return RunEnergy(True, joules_per_epoch(config, meter, should_stop=should_stop))
    except EnergyUnavailable as unavailable:
        return RunEnergy(False, reason=unavailable.message)
    except TrainingError as error:  # the device failed while the step was metered
        return RunEnergy(True, reason=error.message)
    except Stopped:
        return RunEnergy(True, reason=Message(QT_TRANSLATE_NOOP("core", "stopped while it was metered")))


def energy_json(config: TrainingConfig, metered: bool, should_stop: Callable[[], bool] = lambda: False) -> dict:
    """The "energy" block of a run's JSON (see run_energy)."""
    return run_energy(config, metered, should_stop).to_json()


def joules_per_epoch(
    config: TrainingConfig,
    meter: Meter | None = None,
    min_seconds: float | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> EnergyPerEpoch:
    """`config`'s step metered on its device (`meter`: its counter, found when not given; EnergyUnavailable
    when there is none, before anything runs). TrainingError as a run's when the device fails."""
    meter = meter if meter is not None else meter_of(config.device)
    with prepared(config) as run:
        try:
            run.prepare_step(with_path=False)
        except (MemoryError, RuntimeError) as error:
            raise not_prepared(config, error) from None
        epochs = [1]

        def work() -> int:
            """Epochs for about BATCH_S, the device synchronised at the end: how many ran."""
            began, done = time.perf_counter(), 0
            while done < epochs[0]:
                if should_stop():  # not a figure of a cut window
                    raise Stopped
                done += run.advance()
            synchronize(run.device)
            took = time.perf_counter() - began
            epochs[0] = max(1, int(epochs[0] * min(10.0, BATCH_S / took))) if took > 0 else epochs[0] * 10
            return done

        return measure(meter, work, min_seconds)
