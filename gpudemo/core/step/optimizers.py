"""The optimizers a person can choose: each one object with everything gpudemo does with it.

An entry says how to build it, the script's spelling of the same call (the two must agree;
tests/core/outputs/test_script.py checks every entry), how many floats of state it keeps per parameter (for
the memory estimate), and its update written out for the compiled step's one graph (core/step/fullgraph.py),
in torch and in the generated script's lines, with torch.optim's own arithmetic:

- sgd: `p -= lr * g`;
- momentum: `buf = 0.9 * buf + g; p -= lr * buf` (the buffer starts at zero: the first step's buffer is
  then the gradient itself, as torch.optim's);
- adam: torch.optim.Adam's defaults (betas 0.9 and 0.999, eps 1e-8), its step counted in a tensor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import torch

MOMENTUM = 0.9
ADAM_BETAS, ADAM_EPS = (0.9, 0.999), 1e-8  # torch.optim.Adam's defaults, which it is built with

Update = Callable[[list[torch.Tensor], list[torch.Tensor], list[dict[str, torch.Tensor]], float], None]


# Written `p.sub_(g * lr)`, not `p.add_(g, alpha=-lr)`: the two round alike (-(lr * g) is exact), but torch
# 2.13's inductor compiled the second wrongly on a CPU MLP in one graph (the sine's loss 1.6e11 times off in
# five steps; a single Linear was right), found by tests/core/training/test_step_modes.py.


def _sgd(params: list[torch.Tensor], grads: list[torch.Tensor], states: list[dict], lr: float) -> None:
    for p, g in zip(params, grads, strict=True):
        p.sub_(g * lr)  # torch.optim's p.add_(g, alpha=-lr), the same rounding (see the note above)


def _momentum(params: list[torch.Tensor], grads: list[torch.Tensor], states: list[dict], lr: float) -> None:
    for p, g, state in zip(params, grads, states, strict=True):
        buffer = state["momentum_buffer"]
        buffer.mul_(MOMENTUM).add_(g)
        p.sub_(buffer * lr)


def _adam(params: list[torch.Tensor], grads: list[torch.Tensor], states: list[dict], lr: float) -> None:
    beta1, beta2 = ADAM_BETAS
    for p, g, state in zip(params, grads, states, strict=True):
        step, exp_avg, exp_avg_sq = state["step"], state["exp_avg"], state["exp_avg_sq"]
        step.add_(1)
        exp_avg.lerp_(g, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1 - beta2)
        # in float64 as torch.optim's (a Python float), rounded to float32 only where they meet the tensors
        # (MPS has no float64: float32 there)
        count = step if step.device.type == "mps" else step.double()
        bias_correction1 = 1 - beta1**count
        bias_correction2 = 1 - beta2**count
        denom = (exp_avg_sq.sqrt() / bias_correction2.sqrt()).add_(ADAM_EPS)
        p.sub_(exp_avg / denom * (lr / bias_correction1))


def _no_state(p: torch.Tensor) -> dict[str, torch.Tensor]:
    return {}


UPDATES: dict[str, tuple[Callable[[torch.Tensor], dict[str, torch.Tensor]], Update]] = {
    "sgd": (_no_state, _sgd),
    "momentum": (lambda p: {"momentum_buffer": torch.zeros_like(p)}, _momentum),
    "adam": (
        lambda p: {
            "step": torch.zeros((), dtype=torch.float32, device=p.device),
            "exp_avg": torch.zeros_like(p),
            "exp_avg_sq": torch.zeros_like(p),
        },
        _adam,
    ),
}


@dataclass(frozen=True)
class OneGraphUpdate:
    """An optimizer's update written out for one compiled graph: its state at zero for one parameter (torch.optim's
    names), the update in place, and the same as a person would write it in the generated script
    (core/outputs/script.py): its state made at zero, then the update inside `with torch.no_grad():`, with
    `params` and `grads` dicts by name. The script's run and gpudemo's agree to float32's rounding
    (tests/core/outputs/test_script.py runs them)."""

    state: Callable[[torch.Tensor], dict[str, torch.Tensor]]
    update: Update
    script_state: tuple[str, ...]
    script_update: tuple[str, ...]


@dataclass(frozen=True)
class Optimizer:
    key: str
    build: Callable[..., torch.optim.Optimizer]  # (parameters, lr, **options)
    script: str  # the call, with {lr} for the learning rate and {options} for the capture's option
    state_per_parameter: int  # floats of optimizer state per parameter
    capture_option: str = ""  # what a CUDA graph's capture needs it built with (Adam's step counter on the device)
    one_graph: OneGraphUpdate | None = None  # its update for the compiled step's one graph, where written out

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
        one_graph=OneGraphUpdate(
            _no_state, _sgd, (), ("for name, p in params.items():", "    p.sub_(grads[name] * lr)")
        ),
    ),
    "momentum": Optimizer(
        "momentum",
        lambda params, lr: torch.optim.SGD(params, lr=lr, momentum=MOMENTUM),
        f"torch.optim.SGD(model.parameters(), lr={{lr}}, momentum={MOMENTUM}{{options}})",
        1,
        one_graph=OneGraphUpdate(
            lambda p: {"momentum_buffer": torch.zeros_like(p)},
            _momentum,
            ("buffers = {name: torch.zeros_like(p) for name, p in params.items()}  # momentum's, from zero",),
            (
                "for name, p in params.items():",
                f"    buffers[name].mul_({MOMENTUM}).add_(grads[name])",
                "    p.sub_(buffers[name] * lr)",
            ),
        ),
    ),
    "adam": Optimizer(
        "adam",
        lambda params, lr, **options: torch.optim.Adam(params, lr=lr, **options),
        "torch.optim.Adam(model.parameters(), lr={lr}{options})",
        2,
        capture_option="capturable",
        one_graph=OneGraphUpdate(
            lambda p: {
                "step": torch.zeros((), dtype=torch.float32, device=p.device),
                "exp_avg": torch.zeros_like(p),
                "exp_avg_sq": torch.zeros_like(p),
            },
            _adam,
            (
                "step_count = torch.zeros((), device=device)  # Adam's state, from zero",
                "exp_avgs = {name: torch.zeros_like(p) for name, p in params.items()}",
                "exp_avg_sqs = {name: torch.zeros_like(p) for name, p in params.items()}",
            ),
            (
                "step_count.add_(1)",
                f"bias_correction1 = 1 - {ADAM_BETAS[0]} ** step_count.double()",
                f"bias_correction2 = 1 - {ADAM_BETAS[1]} ** step_count.double()",
                "for name, p in params.items():",
                f"    exp_avgs[name].lerp_(grads[name], 1 - {ADAM_BETAS[0]})",
                f"    exp_avg_sqs[name].mul_({ADAM_BETAS[1]})"
                f".addcmul_(grads[name], grads[name], value=1 - {ADAM_BETAS[1]})",
                f"    denom = (exp_avg_sqs[name].sqrt() / bias_correction2.sqrt()).add_({ADAM_EPS})",
                "    p.sub_(exp_avgs[name] / denom * (lr / bias_correction1))",
            ),
        ),
    ),
}
