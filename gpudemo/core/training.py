"""The training loop: the tutorial's five lines, run on any device, watched from outside.

The loop yields the loss in batches (one read-back from the device per batch, not
an `.item()` per epoch, which would stall a GPU at every step) and checks a stop
request before every epoch. Whoever drives it, the command line or the window's
worker thread, sees the same numbers the tutorial's own loop computes.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from gpudemo.core import capture, pace, precision
from gpudemo.core.budget import batch_size, check_fits
from gpudemo.core.busy import OtherLoad
from gpudemo.core.config import TrainingConfig
from gpudemo.core.control import COMPLETED, DIVERGED, FAILED, STOPPED, RunControl, never
from gpudemo.core.devices import release_cache, synchronize
from gpudemo.core.errors import TrainingError
from gpudemo.core.history import LossHistory
from gpudemo.core.landscape import (
    Landscape,
    PathHistory,
    bounds_around,
    evaluate,
    least_squares,
    needs_new_grid,
)
from gpudemo.core.messages import QT_TRANSLATE_NOOP, epochs_phrase, message
from gpudemo.core.optimizers import OPTIMIZERS
from gpudemo.core.problems import problem_for
from gpudemo.core.step import COMPILED, EAGER, GRAPH, Step

__all__ = [
    "COMPLETED",
    "STOPPED",
    "DIVERGED",
    "FAILED",
    "TO_DEVICE",
    "PREPARING_STEP",
    "TRAINING",
    "TO_CPU",
    "LossBatch",
    "DataSample",
    "TrainingError",
    "TrainingResult",
    "run_training",
    "train",
    "warm_up",
    "is_warm",
]


# The phases a run goes through, in order, as the tutorial names them.
TO_DEVICE = "to_device"
PREPARING_STEP = "preparing_step"  # compiling or capturing the step, before the clock (not for an eager step)
TRAINING = "training"
TO_CPU = "to_cpu"

FLUSH_SECONDS = 0.05  # read losses back at most 20 times a second...
FLUSH_EPOCHS = 8192  # ...or after this many epochs, whichever comes first
# The first epoch's loss is read back on its own, at once: a person who pressed Start
# sees the first point as soon as it exists, not a flush interval later.

WARM_ROUNDS = 4  # a compiled step's warm-up: rounds over its batch shapes, until one compiles nothing

FIT_POINTS = 256  # the model is evaluated at this many x values for the fit view...
BOUNDARY_SIDE = 128  # ...or, for a 2-D classification, over a grid this many points a side, in one batched pass
FIT_SHARE = 0.1  # ...at a flush, but so that the evaluations take at most this share of the run
DATA_SHOWN = 2000  # training points handed to the fit view (the data is i.i.d.: the first ones are a fair sample)

# Devices whose first step pays one-time costs that a run's clock must not see (see _Run.warm_up).
WARMED_DEVICE_TYPES = frozenset({"cuda", "mps", "xpu"})

_warm = threading.Event()  # set once torch's optimizer code is loaded in this process


def is_warm() -> bool:
    """Whether a run would start at once, or first wait for torch to load its optimizer code."""
    return _warm.is_set()


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


def _ignore(phase: str) -> None:
    pass


class _Stopped(Exception):
    """A stop request in the middle of an epoch: that epoch is not counted."""


class _Run:
    """One run's model, data and step on its device; `release()` lets go of all of it."""

    def __init__(self, config: TrainingConfig, should_stop: Callable[[], bool]):
        problem = problem_for(config)
        self.device = torch.device(config.device)
        torch.manual_seed(config.seed)
        model = problem.make_model(config)
        x_train, y_train = problem.make_data(config, torch.Generator().manual_seed(config.seed))
        test = problem.make_test_data(config)
        # As the tutorial does: model and data made on the CPU, then moved. Timed apart from training.
        began = time.perf_counter()
        self.model = model.to(self.device)
        self.x_train, self.y_train = x_train.to(self.device), y_train.to(self.device)
        self.x_test, self.y_test = (test[0].to(self.device), test[1].to(self.device)) if test else (None, None)
        synchronize(self.device)
        self.to_device_seconds = time.perf_counter() - began
        del x_train, y_train, test
        self.generator = torch.Generator(device=self.device).manual_seed(config.seed)  # the minibatch shuffles
        self.criterion = problem.make_loss().to(self.device)
        graph = config.step == GRAPH
        capturable = graph and self.device.type == "cuda"  # (the tests run the captured loop on the CPU too)
        self.optimizer = OPTIMIZERS[config.optimizer].make(self.model.parameters(), config.lr, capturable=capturable)
        self.step = Step(self.model, self.criterion, self.optimizer, config, self.device, capture=graph,
                         keep_outputs=bool(problem.classes))  # fmt: skip
        self.captured: capture.CapturedEpochs | None = None  # the graph step's, once captured (prepare_step)
        self.forward, self.train_step = self.step.forward, self.step.take
        _warm.set()
        self.classes = problem.classes
        self.hits: torch.Tensor | None = None  # a classification's right answers in the last epoch, on the device
        if problem.area is not None:  # a 2-D classification: its decision boundary over the area
            self.axis = torch.linspace(*problem.area, BOUNDARY_SIDE, device=self.device)
            x2, x1 = torch.meshgrid(self.axis, self.axis, indexing="ij")
            self.grid = torch.stack((x1.reshape(-1), x2.reshape(-1)), dim=1)
        elif problem.inputs == 1:
            low, high = problem.x_range
            self.axis = self.grid = torch.linspace(low, high, FIT_POINTS, device=self.device).unsqueeze(1)
        else:  # images: nothing to draw a fit over
            self.axis = self.grid = None
        self.samples, self.batch = len(self.x_train), batch_size(config)
        self.config = config
        self.should_stop = should_stop
        self.plane = problem.plane(self.model)
        # Detached views of (w, b): they share the parameters' storage, so they see every step's update.
        self._plane_views = tuple(p.detach().view(1) for p in self.plane) if self.plane is not None else ()
        self.last_landscape: Landscape | None = None

    def position(self) -> torch.Tensor:
        """(w, b) as they stand, a copy still on the device: one op an epoch."""
        return torch.cat(self._plane_views)

    def landscape(self, path: PathHistory, minimum: tuple[float, float] | None) -> Landscape:
        return evaluate(self.x_train, self.y_train, bounds_around(path.low, path.high, minimum), minimum)

    def epoch(self) -> torch.Tensor:
        """One pass over the data; its loss (for minibatches, the mean over them), still on the device."""
        if self.batch >= self.samples:
            outputs, loss = self.train_step(self.x_train, self.y_train)
            if self.classes:
                self.hits = self._hits(outputs, self.y_train)
            return loss.detach()
        # The same statements, in the same order, as the generated script's minibatch loop.
        order = torch.randperm(self.samples, generator=self.generator, device=self.device)
        total, batches, hits = 0.0, 0, 0
        for start in range(0, self.samples, self.batch):
            if batches and self.should_stop():
                raise _Stopped
            index = order[start : start + self.batch]
            outputs, loss = self.train_step(self.x_train[index], self.y_train[index])
            total = total + loss.detach()
            if self.classes:
                hits = hits + self._hits(outputs, self.y_train[index])
            batches += 1
        if self.classes:
            self.hits = hits
        return total / batches

    @staticmethod
    def _hits(outputs: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        """How many of the outputs' classes are right, on the device (no sync)."""
        return (outputs.detach().argmax(1) == labels).sum()

    def accuracy(self, x: torch.Tensor, y: torch.Tensor) -> float:
        """The model's accuracy on (x, y) as it stands: one batched pass, read back."""
        with torch.no_grad():
            return self._hits(self.forward(x), y).item() / len(y)

    def warm_up(self) -> float:
        """One untimed step on a copy of the model, on the run's device: the seconds it took.

        A device's first step pays once for what later steps reuse: on a GPU the CUDA context's
        first use, the cuBLAS handle and workspace, kernel modules loaded on first launch and
        the first allocations (the caching allocator keeps them for the run). None of that
        belongs in the run's epochs per second. So the copy takes every kernel the timed loop
        launches: a minibatch's shuffle and gather, the step as the run takes it (autocast, and
        fp16's GradScaler with its overflow check), a classification's count of right answers,
        the read-back's stack and copy, and the fit's grid. The copy, with an optimizer, a
        scaler and a random generator of its own, leaves the run's model, optimizer state and
        random numbers exactly as they were.
        """
        if self.device.type not in WARMED_DEVICE_TYPES:
            return 0.0  # the CPU loads nothing per device (the optimizer's import is warm_up()'s)
        began = time.perf_counter()
        model = copy.deepcopy(self.model)
        optimizer = OPTIMIZERS[self.config.optimizer].make(model.parameters(), self.config.lr)
        # Eager: prepare_step compiles or captures the run's own step, once.
        step = Step(model, self.criterion, optimizer, dataclasses.replace(self.config, step=EAGER), self.device)
        x, y = self.x_train, self.y_train
        if self.batch < self.samples:  # the same kernels as a minibatch: a shuffle, then a gather by index
            generator = torch.Generator(device=self.device).manual_seed(0)
            index = torch.randperm(self.samples, generator=generator, device=self.device)[: self.batch]
            x, y = x[index], y[index]
        outputs, loss = step.take(x, y)
        losses = torch.stack([loss.detach(), loss.detach()]).float()
        if self.classes:
            losses = torch.cat((losses, torch.stack([self._hits(outputs, y)]).float()))
        losses.to("cpu", torch.float32)
        if self.grid is not None:
            with torch.no_grad():
                model(self.grid)
        del model, optimizer, step, x, y, outputs, loss, losses
        synchronize(self.device)
        return time.perf_counter() - began

    def prepare_step(self, with_path: bool) -> float:
        """Compile or capture the step before the clock; the seconds it took (0 for an eager step).

        Compiled: the step is taken twice for every shape the run will meet (the batch, and a last
        minibatch of another size), then rewound (core/step.py): the run starts from the weights and
        optimizer state it had, and no shape is first compiled inside the clock (one that was
        recompiled there: 1.17 s of 1.18 timed, on the CPU). Graph: the epochs are captured
        (core/capture.py), recording each epoch's loss, a classification's right answers and, for a
        `with_path`, (w, b)."""
        if self.config.step == EAGER:
            return 0.0
        began = time.perf_counter()
        if self.config.step == COMPILED:
            saved = self.step.saved()
            full = self.batch >= self.samples
            if full and self.step.mode == "reduce-overhead":
                # The full batch as the CUDA graphs' own inputs: not copied into them at every step (two
                # 40 MB copies a step at 10,000,000 samples). Warmed with these very tensors (whether an
                # input is static is decided from those seen at the compile).
                torch._dynamo.mark_static_address(self.x_train)
                torch._dynamo.mark_static_address(self.y_train)
            batches = [(self.x_train, self.y_train)] if full else []
            sizes = (
                [self.batch] + ([self.samples % self.batch] if self.samples % self.batch else []) if not full else []
            )
            for size in sizes:
                index = torch.arange(size, device=self.device)
                batches.append((self.x_train[index], self.y_train[index]))
            try:
                self._warm_compiled(batches)
            finally:
                self.step.rewind(saved)
        else:
            self.captured = capture.CapturedEpochs(
                self.step,
                self.x_train,
                self.y_train,
                self._records(with_path),
                self.config.epochs,
                capture=capture.cuda_graph,
                side_stream=self.device.type == "cuda",
            )
        synchronize(self.device)
        return time.perf_counter() - began + self.step.setup_seconds  # the compiler's loading too

    def _warm_compiled(self, batches: list[tuple[torch.Tensor, torch.Tensor]]) -> None:
        """Take steps on each batch shape until a whole round compiles nothing new: an optimizer makes its
        state on its first step (momentum's buffers: a graph more on the second call), a second size makes
        dynamic shapes, and CUDA-graph trees record a graph on the call after the one that compiled it. So
        nothing is compiled or recorded inside the clock (`recompiles` counts dynamo's graphs, not
        recordings: a round more than dynamo needs covers those). At most WARM_ROUNDS rounds."""
        for round_ in range(WARM_ROUNDS):
            before = compiled_graphs()
            for x, y in batches:
                for _ in range(2):
                    if self.should_stop():  # a compile cannot be interrupted, but the next one need not start
                        raise _Stopped
                    self.train_step(x, y)
            if round_ and compiled_graphs() == before:
                return

    def _records(self, with_path: bool) -> Callable[[torch.Tensor, torch.Tensor], list[torch.Tensor]]:
        """What an epoch records, for the captured epochs: its loss, a classification's right answers, (w, b)."""

        def records(outputs: torch.Tensor, loss: torch.Tensor) -> list[torch.Tensor]:
            kept = [loss.detach().float()]
            if self.classes:
                kept.append(self._hits(outputs, self.y_train))
            if with_path:
                kept.append(self.position())
            return kept

        return records

    def advance(self) -> int:
        """Epochs as the run takes them, outside its loop (a profile): one replay of the captured epochs, or one
        epoch; how many epochs it ran."""
        if self.captured is not None:
            return self.replay(self.captured.largest)[0]
        self.epoch()
        return 1

    def replay(self, epochs: int) -> tuple[int, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """The captured epochs: as many as fit in `epochs` (the captured run, or one); (how many, their
        losses, a classification's right answers, the path's (w, b)), each stacked, on the device."""
        size = self.captured.size_for(epochs)
        records = iter(self.captured.replay(size))
        losses = next(records)
        hits = next(records) if self.classes else None
        return size, losses, hits, next(records, None)

    def snapshot(self) -> nn.Module:
        """A CPU copy of the model as it stands, for predictions while the run is paused."""
        return copy.deepcopy(self.model).to("cpu")

    def fit(self) -> np.ndarray | None:
        """A regression's outputs on the grid; a 2-D classification's class probabilities over its area."""
        if self.grid is None:
            return None
        with torch.no_grad():
            outputs = self.forward(self.grid)
            if self.classes:
                side = len(self.axis)
                return torch.softmax(outputs, dim=1).reshape(side, side, -1).to("cpu", torch.float32).numpy()
            return outputs.reshape(-1).to("cpu", torch.float32).numpy()

    def data_sample(self) -> DataSample | None:
        if self.grid is None:
            return None
        shown = slice(0, DATA_SHOWN)
        if self.classes:
            x = self.x_train[shown].to("cpu", torch.float32).numpy()
            y = self.y_train[shown].to("cpu").numpy()
        else:
            x = self.x_train[shown].reshape(-1).to("cpu", torch.float32).numpy()
            y = self.y_train[shown].reshape(-1).to("cpu", torch.float32).numpy()
        return DataSample(x=x, y=y, grid=self.axis.reshape(-1).to("cpu", torch.float32).numpy(), classes=self.classes)

    def release(self, keep_cache: bool = False) -> None:
        """Let go of everything; on a GPU also hand the allocator's cache back, unless `keep_cache`
        (a warm-up whose allocations the timed run that follows should find ready)."""
        device = getattr(self, "device", None)
        step = getattr(self, "step", None)
        if step is not None:  # a compiled step's graphs, CUDA graphs and pool: in this thread, which made them
            step.release()
        self.__dict__.clear()
        if device is not None and not keep_cache:
            release_cache(device)


def _epochs_in_flight(seconds: float, epochs: int, flush_seconds: float) -> int:
    """How many epochs may be queued before the next read-back: those the device runs in `flush_seconds`, at
    the pace of the last `epochs` in `seconds` (at least one, at most FLUSH_EPOCHS)."""
    if epochs <= 0 or seconds <= 0:
        return FLUSH_EPOCHS
    return max(1, min(FLUSH_EPOCHS, int(flush_seconds * epochs / seconds)))


def compiled_graphs() -> int:
    """How many graphs torch.compile has built in this process so far."""
    from torch._dynamo.utils import counters  # loaded with torch.compile; only a compiled run asks

    return int(counters["stats"]["unique_graphs"])


def _failure(config: TrainingConfig, run: _Run | None, error: BaseException, epochs: int) -> TrainingError:
    """A TrainingError for `error`, after freeing everything the run held (frames of the traceback too)."""
    # The failing frames hold tensors of the run (an out-of-memory error's frames, the largest):
    # free them first, so that emptying the cache can hand their memory back too.
    traceback.clear_frames(error.__traceback__)
    if run is not None:
        run.release()
    device, count = config.device, epochs_phrase(epochs)
    if isinstance(error, (MemoryError, torch.cuda.OutOfMemoryError)):
        if epochs == 0:
            text = message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "{device} ran out of memory before it began; what the run"
                    " held is freed. Use fewer samples, a smaller batch or a smaller"
                    " model",
                ),
                device=device,
            )
        else:
            text = message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "{device} ran out of memory after {count}; what the run"
                    " held is freed. Use fewer samples, a smaller batch or a smaller"
                    " model",
                ),
                device=device,
                count=count,
            )
    elif epochs == 0:
        text = message(
            QT_TRANSLATE_NOOP("core", "could not prepare {device}: {reason}"), device=device, reason=str(error)
        )
    else:
        text = message(
            QT_TRANSLATE_NOOP("core", "training on {device} failed after {count}: {reason}"),
            device=device,
            count=count,
            reason=str(error),
        )
    if run is None:
        release_cache(config.device)
    return TrainingError(text)


def not_prepared(config: TrainingConfig, error: Exception) -> TrainingError:
    """The step could not be compiled or captured: the reason, in a sentence that names the mode."""
    reason = str(error).strip().splitlines()[0][:300] if str(error).strip() else type(error).__name__
    if config.step == COMPILED:
        template = QT_TRANSLATE_NOOP(
            "core", "torch.compile could not compile this step on {device}: {reason}; train without compiling"
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "core",
            "the step could not be captured in a CUDA graph on {device}: {reason}; use the eager or compiled step",
        )
    return TrainingError(message(template, device=config.device, reason=reason))


def run_training(
    config: TrainingConfig,
    should_stop: Callable[[], bool] = never,
    on_phase: Callable[[str], None] = _ignore,
    flush_seconds: float = FLUSH_SECONDS,
    history: LossHistory | None = None,
    fit: bool = True,
    control: RunControl | None = None,
    on_pause: Callable[[int, nn.Module], None] | None = None,
    path: PathHistory | None = None,
    keep_cache: bool = False,
    accuracy: LossHistory | None = None,
) -> Generator[LossBatch, None, TrainingResult]:
    """Train as the tutorial does, yielding losses in batches; returns the TrainingResult (see _run_training).

    A precision the device cannot do, or a step mode the run cannot take, is refused first
    (capture.check: precision.PrecisionRefused, capture.StepRefused); TF32 is set as the
    precision says for the run, and restored after.
    """
    capture.check(config)
    with precision.matmul_precision(config.precision):
        return (
            yield from _run_training(
                config,
                should_stop,
                on_phase,
                flush_seconds,
                history,
                fit,
                control,
                on_pause,
                path,
                keep_cache,
                accuracy,
            )
        )


def _run_training(
    config: TrainingConfig,
    should_stop: Callable[[], bool] = never,
    on_phase: Callable[[str], None] = _ignore,
    flush_seconds: float = FLUSH_SECONDS,
    history: LossHistory | None = None,
    fit: bool = True,
    control: RunControl | None = None,
    on_pause: Callable[[int, nn.Module], None] | None = None,
    path: PathHistory | None = None,
    keep_cache: bool = False,
    accuracy: LossHistory | None = None,
) -> Generator[LossBatch, None, TrainingResult]:
    """Train as the tutorial does, yielding losses in batches; returns the TrainingResult.

    The losses go into `history` (a new one when not given: pass one to draw it while
    the run goes). With `fit`, batches carry the model's output on a grid of x for the
    fit view, the first one the data to draw it against. Raises TrainingError when the
    run cannot fit on its device (before anything is allocated), runs out of memory or
    the device fails; a loss that is not finite ends the run with status DIVERGED.

    With a `control`, the run can also be paused before any epoch: the losses so far are
    read back, `on_pause(epochs, a CPU copy of the model)` is called, and the loop waits
    for a resume, a step (one epoch, then paused again) or a stop. Paused time is left
    out of the timing, and the numbers are those of a run that was never paused.

    With a `path` (for a model of two parameters, see Problem.plane), the parameters at the
    start and after every epoch go into it, and batches carry a loss landscape around the
    path at the start and whenever the path leaves it (its time left out of the timing too).

    The clock (`seconds`, epochs per second) covers the epochs and the read-backs of their
    losses. Moving the model and data to the device and one warm-up step on a copy of the
    model (on a GPU: the one-time costs of a device's first step) come before it, and are
    reported apart. With `keep_cache`, a GPU's allocator keeps its cache after the run.

    A classification also records each epoch's training accuracy into `accuracy` (a new
    history when not given), read back with the losses in the same copy; with `fit`, batches
    carry the test accuracy (where the problem has a test set) when the fit is evaluated.
    The final model's training and test accuracy are measured after the clock stops.
    """
    if control is not None:
        should_stop = control.should_stop
    if history is None:
        history = LossHistory(config.epochs)
    elif history.count or history.capacity < config.epochs:
        raise ValueError(f"pass an empty history with room for {config.epochs} epochs")
    if not problem_for(config).classes:
        accuracy = None
    elif accuracy is None:
        accuracy = LossHistory(config.epochs)
    elif accuracy.count or accuracy.capacity < config.epochs:
        raise ValueError(f"pass an empty accuracy history with room for {config.epochs} epochs")
    check_fits(config)
    run = None
    landscape = minimum = None
    try:
        on_phase(TO_DEVICE)
        run = _Run(config, should_stop)
        data = run.data_sample() if fit else None
        if run.plane is None:
            path = None
        if path is not None:
            path.extend(run.position().reshape(1, 2).to("cpu", torch.float32).numpy())
            minimum = least_squares(run.x_train, run.y_train)
            landscape = run.landscape(path, minimum)
    except Exception as error:  # a device fails to start in many ways ("Torch not compiled with CUDA" is an assert)
        raise _failure(config, run, error, 0) from None

    pending: list[torch.Tensor] = []  # losses still on the device: one per epoch, or (graph) one row per replay
    pending_epochs = 0  # the epochs of those losses
    pending_hits: list[torch.Tensor] = []  # a classification's right answers of those epochs
    positions: list[torch.Tensor] = []  # (w, b) after each of those epochs, with a path
    status = COMPLETED
    diverged_at = None
    next_fit = 0.0  # when the fit may be evaluated again
    paused = 0.0  # seconds spent paused or drawing landscapes, left out of the timing

    join = torch.cat if config.step == GRAPH else torch.stack  # a graph's replays give rows of epochs

    def flush(final: bool = False, salvage: bool = False) -> LossBatch:
        nonlocal diverged_at, data, next_fit, landscape, paused, pending_epochs
        hits = None
        if pending_hits:  # one copy back for both: the hits ride with the losses
            both = torch.cat((join(pending).float(), join(pending_hits).float()))
            values, hits = np.split(both.to("cpu", torch.float64).numpy(), 2)
            values, hits = values.astype(np.float32), hits[: len(values)] / run.samples
            pending_hits.clear()
        else:
            values = join(pending).to("cpu", torch.float32).numpy()
        pending.clear()
        pending_epochs = 0
        first = history.count + 1
        bad = ~np.isfinite(values)
        if bad.any():  # keep the losses up to and including the first bad one
            diverged_at = first + int(bad.argmax())
            values = values[: diverged_at - first + 1]
        new_landscape, landscape = landscape, None  # the first one rides on the first batch
        if path is not None:
            path.extend(join(positions).to("cpu", torch.float32).numpy()[: len(values)])
            positions.clear()
            if not salvage and needs_new_grid(new_landscape or run.last_landscape, path):
                began = time.perf_counter()
                new_landscape = run.landscape(path, minimum)
                paused += time.perf_counter() - began
            if new_landscape is not None:
                run.last_landscape = new_landscape
        if hits is not None:
            hits = accuracy.extend(hits[: len(values)].astype(np.float32))
        outputs = test_accuracy = None
        began = time.perf_counter()
        if fit and not salvage and (final or diverged_at is not None or began >= next_fit):
            outputs = run.fit()
            if run.x_test is not None:
                test_accuracy = run.accuracy(run.x_test, run.y_test)
            next_fit = began + (time.perf_counter() - began) * (1 / FIT_SHARE - 1)
        batch = LossBatch(
            first,
            history.extend(values),
            outputs,
            data,
            time.perf_counter() - start - paused,
            new_landscape,
            hits,
            test_accuracy,
        )
        data = None
        return batch

    try:
        warm_up_seconds = run.warm_up()  # ends synchronised: the clock starts on an idle, warm device
    except (RuntimeError, MemoryError) as error:
        raise _failure(config, run, error, 0) from None
    compile_seconds, graphs_before = 0.0, 0
    if config.step != EAGER:
        on_phase(PREPARING_STEP)
        began = time.perf_counter()
        try:
            compile_seconds = run.prepare_step(path is not None)
            graphs_before = compiled_graphs() if config.step == COMPILED else 0
        except _Stopped:  # stopped between two compiles: the loop sees the stop before its first epoch
            compile_seconds = time.perf_counter() - began + run.step.setup_seconds
            graphs_before = compiled_graphs()
        except (MemoryError, torch.cuda.OutOfMemoryError) as error:  # a graph's pools, say: not the mode's fault
            raise _failure(config, run, error, 0) from None
        except Exception as error:  # no compiler, an unsupported platform or model: say so, plainly
            run.release()
            raise not_prepared(config, error) from None
    on_phase(TRAINING)
    # Other processes' load, over the timed loop alone (a compile's worker processes, before it, are this run's).
    load = OtherLoad(torch.get_num_threads()) if run.device.type == "cpu" else None
    if load is not None:
        load.__enter__()
    start = time.perf_counter()
    next_flush = start  # due after the first epoch
    # Epochs let run ahead of the read-back: a graph's replay is one asynchronous launch of 64 epochs, so
    # the host could queue FLUSH_EPOCHS (seconds of GPU work at large sizes) before a flush, and a Stop
    # or Pause would wait for all of it. Bounded by time from the second flush on: as many epochs as
    # the device did in flush_seconds, measured at each read-back (which waits for the device).
    in_flight = FLUSH_EPOCHS
    flushed_at, flushed_epochs = 0.0, 0
    try:
        while history.count + pending_epochs < config.epochs:
            done = history.count + pending_epochs
            if control is not None and control.is_paused(done):
                if pending:  # the plot shows every epoch up to the pause
                    yield flush(final=True)
                    if diverged_at is not None:
                        break
                if on_pause is not None:
                    on_pause(history.count, run.snapshot())
                paused += control.wait()
                next_flush = time.perf_counter()  # a step's epoch comes back at once
            if should_stop():
                status = STOPPED
                break
            try:
                if run.captured is not None:  # as many epochs as may run before the next check, in one launch
                    most = (
                        config.epochs - done
                        if control is None
                        else control.epochs_before_hold(done, config.epochs - done)
                    )
                    most = min(most, max(1, in_flight - pending_epochs))  # slow epochs: one-epoch replays
                    count, losses, hits, position = run.replay(most)
                    pending.append(losses)
                    pending_epochs += count
                    if accuracy is not None:
                        pending_hits.append(hits)
                    if path is not None:
                        positions.append(position)
                else:
                    pending.append(run.epoch())
                    pending_epochs += 1
                    if accuracy is not None:
                        pending_hits.append(run.hits)
                    if path is not None:
                        positions.append(run.position())
            except _Stopped:
                status = STOPPED
                break
            if pending_epochs >= in_flight or time.perf_counter() >= next_flush:
                batch = flush()
                yield batch
                if diverged_at is not None:
                    break
                next_flush = time.perf_counter() + flush_seconds
                in_flight, flushed_at, flushed_epochs = (
                    _epochs_in_flight(batch.seconds - flushed_at, history.count - flushed_epochs, flush_seconds),
                    batch.seconds,
                    history.count,
                )
        if pending:
            yield flush(final=True)
        if diverged_at is not None:
            status = DIVERGED
        seconds = time.perf_counter() - start - paused
        if load is not None:
            load.__exit__(None, None, None)
        recompiles = compiled_graphs() - graphs_before if config.step == COMPILED else 0
        final_accuracy = test_accuracy = None
        if accuracy is not None:  # the final model's, measured after the clock
            final_accuracy = run.accuracy(run.x_train, run.y_train)
            if run.x_test is not None:
                test_accuracy = run.accuracy(run.x_test, run.y_test)
        on_phase(TO_CPU)
        model = run.model.to("cpu")
    except (RuntimeError, MemoryError) as error:
        failure = error
    else:
        failure = None
    if failure is not None:
        # Nothing lost: the epochs done before the fault keep their losses, if the device can still
        # give them back (a device that is lost cannot; then the run ends with what was read).
        salvaged = None
        if pending:
            try:
                salvaged = flush(final=False, salvage=True)
            except Exception:
                pending.clear()
                pending_hits.clear()
        if salvaged is not None:
            yield salvaged
        raise _failure(config, run, failure, history.count) from None
    to_device_seconds = run.to_device_seconds
    run.release(keep_cache)
    return TrainingResult(
        status,
        config,
        model,
        history.values,
        seconds,
        diverged_at,
        path.points if path is not None else None,
        to_device_seconds,
        warm_up_seconds,
        accuracy.values if accuracy is not None else None,
        final_accuracy,
        test_accuracy,
        compile_seconds,
        recompiles,
        load is not None and load.busy,
    )


def train(
    config: TrainingConfig,
    should_stop: Callable[[], bool] = never,
    on_batch: Callable[[LossBatch], None] | None = None,
    on_phase: Callable[[str], None] = _ignore,
    history: LossHistory | None = None,
    fit: bool = False,
    control: RunControl | None = None,
    on_pause: Callable[[int, nn.Module], None] | None = None,
    path: PathHistory | None = None,
    keep_cache: bool = False,
    accuracy: LossHistory | None = None,
) -> TrainingResult:
    """Run `run_training` to the end, handing each batch of losses to `on_batch`.

    `fit` evaluates the model for a fit view at flushes (the window wants it; the
    command line does not).
    """
    run = run_training(
        config,
        should_stop,
        on_phase,
        history=history,
        fit=fit,
        control=control,
        on_pause=on_pause,
        path=path,
        keep_cache=keep_cache,
        accuracy=accuracy,
    )
    while True:
        try:
            batch = next(run)
        except StopIteration as finished:
            return finished.value
        if on_batch is not None:
            on_batch(batch)


@contextmanager
def prepared(config: TrainingConfig) -> Iterator[_Run]:
    """A run's model, data and step on its device, for measuring steps outside the loop (see profile).

    A device that fails or runs out of memory, while the run is made or while it is used,
    ends as the same TrainingError as in a run, with what it held freed.
    """
    check_fits(config)
    capture.check(config)
    try:
        run = _Run(config, never)
    except Exception as error:  # as in run_training: a device fails to start in many ways
        raise _failure(config, None, error, 0) from None
    try:
        with precision.matmul_precision(config.precision):
            yield run
    except (RuntimeError, MemoryError) as error:
        raise _failure(config, run, error, 0) from None
    finally:
        run.release()


def warm_up() -> None:
    """Load what torch loads on its first optimizer (~800 modules, a second or more).

    The window calls this on a thread of its own at start, so that the first press of
    Start trains at once instead of importing.
    """
    parameter = torch.zeros(1, requires_grad=True)
    OPTIMIZERS["sgd"].make([parameter], 0.1)
    _warm.set()
