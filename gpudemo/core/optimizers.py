"""The optimizers a person can choose, each with the line of the generated script that makes it.

A new optimizer joins by adding an entry: how to build it, the script's spelling of
the same call (the two must agree; tests/test_script.py checks every entry), and how
many floats of state it keeps per parameter (for the memory estimate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch

MOMENTUM = 0.9


@dataclass(frozen=True)
class Optimizer:
    key: str
    make: Callable[[Iterable[torch.Tensor], float], torch.optim.Optimizer]
    script: str  # the call, with {lr} for the learning rate
    state_per_parameter: int  # floats of optimizer state per parameter


OPTIMIZERS: dict[str, Optimizer] = {
    "sgd": Optimizer(
        "sgd",
        lambda params, lr: torch.optim.SGD(params, lr=lr),
        "torch.optim.SGD(model.parameters(), lr={lr})",
        0,
    ),
    "momentum": Optimizer(
        "momentum",
        lambda params, lr: torch.optim.SGD(params, lr=lr, momentum=MOMENTUM),
        f"torch.optim.SGD(model.parameters(), lr={{lr}}, momentum={MOMENTUM})",
        1,
    ),
    "adam": Optimizer(
        "adam",
        lambda params, lr: torch.optim.Adam(params, lr=lr),
        "torch.optim.Adam(model.parameters(), lr={lr})",
        2,
    ),
}
