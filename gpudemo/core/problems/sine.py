"""sin(x) + noise at N points, fitted by an MLP whose width and depth the person sets."""

from __future__ import annotations

import math

import torch
from torch import nn

from gpudemo.core.problems import mlp
from gpudemo.core.problems.base import Problem
from gpudemo.core.settings.config import TrainingConfig

NOISE = 0.1  # the standard deviation of the normal noise added to sin(x)


class Sine(Problem):
    key = "sine"
    x_range = (-math.pi, math.pi)

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp.mlp(1, 1, config.width, config.depth)

    def make_data(self, config, generator):
        n = config.samples
        x_train = (torch.rand(n, 1, generator=generator) * 2 - 1) * math.pi
        y_train = torch.sin(x_train) + NOISE * torch.randn(n, 1, generator=generator)
        return x_train, y_train

    def describe(self, model: nn.Module) -> dict[str, float]:
        return {"parameters": float(sum(p.numel() for p in model.parameters()))}

    def parameter_count(self, config: TrainingConfig) -> int:
        return mlp.parameter_count(1, 1, config.width, config.depth)

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        return mlp.activation_floats(1, 1, config.width, config.depth)

    def script_imports(self) -> list[str]:
        return ["import math"]

    def script_model(self, config: TrainingConfig) -> list[str]:
        return mlp.script_lines(1, 1, config.width, config.depth)

    def script_data(self, config: TrainingConfig) -> list[str]:
        return [
            f"x_train = (torch.rand({config.samples}, 1, generator=generator) * 2 - 1) * math.pi",
            f"y_train = torch.sin(x_train) + {NOISE!r} * torch.randn({config.samples}, 1, generator=generator)",
            "x_train, y_train = x_train.to(device), y_train.to(device)",
        ]

    def script_result(self) -> list[str]:
        return ['print("parameters", sum(p.numel() for p in model.parameters()))']
