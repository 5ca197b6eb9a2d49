"""Problems (data, model, loss) and optimizers, each looked up by a short key.

A problem builds its model on the CPU, right after the seed is set, exactly as the
tutorial does; the training loop moves it to the device. New problems and
optimizers join by adding an entry to PROBLEMS or OPTIMIZERS.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class Problem:
    key: str
    title: str
    make_data: Callable[[torch.device], tuple[torch.Tensor, torch.Tensor]]
    make_model: Callable[[], nn.Module]
    make_loss: Callable[[], nn.Module]
    describe: Callable[[nn.Module], dict[str, float]]


def _tutorial_data(device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    x_train = torch.tensor([[1.0], [2.0], [3.0]], device=device)
    y_train = torch.tensor([[2.0], [4.0], [6.0]], device=device)
    return x_train, y_train


def _linear_parameters(model: nn.Module) -> dict[str, float]:
    return {"weight": model.weight.item(), "bias": model.bias.item()}


PROBLEMS: dict[str, Problem] = {
    "linear": Problem(
        key="linear",
        title="y = 2x from three points (the tutorial)",
        make_data=_tutorial_data,
        make_model=lambda: nn.Linear(1, 1),
        make_loss=nn.MSELoss,
        describe=_linear_parameters,
    ),
}

OPTIMIZERS: dict[str, Callable[[Iterable[torch.Tensor], float], torch.optim.Optimizer]] = {
    "sgd": lambda params, lr: torch.optim.SGD(params, lr=lr),
}
