"""A person's own data (core/datafile.py): `x,y` rows are a regression, `x1,x2,label` rows a classification.

It behaves as the problem its columns make it: one input fitted by the MLP of the person's
width and depth (depth 0: nn.Linear(1, 1), the tutorial's model, with its loss landscape),
or two inputs and the labels' classes with a decision boundary over the data's square.
The generated script reads the same file.
"""

from __future__ import annotations

import torch
from torch import nn

from gpudemo.core.config import TrainingConfig
from gpudemo.core.datafile import DataSet
from gpudemo.core.problems import mlp
from gpudemo.core.problems.base import Problem

MARGIN = 0.05  # the fit view and the boundary reach this share of the data's span beyond it


def _span(values: torch.Tensor) -> tuple[float, float]:
    low, high = float(values.min()), float(values.max())
    pad = max(high - low, 1e-6) * MARGIN
    return low - pad, high + pad


class OwnData(Problem):
    key = "data"

    def __init__(self, data: DataSet):
        self.data = data
        self.classes = data.classes
        self.inputs = 2 if data.classes else 1
        if data.classes:  # a square around every point: the boundary is drawn with equal axes
            (low1, high1), (low2, high2) = _span(data.x[:, 0]), _span(data.x[:, 1])
            middle1, middle2, half = (low1 + high1) / 2, (low2 + high2) / 2, max(high1 - low1, high2 - low2) / 2
            self.area = (min(middle1, middle2) - half, max(middle1, middle2) + half)
        else:
            self.x_range = _span(data.x)

    def samples(self, config: TrainingConfig) -> int:
        return self.data.rows

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp.mlp(self.inputs, self.classes or 1, config.width, config.depth)

    def make_data(self, config, generator):
        return self.data.x, self.data.y

    def uses_generator(self, config: TrainingConfig) -> bool:
        return False

    def describe(self, model: nn.Module) -> dict[str, float]:
        if self.plane(model) is not None:
            return super().describe(model)
        return {"parameters": float(sum(p.numel() for p in model.parameters()))}

    def parameter_count(self, config: TrainingConfig) -> int:
        return mlp.parameter_count(self.inputs, self.classes or 1, config.width, config.depth)

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        return mlp.activation_floats(self.inputs, self.classes or 1, config.width, config.depth)

    def script_imports(self) -> list[str]:
        return ["import csv"]

    def script_model(self, config: TrainingConfig) -> list[str]:
        return mlp.script_lines(self.inputs, self.classes or 1, config.width, config.depth)

    def script_data(self, config: TrainingConfig) -> list[str]:
        lines = [
            f'with open({self.data.path!r}, newline="") as file:  # your data, as gpudemo read it',
            "    rows = [row for row in csv.reader(file) if any(value.strip() for value in row)]",
        ]
        if self.data.header:
            lines.append("rows = rows[1:]  # its first line names the columns")
        if self.classes:
            lines += [
                "x_train = torch.tensor([[float(row[0]), float(row[1])] for row in rows]).to(device)",
                "y_train = torch.tensor([int(float(row[2])) for row in rows]).to(device)",
            ]
        else:
            lines += [
                "x_train = torch.tensor([[float(row[0])] for row in rows]).to(device)",
                "y_train = torch.tensor([[float(row[1])] for row in rows]).to(device)",
            ]
        return lines

    def script_result(self) -> list[str]:
        if not self.classes:
            return ['print("parameters", sum(p.numel() for p in model.parameters()))']
        return [
            'print("parameters", sum(p.numel() for p in model.parameters()))',
            "with torch.no_grad():",
            '    print("accuracy", (model(x_train.cpu()).argmax(1) == y_train.cpu()).float().mean().item())',
        ]
