"""The tutorial's problem, unchanged: nn.Linear(1, 1) learns y = 2x from x = 1, 2, 3."""

from __future__ import annotations

import torch
from torch import nn

from gpudemo.core.problems.base import Problem
from gpudemo.core.settings.config import TrainingConfig


class Tutorial(Problem):
    key = "tutorial"
    x_range = (0.0, 4.0)  # the three points, and the x = 4 the tutorial asks about

    def samples(self, config: TrainingConfig) -> int:
        return 3

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return nn.Linear(1, 1)

    def make_data(self, config, generator):
        x_train = torch.tensor([[1.0], [2.0], [3.0]])
        y_train = torch.tensor([[2.0], [4.0], [6.0]])
        return x_train, y_train

    def uses_generator(self, config: TrainingConfig) -> bool:
        return False

    def script_model(self, config: TrainingConfig) -> list[str]:
        return ["model = torch.nn.Linear(1, 1).to(device)"]

    def script_data(self, config: TrainingConfig) -> list[str]:
        return [
            "x_train = torch.tensor([[1.0], [2.0], [3.0]], device=device)",
            "y_train = torch.tensor([[2.0], [4.0], [6.0]], device=device)",
        ]
