"""The optimizers a person can choose, each with the line of the generated script that makes it.

A new optimizer joins by adding an entry: how to build it, the script's spelling of
the same call (the two must agree; tests/core/outputs/test_script.py checks every entry), and how
many floats of state it keeps per parameter (for the memory estimate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch

MOMENTUM = 0.9
ADAM_BETAS, ADAM_EPS = (0.9, 0.999), 1e-8  # torch.optim.Adam's defaults, which it is built with


@dataclass(frozen=True)
class Optimizer:
    key: str
    build: Callable[..., torch.optim.Optimizer]  # (parameters, lr, **options)
    script: str  # the call, with {lr} for the learning rate and {options} for the capture's option
    state_per_parameter: int  # floats of optimizer state per parameter
    capture_option: str = ""  # what a CUDA graph's capture needs it built with (Adam's step counter on the device)

    def make(self, parameters: Iterable[torch.Tensor], lr: float, capturable: bool = False) -> torch.optim.Optimizer:
        """The optimizer; `capturable`: one whose step can be captured in a CUDA graph (core/step/capture.py)."""
        options = {self.capture_option: True} if capturable and self.capture_option else {}
        return self.build(parameters, lr, **options)

    def line(self, lr: float, capturable: bool = False) -> str:
        """The script's call that makes the same optimizer."""
        option = f", {self.capture_option}=True" if capturable and self.capture_option else ""
        return self.script.format(lr=repr(lr), options=option)


OPTIMIZERS: dict[str, Optimizer] = {
    "sgd": Optimizer(
        "sgd",
        lambda params, lr: torch.optim.SGD(params, lr=lr),
        "torch.optim.SGD(model.parameters(), lr={lr}{options})",
        0,
    ),
    "momentum": Optimizer(
        "momentum",
        lambda params, lr: torch.optim.SGD(params, lr=lr, momentum=MOMENTUM),
        f"torch.optim.SGD(model.parameters(), lr={{lr}}, momentum={MOMENTUM}{{options}})",
        1,
    ),
    "adam": Optimizer(
        "adam",
        lambda params, lr, **options: torch.optim.Adam(params, lr=lr, **options),
        "torch.optim.Adam(model.parameters(), lr={lr}{options})",
        2,
        capture_option="capturable",
    ),
}
