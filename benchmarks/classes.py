"""Classification: the digits run against a bare PyTorch loop of the same model, and the boundary frame.

- digits: gpudemo's loop (which also records each epoch's training accuracy, read back with the
  loss) against the textbook loop of the same MLP, loss, optimizer and data, interleaved.
- boundary: one frame of the decision boundary at 128 x 128 on the CPU, in its two halves: the
  loop's evaluation (one batched forward over the grid, softmax, the copy back) and the view's
  colouring and upload of the image (core.training and ui.views.boundary_plot, as the run does).
"""

import time

import torch

from benchmarks.stats import median, percentile
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.optimizers import OPTIMIZERS
from gpudemo.core.training import BOUNDARY_SIDE, prepared, train, warm_up

DIGITS = TrainingConfig(problem="digits", width=32, depth=2, optimizer="adam", lr=0.01)


def bare_digits_loop(config: TrainingConfig) -> float:
    """The textbook loop on the digits: epochs per second (a sync at the end)."""
    problem = PROBLEMS["digits"]
    torch.manual_seed(config.seed)
    model = problem.make_model(config).to(config.device)
    x_train, y_train = problem.make_data(config, torch.Generator())
    x_train, y_train = x_train.to(config.device), y_train.to(config.device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = OPTIMIZERS[config.optimizer].make(model.parameters(), config.lr)
    start = time.perf_counter()
    for _epoch in range(config.epochs):
        optimizer.zero_grad()
        loss = criterion(model(x_train), y_train)
        loss.backward()
        optimizer.step()
    loss.item()
    return config.epochs / (time.perf_counter() - start)


def _boundary_frames(frames: int) -> tuple[list[float], list[float]]:
    """Seconds of the loop's evaluation and of the view's drawing, per frame."""
    from PySide6.QtWidgets import QApplication

    from gpudemo.ui.views.boundary_plot import BoundaryPlot

    app = QApplication.instance() or QApplication([])
    config = TrainingConfig(problem="spiral", width=16, depth=2)  # the MLP for its targets
    plot = BoundaryPlot()
    plot.widget.resize(600, 400)
    evaluations, draws = [], []
    with prepared(config) as run:
        plot.show_data(run.data_sample())
        for frame in range(frames):
            run.epoch()  # a new model each frame, as in a run
            began = time.perf_counter()
            probabilities = run.fit()
            evaluated = time.perf_counter()
            plot._drawn = None  # draw every frame (a converged model would skip)
            plot.show_fit(probabilities)
            plot.widget.grab()  # paint it
            drawn = time.perf_counter()
            if frame >= 3:  # the first frames build caches
                evaluations.append(evaluated - began)
                draws.append(drawn - evaluated)
    app.processEvents()
    return evaluations, draws


def run(epochs: int = 2000, repeats: int = 5, frames: int = 60) -> list[dict]:
    warm_up()
    config = TrainingConfig(**{**DIGITS.__dict__, "epochs": epochs})
    bare_digits_loop(TrainingConfig(**{**DIGITS.__dict__, "epochs": 50}))
    bares, cores, ratios = [], [], []
    for _ in range(repeats):
        bare = bare_digits_loop(config)
        core = train(config).epochs_per_second
        bares.append(bare)
        cores.append(core)
        ratios.append(core / bare)
    evaluations, draws = _boundary_frames(frames)
    frame = [e + d for e, d in zip(evaluations, draws, strict=True)]
    side = f"{BOUNDARY_SIDE}x{BOUNDARY_SIDE}"
    return [
        {"figure": "digits: bare PyTorch loop (cpu)", "value": median(bares), "unit": "epochs/s"},
        {"figure": "digits: gpudemo loop, accuracy each epoch (cpu)", "value": median(cores), "unit": "epochs/s"},
        {
            "figure": "digits: gpudemo / bare",
            "value": median(ratios),
            "unit": "x",
            "target": ">= 1.0",
            "ok": median(ratios) >= 1.0,
        },
        {
            "figure": f"boundary {side}: evaluation in the loop, median",
            "value": median(evaluations) * 1e3,
            "unit": "ms",
        },
        {"figure": f"boundary {side}: colouring and drawing, median", "value": median(draws) * 1e3, "unit": "ms"},
        {
            "figure": f"boundary {side}: whole frame, p95",
            "value": percentile(frame, 95) * 1e3,
            "unit": "ms",
            "target": "<= 10",
            "ok": percentile(frame, 95) * 1e3 <= 10,
        },
    ]
