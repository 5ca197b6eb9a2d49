"""y = 2x + noise at N points: the tutorial's model, on as much data as a GPU likes."""

from __future__ import annotations

import torch
from torch import nn

from gpudemo.core.problems.base import Problem
from gpudemo.core.settings.config import TrainingConfig

X_LOW, X_HIGH = -3.0, 3.0  # x is uniform here
NOISE = 0.5  # the standard deviation of the normal noise added to 2x


class Line(Problem):
    key = "line"
    x_range = (X_LOW, X_HIGH)

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return nn.Linear(1, 1)

    def make_data(self, config, generator):
        n = config.samples
        x_train = torch.rand(n, 1, generator=generator) * (X_HIGH - X_LOW) - (-X_LOW)
        y_train = 2 * x_train + NOISE * torch.randn(n, 1, generator=generator)
        return x_train, y_train

    def script_model(self, config: TrainingConfig) -> list[str]:
        return ["model = torch.nn.Linear(1, 1).to(device)"]

    def script_data(self, config: TrainingConfig) -> list[str]:
        return [
            f"x_train = torch.rand({config.samples}, 1, generator=generator) * {X_HIGH - X_LOW!r} - {-X_LOW!r}",
            f"y_train = 2 * x_train + {NOISE!r} * torch.randn({config.samples}, 1, generator=generator)",
            "x_train, y_train = x_train.to(device), y_train.to(device)",
        ]
