"""A run prepared on its device: its model, data, optimizer and step, an epoch, its warm-up, the step
compiled or captured before the clock, what the views are shown of it, and its release."""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import torch
from torch import nn

from gpudemo.core.base.control import never
from gpudemo.core.hardware.devices import release_cache, synchronize
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step import capture, precision
from gpudemo.core.step.modes import Stopped
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.step.step import EAGER, Step
from gpudemo.core.training.failures import training_error
from gpudemo.core.training.landscape import Landscape, PathHistory, bounds_around
from gpudemo.core.training.loss_grid import evaluate
from gpudemo.core.training.plan import Plan, plan_of
from gpudemo.core.training.positions import DevicePositions, HostPositions, positions_for
from gpudemo.core.training.records import DataSample

FIT_POINTS = 256  # the model is evaluated at this many x values for the fit view...
BOUNDARY_SIDE = 128  # ...or, for a 2-D classification, over a grid this many points a side, in one batched pass
DATA_SHOWN = 2000  # training points handed to the fit view (the data is i.i.d.: the first ones are a fair sample)

# Devices whose first step pays one-time costs that a run's clock must not see (see PreparedRun.warm_up).
WARMED_DEVICE_TYPES = frozenset({"cuda", "mps", "xpu"})

_warm = threading.Event()  # set once torch's optimizer code is loaded in this process


def is_warm() -> bool:
    """Whether a run would start at once, or first wait for torch to load its optimizer code."""
    return _warm.is_set()


class PreparedRun:
    """One run's model, data and step on its device; `release()` lets go of all of it."""

    def __init__(self, plan: Plan, should_stop: Callable[[], bool]):
        config, problem = plan.config, plan.problem
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
        self.mode = plan.mode  # how the step is prepared and the epochs taken
        captured = self.mode.captures
        capturable = captured and self.device.type == "cuda"  # (the tests run the captured loop on the CPU too)
        self.optimizer = OPTIMIZERS[config.optimizer].make(self.model.parameters(), config.lr, capturable=capturable)
        self.step = Step(self.model, self.criterion, self.optimizer, config, self.device, capture=captured,
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
        self.samples, self.batch = plan.samples, plan.batch
        self.config = config
        self.should_stop = should_stop
        self.plane = problem.plane(self.model)
        # Detached views of (w, b): they share the parameters' storage, so they see every step's update.
        self._plane_views = tuple(p.detach().view(1) for p in self.plane) if self.plane is not None else ()
        self.last_landscape: Landscape | None = None

    def position(self) -> torch.Tensor:
        """(w, b) as they stand, a copy still on the device: one op an epoch."""
        return torch.cat(self._plane_views)

    def path_positions(self) -> DevicePositions | HostPositions:
        """Where (w, b) after each epoch wait for the read-back (core/training/positions.py)."""
        return positions_for(self.device, self._plane_views)

    def landscape(self, path: PathHistory, minimum: tuple[float, float] | None) -> Landscape:
        return evaluate(self.x_train, self.y_train, bounds_around(path.low, path.high, minimum), minimum)

    def epoch(self) -> torch.Tensor:
        """One pass over the data; its loss (for minibatches, the mean over them), still on the device."""
        if self.batch >= self.samples:
            outputs, loss = self.train_step(self.x_train, self.y_train)
            if self.classes:
                self.hits = self.hits_of(outputs, self.y_train)
            return loss.detach()
        # The same statements, in the same order, as the generated script's minibatch loop.
        order = torch.randperm(self.samples, generator=self.generator, device=self.device)
        total, batches, hits = 0.0, 0, 0
        for start in range(0, self.samples, self.batch):
            if batches and self.should_stop():
                raise Stopped
            index = order[start : start + self.batch]
            outputs, loss = self.train_step(self.x_train[index], self.y_train[index])
            total = total + loss.detach()
            if self.classes:
                hits = hits + self.hits_of(outputs, self.y_train[index])
            batches += 1
        if self.classes:
            self.hits = hits
        return total / batches

    @staticmethod
    def hits_of(outputs: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        """How many of the outputs' classes are right, on the device (no sync)."""
        return (outputs.detach().argmax(1) == labels).sum()

    def accuracy(self, x: torch.Tensor, y: torch.Tensor) -> float:
        """The model's accuracy on (x, y) as it stands: one batched pass, read back."""
        with torch.no_grad():
            return self.hits_of(self.forward(x), y).item() / len(y)

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
            losses = torch.cat((losses, torch.stack([self.hits_of(outputs, y)]).float()))
        losses.to("cpu", torch.float32)
        if self.grid is not None:
            with torch.no_grad():
                model(self.grid)
        del model, optimizer, step, x, y, outputs, loss, losses
        synchronize(self.device)
        return time.perf_counter() - began

    def prepare_step(self, with_path: bool) -> float:
        """Compile or capture the step before the clock, as its mode does (core/step/modes.py); the
        seconds it took, loading the compiler included (0 for an eager step)."""
        if not self.mode.prepares:
            return 0.0
        began = time.perf_counter()
        self.mode.prepare(self, with_path)
        synchronize(self.device)
        return time.perf_counter() - began + self.step.setup_seconds

    def advance(self) -> int:
        """Epochs as the run takes them, outside its loop (a profile): one replay of the captured epochs, or one
        epoch; how many epochs it ran."""
        return self.mode.advance(self, self.captured.largest if self.captured is not None else 1)[0]

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


@contextmanager
def prepared(job: TrainingConfig | Plan) -> Iterator[PreparedRun]:
    """A run's model, data and step on its device, for measuring steps outside the loop (see profile).

    Its preflight first (core/training/plan.py) unless `job` is planned already. A device that fails or runs out
    of memory, while the run is made or while it is used, ends as the same TrainingError as in a run,
    with what it held freed.
    """
    plan = plan_of(job)
    config = plan.config
    try:
        run = PreparedRun(plan, never)
    except Exception as error:  # as in run_training: a device fails to start in many ways
        raise training_error(config, None, error, 0) from None
    try:
        with precision.matmul_precision(config.precision):
            yield run
    except (RuntimeError, MemoryError) as error:
        raise training_error(config, run, error, 0) from None
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
