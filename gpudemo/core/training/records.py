"""What a run says of itself: its phases, a batch of losses as the loop yields it, and its result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gpudemo.core.base import pace
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training.landscape import Landscape

if TYPE_CHECKING:
    from torch import nn

# The phases a run goes through, in order, as the tutorial names them.
TO_DEVICE = "to_device"
PREPARING_STEP = "preparing_step"  # compiling or capturing the step, before the clock (not for an eager step)
TRAINING = "training"
TO_CPU = "to_cpu"
PREDICTING = "predicting"  # the last phase: the window predicts after the run
METERING = "metering"  # asked for, after a completed run: its step metered for energy (core/measure/joules.py)


@dataclass(frozen=True)
class DataSample:
    """What the fit view draws: up to DATA_SHOWN training points, and the grid the fit is evaluated on.

    A regression's x and y are (m,) and its grid the (FIT_POINTS,) x values. A 2-D classification's
    x is (m, 2), y the classes, and its grid the BOUNDARY_SIDE values of each axis over its area.
    """

    x: np.ndarray
    y: np.ndarray
    grid: np.ndarray
    classes: int = 0


@dataclass(frozen=True)
class LossBatch:
    first_epoch: int  # the 1-based epoch of losses[0]
    losses: np.ndarray  # float32, one per epoch
    # The model's output on DataSample.grid after last_epoch, when evaluated: a regression's y, or a 2-D
    # classification's class probabilities, (BOUNDARY_SIDE, BOUNDARY_SIDE, classes), row i at x2 = grid[i].
    fit: np.ndarray | None = None
    data: DataSample | None = None  # on the first batch only
    seconds: float = 0.0  # from the run's first step to this batch's losses on the host
    landscape: Landscape | None = None  # a new loss landscape around the path (first batch, or the path left it)
    accuracy: np.ndarray | None = None  # a classification's training accuracy of each epoch of `losses`
    test_accuracy: float | None = None  # the accuracy on the test set after last_epoch, when evaluated

    @property
    def last_epoch(self) -> int:
        return self.first_epoch + len(self.losses) - 1


@dataclass(frozen=True)
class TrainingResult:
    status: str  # COMPLETED, STOPPED or DIVERGED
    config: TrainingConfig
    model: nn.Module  # on the CPU, ready to predict
    losses: np.ndarray  # float32, the loss of every epoch run, in order
    seconds: float  # from the first step to the last loss on the host
    diverged_at: int | None = None  # the first epoch whose loss was not finite
    path: np.ndarray | None = None  # (epochs_run + 1, 2): (w, b) at the start and after every epoch, when asked
    to_device_seconds: float = 0.0  # moving the model and the data to the device (not in `seconds`)
    warm_up_seconds: float = 0.0  # the untimed first step on the device (not in `seconds`)
    # A classification's: each epoch's training accuracy (of its batches, before their steps), and
    # the final model's accuracy on the training data and (where there is one) the test set.
    accuracies: np.ndarray | None = None
    accuracy: float | None = None
    test_accuracy: float | None = None
    compile_seconds: float = 0.0  # compiling (torch.compile) or capturing (CUDA graphs) the step, before the clock
    recompiles: int = 0  # graphs torch.compile built after the clock started (0: every shape was warmed before)
    busy: bool = False  # other processes took cores the CPU run needed (measure/busy.py): its rate is too slow

    @property
    def epochs_run(self) -> int:
        return len(self.losses)

    @property
    def final_loss(self) -> float | None:
        return float(self.losses[-1]) if len(self.losses) else None

    @property
    def epochs_per_second(self) -> float:
        return pace.rate(self.epochs_run, self.seconds)

    @property
    def parameters(self) -> dict[str, float]:
        return problem_for(self.config).describe(self.model)
