"""The training room: a run of the tutorial's loop on any device, watched from outside.

Its files, from the ground up (an import contract keeps the order): `records` (the phases, a batch of
losses, a run's result) and `failures` (how a run that cannot go on ends, in a sentence); `run` (a run
prepared on its device from its plan (core/plan.py), its steps taken as its mode (core/modes.py) takes
them: model, data, optimizer and step, an epoch, the warm-up, the step compiled or captured before the
clock, what the views are shown, its release; `prepared` for measuring steps);
`readback` (the epochs' records brought back in batches, trimmed at a divergence, with the fit and the
landscape beside, in flight bounded by time); `loop` (the loop itself: prepare, warm, compile or
capture, then epochs with pause and stop, the clock, the result; `train`).
"""

from gpudemo.core.control import COMPLETED, DIVERGED, FAILED, STOPPED
from gpudemo.core.errors import TrainingError
from gpudemo.core.modes import MODES, compiled_graphs
from gpudemo.core.training.failures import not_prepared
from gpudemo.core.training.loop import run_training, train
from gpudemo.core.training.records import (
    PREPARING_STEP,
    TO_CPU,
    TO_DEVICE,
    TRAINING,
    DataSample,
    LossBatch,
    TrainingResult,
)
from gpudemo.core.training.run import (
    BOUNDARY_SIDE,
    DATA_SHOWN,
    FIT_POINTS,
    PreparedRun,
    is_warm,
    prepared,
    warm_up,
)

__all__ = [
    "BOUNDARY_SIDE",
    "COMPLETED",
    "DATA_SHOWN",
    "DIVERGED",
    "FAILED",
    "FIT_POINTS",
    "PREPARING_STEP",
    "STOPPED",
    "TO_CPU",
    "TO_DEVICE",
    "TRAINING",
    "DataSample",
    "LossBatch",
    "MODES",
    "PreparedRun",
    "TrainingError",
    "TrainingResult",
    "compiled_graphs",
    "is_warm",
    "not_prepared",
    "prepared",
    "run_training",
    "train",
    "warm_up",
]
