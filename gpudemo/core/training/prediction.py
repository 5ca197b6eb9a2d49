"""Prediction, as the tutorial ends: the trained model, back on the CPU, asked for new x (or a class)."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


def predict(model: nn.Module, values: Sequence[float]) -> list[float]:
    """The model's output for each value, computed on the CPU, in the order given."""
    _on_cpu(model)
    x_test = torch.tensor([[float(v)] for v in values], dtype=torch.float32, device="cpu")
    with torch.no_grad():
        y_test = model(x_test)
    return [float(y) for y in y_test.reshape(-1)]


def _on_cpu(model: nn.Module) -> None:
    if any(p.device.type != "cpu" for p in model.parameters()):
        raise ValueError("the model must be the CPU copy; move it with model.to('cpu') first")


def classify(model: nn.Module, inputs: Sequence[Sequence[float]] | torch.Tensor) -> torch.Tensor:
    """Each input's class probabilities (softmax of the model's logits), computed on the CPU: (n, classes)."""
    _on_cpu(model)
    x_test = torch.as_tensor(inputs, dtype=torch.float32, device="cpu")
    with torch.no_grad():
        return torch.softmax(model(x_test.reshape(len(x_test), -1)), dim=1)


def confusion(model: nn.Module, x: torch.Tensor, y: torch.Tensor, classes: int) -> torch.Tensor:
    """(classes, classes) counts: row = the true class, column = the class the model predicts."""
    predicted = classify(model, x).argmax(1)
    return torch.bincount(y * classes + predicted, minlength=classes * classes).reshape(classes, classes)
