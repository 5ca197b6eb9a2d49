"""The training loop: the tutorial's five lines, run on any device, watched from outside.

The loop yields the loss in batches (one read-back from the device per batch, not
an `.item()` per epoch, which would stall a GPU at every step) and checks a stop
request before every epoch. Whoever drives it, the command line or the window's
worker thread, sees the same numbers the tutorial's own loop computes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from gpudemo.core.history import LossHistory
from gpudemo.core.problems import OPTIMIZERS, PROBLEMS
from gpudemo.core.settings import TrainingConfig
from gpudemo.core.steps import direct_call, step_function, zero_grad_function

COMPLETED = "completed"
STOPPED = "stopped"
DIVERGED = "diverged"

# The phases a run goes through, in order, as the tutorial names them.
TO_DEVICE = "to_device"
TRAINING = "training"
TO_CPU = "to_cpu"

FLUSH_SECONDS = 0.05  # read losses back at most 20 times a second...
FLUSH_EPOCHS = 8192  # ...or after this many epochs, whichever comes first
# The first epoch's loss is read back on its own, at once: a person who pressed Start
# sees the first point as soon as it exists, not a flush interval later.


_warm = threading.Event()  # set once torch's optimizer code is loaded in this process


def is_warm() -> bool:
    """Whether a run would start at once, or first wait for torch to load its optimizer code."""
    return _warm.is_set()


class TrainingError(RuntimeError):
    """The device failed during a run (out of memory, a lost GPU, a driver error)."""


@dataclass(frozen=True)
class LossBatch:
    first_epoch: int  # the 1-based epoch of losses[0]
    losses: np.ndarray  # float32, one per epoch

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

    @property
    def epochs_run(self) -> int:
        return len(self.losses)

    @property
    def final_loss(self) -> float | None:
        return float(self.losses[-1]) if len(self.losses) else None

    @property
    def epochs_per_second(self) -> float:
        return self.epochs_run / self.seconds if self.seconds > 0 else 0.0

    @property
    def parameters(self) -> dict[str, float]:
        return PROBLEMS[self.config.problem].describe(self.model)


def _never() -> bool:
    return False


def _ignore(phase: str) -> None:
    pass


def run_training(
    config: TrainingConfig,
    should_stop: Callable[[], bool] = _never,
    on_phase: Callable[[str], None] = _ignore,
    flush_seconds: float = FLUSH_SECONDS,
    history: LossHistory | None = None,
) -> Generator[LossBatch, None, TrainingResult]:
    """Train as the tutorial does, yielding losses in batches; returns the TrainingResult.

    The losses go into `history` (a new one when not given: pass one to draw it while
    the run goes). Raises TrainingError when the device fails; a loss that is not
    finite ends the run with status DIVERGED instead.
    """
    if history is None:
        history = LossHistory(config.epochs)
    elif history.count or history.capacity < config.epochs:
        raise ValueError(f"pass an empty history with room for {config.epochs} epochs")
    problem = PROBLEMS[config.problem]
    try:
        on_phase(TO_DEVICE)
        device = torch.device(config.device)
        torch.manual_seed(config.seed)
        model = problem.make_model().to(device)
        x_train, y_train = problem.make_data(device)
        criterion = problem.make_loss().to(device)
        optimizer = OPTIMIZERS[config.optimizer](model.parameters(), config.lr)
        _warm.set()
    except RuntimeError as error:
        raise TrainingError(f"could not prepare {config.device}: {error}") from error

    pending: list[torch.Tensor] = []  # losses still on the device
    status = COMPLETED
    diverged_at = None

    def flush() -> LossBatch:
        nonlocal diverged_at
        values = torch.stack(pending).to("cpu", torch.float32).numpy()
        pending.clear()
        first = history.count + 1
        bad = ~np.isfinite(values)
        if bad.any():  # keep the losses up to and including the first bad one
            diverged_at = first + int(bad.argmax())
            values = values[: diverged_at - first + 1]
        return LossBatch(first, history.extend(values))

    forward, loss_of = direct_call(model), direct_call(criterion)
    zero_grad, step = zero_grad_function(optimizer), step_function(optimizer)
    on_phase(TRAINING)
    start = time.perf_counter()
    next_flush = start  # due after the first epoch
    try:
        for _epoch in range(config.epochs):
            if should_stop():
                status = STOPPED
                break
            zero_grad()
            loss = loss_of(forward(x_train), y_train)
            loss.backward()
            step()
            pending.append(loss.detach())
            if len(pending) >= FLUSH_EPOCHS or time.perf_counter() >= next_flush:
                yield flush()
                if diverged_at is not None:
                    break
                next_flush = time.perf_counter() + flush_seconds
        if pending:
            yield flush()
        if diverged_at is not None:
            status = DIVERGED
        seconds = time.perf_counter() - start
        on_phase(TO_CPU)
        model = model.to("cpu")
    except RuntimeError as error:
        raise TrainingError(f"training on {config.device} failed: {error}") from error
    return TrainingResult(status, config, model, history.values, seconds, diverged_at)


def train(
    config: TrainingConfig,
    should_stop: Callable[[], bool] = _never,
    on_batch: Callable[[LossBatch], None] | None = None,
    on_phase: Callable[[str], None] = _ignore,
    history: LossHistory | None = None,
) -> TrainingResult:
    """Run `run_training` to the end, handing each batch of losses to `on_batch`."""
    run = run_training(config, should_stop, on_phase, history=history)
    while True:
        try:
            batch = next(run)
        except StopIteration as finished:
            return finished.value
        if on_batch is not None:
            on_batch(batch)


def warm_up() -> None:
    """Load what torch loads on its first optimizer (~800 modules, a second or more).

    The window calls this on a thread of its own at start, so that the first press of
    Start trains at once instead of importing.
    """
    parameter = torch.zeros(1, requires_grad=True)
    OPTIMIZERS["sgd"]([parameter], 0.1)
    _warm.set()
