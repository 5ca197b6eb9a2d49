"""The training room: a run of the tutorial's loop on any device, watched from outside.

Its files, from the ground up (an import contract keeps the order): `records` (the phases, a batch of
losses, a run's result) and `failures` (how a run that cannot go on ends, in a sentence); `run` (a run
prepared on its device from its plan (core/training/plan.py), its steps taken as its mode (core/step/modes.py) takes
them: model, data, optimizer and step, an epoch, the warm-up, the step compiled or captured before the
clock, what the views are shown, its release; `prepared` for measuring steps);
`options` (how a run is steered and what it records: the loop's options, one object);
`readback` (the epochs' records brought back in batches, trimmed at a divergence, with the fit and the
landscape beside, in flight bounded by time); `loop` (the loop itself: prepare, warm, compile or
capture, then epochs with pause and stop, the clock, the result; `train`).

What a run says of itself (its phases, batches and result: `records`, and the end states) loads without
torch: the window names them before PyTorch has loaded. The rest, which runs torch, is imported the
first time it is asked for (PEP 562), so `from gpudemo.core.training import train` works as before.
"""

import importlib

from gpudemo.core.base.control import COMPLETED, DIVERGED, FAILED, STOPPED
from gpudemo.core.base.errors import TrainingError
from gpudemo.core.step.modes import MODES, compiled_graphs
from gpudemo.core.training.options import LoopOptions
from gpudemo.core.training.records import (
    METERING,
    PREDICTING,
    PREPARING_STEP,
    TO_CPU,
    TO_DEVICE,
    TRAINING,
    DataSample,
    LossBatch,
    TrainingResult,
)

# Where each of the room's torch-holding names lives, imported on first use.
_WITH_TORCH = {
    "not_prepared": "gpudemo.core.training.failures",
    "run_training": "gpudemo.core.training.loop",
    "train": "gpudemo.core.training.loop",
    "BOUNDARY_SIDE": "gpudemo.core.training.run",
    "DATA_SHOWN": "gpudemo.core.training.run",
    "FIT_POINTS": "gpudemo.core.training.run",
    "PreparedRun": "gpudemo.core.training.run",
    "is_warm": "gpudemo.core.training.run",
    "prepared": "gpudemo.core.training.run",
    "warm_up": "gpudemo.core.training.run",
}


def __getattr__(name: str):
    if name not in _WITH_TORCH:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WITH_TORCH[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "LoopOptions",
    "COMPLETED",
    "DIVERGED",
    "FAILED",
    "MODES",
    "METERING",
    "PREDICTING",
    "PREPARING_STEP",
    "STOPPED",
    "TO_CPU",
    "TO_DEVICE",
    "TRAINING",
    "DataSample",
    "LossBatch",
    "TrainingError",
    "TrainingResult",
    "compiled_graphs",
    *_WITH_TORCH,
]
