"""Two classes of 2-D points, as TensorFlow Playground draws them: circles, xor, spiral.

Each draws N points on the CPU from the seed, half of each class (alternating, so the
first points a view shows are a fair sample), and adds normal noise of the person's
standard deviation to both coordinates. An MLP of the person's width and depth gives
two logits; depth 0 is a linear model, whose boundary is a straight line.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from gpudemo.core.problems import mlp
from gpudemo.core.problems.base import Problem
from gpudemo.core.settings.config import TrainingConfig

AREA = (-1.5, 1.5)  # the square every one of them lies in (noise aside), and the boundary is drawn over
INNER_RADIUS = 0.5  # circles: class 0 on this circle, class 1 on the unit circle
SPIRAL_TURNS = 1.75
XOR_MARGIN = 0.1  # xor: points keep this far from the axes (as Playground's do), so noise seldom flips a class


class Points(Problem):
    inputs = 2
    classes = 2
    area = AREA

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp.mlp(2, 2, config.width, config.depth)

    def make_data(self, config, generator):
        n = config.samples
        labels = torch.arange(n) % 2
        points = self.points(labels, generator)
        points = points + config.noise * torch.randn(n, 2, generator=generator)
        return points, labels

    def points(self, labels: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
        """Noise-free points, (n, 2), of the classes in `labels`."""
        raise NotImplementedError

    def describe(self, model: nn.Module) -> dict[str, float]:
        return {"parameters": float(sum(p.numel() for p in model.parameters()))}

    def parameter_count(self, config: TrainingConfig) -> int:
        return mlp.parameter_count(2, 2, config.width, config.depth)

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        return mlp.activation_floats(2, 2, config.width, config.depth)

    def script_imports(self) -> list[str]:
        return ["import math"]

    def script_model(self, config: TrainingConfig) -> list[str]:
        return mlp.script_lines(2, 2, config.width, config.depth)

    def script_data(self, config: TrainingConfig) -> list[str]:
        n = config.samples
        return [
            f"y_train = torch.arange({n}) % 2  # the classes, 0 and 1, alternating",
            *self.script_points(),
            f"x_train = x_train + {config.noise!r} * torch.randn({n}, 2, generator=generator)",
            "x_train, y_train = x_train.to(device), y_train.to(device)",
        ]

    def script_points(self) -> list[str]:
        """Lines that make x_train, (n, 2), from y_train and `generator`, as points() does."""
        raise NotImplementedError

    def script_result(self) -> list[str]:
        return [
            'print("parameters", sum(p.numel() for p in model.parameters()))',
            "with torch.no_grad():",
            '    print("accuracy", (model(x_train.cpu()).argmax(1) == y_train.cpu()).float().mean().item())',
        ]


class Circles(Points):
    key = "circles"

    def points(self, labels, generator):
        angle = torch.rand(len(labels), generator=generator) * (2 * math.pi)
        radius = torch.where(labels == 0, INNER_RADIUS, 1.0)
        return torch.stack((radius * torch.cos(angle), radius * torch.sin(angle)), dim=1)

    def script_points(self):
        return [
            "angle = torch.rand(len(y_train), generator=generator) * (2 * math.pi)",
            f"radius = torch.where(y_train == 0, {INNER_RADIUS!r}, 1.0)  # class 0 inside, class 1 outside",
            "x_train = torch.stack((radius * torch.cos(angle), radius * torch.sin(angle)), dim=1)",
        ]


class Xor(Points):
    key = "xor"

    def points(self, labels, generator):
        # A point's quadrant gives its class: the same sign on both axes is class 0.
        corner = XOR_MARGIN + (1 - XOR_MARGIN) * torch.rand(len(labels), 2, generator=generator)
        signs = torch.where(torch.rand(len(labels), generator=generator) < 0.5, 1.0, -1.0)
        return corner * torch.stack((signs, signs * torch.where(labels == 0, 1.0, -1.0)), dim=1)

    def script_points(self):
        return [
            f"corner = {XOR_MARGIN!r} + {1 - XOR_MARGIN!r} * torch.rand(len(y_train), 2, generator=generator)",
            "signs = torch.where(torch.rand(len(y_train), generator=generator) < 0.5, 1.0, -1.0)",
            "# the same sign on both axes is class 0, opposite signs class 1",
            "x_train = corner * torch.stack((signs, signs * torch.where(y_train == 0, 1.0, -1.0)), dim=1)",
        ]


class Spiral(Points):
    key = "spiral"

    def points(self, labels, generator):
        t = torch.rand(len(labels), generator=generator)
        angle = t * (SPIRAL_TURNS * 2 * math.pi) + labels * math.pi
        return torch.stack((t * torch.cos(angle), t * torch.sin(angle)), dim=1)

    def script_points(self):
        return [
            "t = torch.rand(len(y_train), generator=generator)",
            f"angle = t * ({SPIRAL_TURNS!r} * 2 * math.pi) + y_train * math.pi  # class 1: the same arm, half a"
            " turn on",
            "x_train = torch.stack((t * torch.cos(angle), t * torch.sin(angle)), dim=1)",
        ]
