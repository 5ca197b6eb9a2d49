"""What a lesson step computes with torch: a line's starting weight and bias, a preview of the data, and how
long the tutorial's `.to(device)` takes. The lesson itself (core/lessons/lesson.py) needs no torch."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, replace

import torch

from gpudemo.core.hardware.devices import synchronize
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import DataSample, prepared


def initial_parameters(config: TrainingConfig) -> tuple[float, float]:
    """A one-input linear model's weight and bias before training, as a run of `config` starts them."""
    torch.manual_seed(config.seed)
    model = problem_for(config).make_model(config)
    return float(model.weight.detach().reshape(-1)[0]), float(model.bias.detach().reshape(-1)[0])


def data_preview(config: TrainingConfig) -> DataSample | None:
    """What the fit view draws of `config`'s data, made on the CPU as a run makes it."""
    with prepared(replace(config, device="cpu")) as run:
        return run.data_sample()


@dataclass(frozen=True)
class Move:
    bytes: int  # the model's parameters and the data
    seconds: float  # median of warm moves, the device synchronised


def time_move(config: TrainingConfig, repeats: int = 5) -> Move:
    """Move `config`'s model and data from the CPU to its device, as the tutorial's .to(device) does."""
    problem = problem_for(config)
    device = torch.device(config.device)
    torch.manual_seed(config.seed)
    model = problem.make_model(config)
    x, y = problem.make_data(config, torch.Generator().manual_seed(config.seed))
    size = sum(t.numel() * t.element_size() for t in (*model.parameters(), x, y))
    timings = []
    for _ in range(repeats + 1):  # the first pays for anything not yet set up
        synchronize(device)
        began = time.perf_counter()
        moved = (model.to(device), x.to(device), y.to(device))
        synchronize(device)
        timings.append(time.perf_counter() - began)
        del moved
        model = model.to("cpu")
    return Move(size, statistics.median(timings[1:]))
