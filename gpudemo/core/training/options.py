"""How a run is steered and what it records: the loop's options, one object.

The command line asks for a stop and a phase; the window's worker for all of it (pause and step, the fit,
the path through the landscape, the accuracy); the measurements for a warm allocator cache. Each fills
what it needs, and the loop reads the rest as the tutorial's loop runs: nothing watched.
Loads without torch (the window builds its options before PyTorch has loaded).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpudemo.core.base.control import RunControl, never

if TYPE_CHECKING:
    from torch import nn

    from gpudemo.core.training.history import LossHistory
    from gpudemo.core.training.landscape import PathHistory

FLUSH_SECONDS = 0.05  # read losses back at most 20 times a second (core/training/readback.py)


def _ignore(phase: str) -> None:
    pass


@dataclass(frozen=True)
class LoopOptions:
    """- `should_stop`: asked before every epoch (a `control` answers it where one is given).
    - `on_phase`: told each phase (core/training/records.py).
    - `control`: the run can also be paused before any epoch: the losses so far are read back,
      `on_pause(epochs, a CPU copy of the model)` is told, and the loop waits for a resume, a step (one
      epoch, then paused again) or a stop. Paused time is left out of the timing, and the numbers are
      those of a run that was never paused.
    - `history`, `accuracy`: empty histories the losses and a classification's accuracy (each epoch's, read
      back with the losses in the same copy) go into: new ones when not given; pass them to draw a run as
      it goes.
    - `path` (a model of two parameters, Problem.plane): the parameters at the start and after every epoch
      go into it, and batches carry a loss landscape around the path at the start and whenever the path
      leaves it (its time left out of the timing too).
    - `fit`: batches carry the model's output on a grid of x for the fit view, the first one the data to
      draw it against (and a classification's test accuracy, where it has a test set).
    - `flush_seconds`: the longest wait before losses are read back.
    - `keep_cache`: a GPU's allocator keeps its cache after the run (a warm-up before a timed run)."""

    should_stop: Callable[[], bool] = never
    on_phase: Callable[[str], None] = _ignore
    control: RunControl | None = None
    on_pause: Callable[[int, nn.Module], None] | None = None
    history: LossHistory | None = None
    accuracy: LossHistory | None = None
    path: PathHistory | None = None
    fit: bool = False
    flush_seconds: float = FLUSH_SECONDS
    keep_cache: bool = False

    def stop_asked(self) -> Callable[[], bool]:
        """What the loop asks before every epoch: the control's stop where there is one."""
        return self.control.should_stop if self.control is not None else self.should_stop


UNWATCHED = LoopOptions()  # a run nobody steers, recording into histories of its own
