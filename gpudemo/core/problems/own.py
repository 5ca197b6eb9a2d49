"""A person's own data (core/problems/datafile.py): `x,y` rows are a regression, `x1,x2,label` rows a classification.

It behaves as the problem its columns make it: one input fitted by the MLP of the person's
width and depth (depth 0: nn.Linear(1, 1), the tutorial's model, with its loss landscape),
or two inputs and the labels' classes with a decision boundary over the data's square.
The generated script reads the same file.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from gpudemo.core.base.errors import DataFileError
from gpudemo.core.problems import mlp
from gpudemo.core.problems.base import Problem
from gpudemo.core.problems.datafile import MAX_CLASSES, DataSet
from gpudemo.core.settings.config import TrainingConfig

MARGIN = 0.05  # the fit view and the boundary reach this share of the data's span beyond it


def _span(values: torch.Tensor) -> tuple[float, float]:
    low, high = float(values.min()), float(values.max())
    pad = max(high - low, 1e-6) * MARGIN
    return low - pad, high + pad


class OwnData(Problem):
    key = "data"
    missing: DataFileError | None = None  # a model's data file that cannot be read now (`remembered`)

    def __init__(self, data: DataSet):
        self.data = data
        self.classes = data.classes
        self.inputs = 2 if data.classes else 1
        if not data.rows:  # remembered: the span is set from the checkpoint
            return
        if data.classes:  # a square around every point: the boundary is drawn with equal axes
            (low1, high1), (low2, high2) = _span(data.x[:, 0]), _span(data.x[:, 1])
            middle1, middle2, half = (low1 + high1) / 2, (low2 + high2) / 2, max(high1 - low1, high2 - low2) / 2
            self.area = (min(middle1, middle2) - half, max(middle1, middle2) + half)
        else:
            self.x_range = _span(data.x)

    def shape(self) -> dict[str, object]:
        """What a model of this data needs to predict without the file (a checkpoint keeps it): its inputs,
        classes, and the span its fit or boundary is drawn over."""
        span = self.area if self.classes else self.x_range
        return {"inputs": self.inputs, "classes": self.classes, "span": [float(span[0]), float(span[1])]}

    @classmethod
    def remembered(cls, path: str, shape: object, missing: DataFileError) -> OwnData | None:
        """The problem of a data file that cannot be read now, from the `shape` a checkpoint kept of it: it
        predicts, draws its fit or boundary over the kept span, and refuses to train (`missing`, the reason).
        None when `shape` is not one `shape()` writes (a checkpoint is untrusted)."""
        if not isinstance(shape, dict) or set(shape) != {"inputs", "classes", "span"}:
            return None
        inputs, classes, span = shape["inputs"], shape["classes"], shape["span"]
        if type(inputs) is not int or type(classes) is not int or (inputs, classes > 0) not in ((1, False), (2, True)):
            return None
        if classes > MAX_CLASSES or not isinstance(span, list) or len(span) != 2:
            return None
        if not all(isinstance(end, float) and math.isfinite(end) for end in span) or not span[0] < span[1]:
            return None
        y = torch.empty(0, dtype=torch.int64) if classes else torch.empty(0, 1)
        problem = cls(DataSet(path, torch.empty(0, inputs), y, header=False, classes=classes))
        problem.missing = missing
        if classes:
            problem.area = (span[0], span[1])
        else:
            problem.x_range = (span[0], span[1])
        return problem

    def samples(self, config: TrainingConfig) -> int:
        return self.data.rows

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp.mlp(self.inputs, self.classes or 1, config.width, config.depth)

    def make_data(self, config, generator):
        if self.missing is not None:
            raise self.missing
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
            f'with open({self.data.path!r}, newline="", encoding="utf-8-sig") as file:  # read as gpudemo read it',
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
