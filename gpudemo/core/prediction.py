"""Prediction, as the tutorial ends: the trained model, back on the CPU, asked for new x."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


def predict(model: nn.Module, values: Sequence[float]) -> list[float]:
    """The model's output for each value, computed on the CPU, in the order given."""
    if any(p.device.type != "cpu" for p in model.parameters()):
        raise ValueError("predict() runs on the CPU copy of the model; move it with model.to('cpu') first")
    x_test = torch.tensor([[float(v)] for v in values], dtype=torch.float32, device="cpu")
    with torch.no_grad():
        y_test = model(x_test)
    return [float(y) for y in y_test.reshape(-1)]
