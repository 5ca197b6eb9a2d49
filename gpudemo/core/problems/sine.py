"""sin(x) + noise at N points, fitted by an MLP whose width and depth the person sets."""

from __future__ import annotations

import math

import torch
from torch import nn

from gpudemo.core.problems.base import Problem
from gpudemo.core.settings import TrainingConfig

NOISE = 0.1  # the standard deviation of the normal noise added to sin(x)


def mlp(width: int, depth: int) -> nn.Sequential:
    """1 input, `depth` hidden layers of `width` tanh units, 1 output."""
    layers: list[nn.Module] = [nn.Linear(1, width), nn.Tanh()]
    for _ in range(depth - 1):
        layers += [nn.Linear(width, width), nn.Tanh()]
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


class Sine(Problem):
    has_plane = False  # many parameters: no plane of two to draw the loss over
    key = "sine"
    uses = frozenset({"samples", "width", "depth"})
    x_range = (-math.pi, math.pi)

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp(config.width, config.depth)

    def make_data(self, config, generator):
        n = config.samples
        x_train = (torch.rand(n, 1, generator=generator) * 2 - 1) * math.pi
        y_train = torch.sin(x_train) + NOISE * torch.randn(n, 1, generator=generator)
        return x_train, y_train

    def describe(self, model: nn.Module) -> dict[str, float]:
        return {"parameters": float(sum(p.numel() for p in model.parameters()))}

    def parameter_count(self, config: TrainingConfig) -> int:
        w, d = config.width, config.depth
        return (2 * w) + (d - 1) * (w * w + w) + (w + 1)

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        # each hidden layer keeps its linear output and its tanh output, and the
        # backward pass makes a gradient of each: 4 floats per unit, plus the ends
        return 4 * config.width * config.depth + 8

    def script_imports(self) -> list[str]:
        return ["import math"]

    def script_model(self, config: TrainingConfig) -> list[str]:
        return [
            f"units_per_layer, hidden_layers = {config.width}, {config.depth}",
            "layers = [torch.nn.Linear(1, units_per_layer), torch.nn.Tanh()]",
            "for _ in range(hidden_layers - 1):",
            "    layers += [torch.nn.Linear(units_per_layer, units_per_layer), torch.nn.Tanh()]",
            "layers.append(torch.nn.Linear(units_per_layer, 1))",
            "model = torch.nn.Sequential(*layers).to(device)",
        ]

    def script_data(self, config: TrainingConfig) -> list[str]:
        return [
            f"x_train = (torch.rand({config.samples}, 1, generator=generator) * 2 - 1) * math.pi",
            f"y_train = torch.sin(x_train) + {NOISE!r} * torch.randn({config.samples}, 1, generator=generator)",
            "x_train, y_train = x_train.to(device), y_train.to(device)",
        ]

    def script_result(self) -> list[str]:
        return ['print("parameters", sum(p.numel() for p in model.parameters()))']
