"""The compiled step as one graph: forward, loss, gradients and the optimizer's update in one function that
torch.compile traces whole (`fullgraph=True`), with no break between them.

Compiled as the tutorial writes it, a step breaks in three: `loss.backward()` hands over to the autograd
engine, and `optimizer.step()` breaks the graph on purpose (torch.optim marks it so), so a step is
several compiled regions with guards, the engine and Python between them: on the CPU slower than eager
at the tutorial's size (0.34x, `python -m benchmarks --only steps`), and on a GPU several CUDA graphs a
step instead of one. Here the gradients come from `torch.autograd.grad`, which dynamo traces into the same graph
(torch 2.13's trace_autograd_ops; before it, `torch.func.grad_and_value`, a transform it traces), and the
update is written out, in place, with torch.optim's own arithmetic:

- sgd: `p -= lr * g`;
- momentum: `buf = 0.9 * buf + g; p -= lr * buf` (the buffer starts at zero: the first step's buffer is
  then the gradient itself, as torch.optim's);
- adam: torch.optim.Adam's defaults (betas 0.9 and 0.999, eps 1e-8), its step counted in a tensor.

The state lives in the run's torch.optim optimizer, under torch.optim's own names (`momentum_buffer`,
`step`, `exp_avg`, `exp_avg_sq`), made at zero before the first step: the rewind (core/step/step.py) and
anything that reads an optimizer's state see what they would of torch.optim's.

Where one graph cannot be made (fp16, whose GradScaler decides on the host whether a step is taken; a
data-parallel model, whose all-reduce runs in the backward's hooks), `one_graph_refusal` says why, and
the step is compiled as the tutorial writes it instead.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

import torch
from torch import nn

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP
from gpudemo.core.step import precision
from gpudemo.core.step.optimizers import ADAM_BETAS, ADAM_EPS, MOMENTUM

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


# Each optimizer: its state at zero for one parameter (torch.optim's names), and its update.
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


def one_graph_refusal(config, module: nn.Module | None) -> str | None:
    """Why `config`'s compiled step cannot be one graph (a template to translate), or None when it can."""
    if config.precision == precision.FP16:
        return QT_TRANSLATE_NOOP(
            "core",
            "fp16's GradScaler decides on the host whether each step is taken, so the step is compiled in"
            " regions with the scaler between them",
        )
    if module is not None:
        return QT_TRANSLATE_NOOP(
            "core",
            "a data-parallel model all-reduces its gradients in the backward's hooks, so the step is compiled"
            " in regions with the all-reduce between them",
        )
    if config.optimizer not in UPDATES:
        return QT_TRANSLATE_NOOP("core", "this optimizer's update is not written out for one graph")
    return None


def traces_autograd() -> bool:
    """Whether dynamo can trace `torch.autograd.grad` into a graph (torch 2.13's trace_autograd_ops)."""
    return hasattr(torch._dynamo.config, "trace_autograd_ops")


_holders = 0  # one-graph steps alive in this process: dynamo traces autograd.grad while there are any
_lock = threading.Lock()


def hold_autograd_tracing() -> Callable[[], None]:
    """Turn dynamo's tracing of `torch.autograd.grad` on (torch 2.13's trace_autograd_ops) for a one-graph
    step, which any compile or recompile of it needs; the function returned lets go (once; the last
    holder to let go turns it off, so a step compiled in regions is traced as before)."""
    global _holders
    if not traces_autograd():
        return lambda: None
    with _lock:
        _holders += 1
        torch._dynamo.config.trace_autograd_ops = True
    held = [True]

    def let_go() -> None:
        global _holders
        with _lock:
            if held.pop() if held else False:
                _holders -= 1
                if _holders == 0:
                    torch._dynamo.config.trace_autograd_ops = False

    return let_go


def one_graph_step(
    model: nn.Module,
    criterion: nn.Module,
    optimizer: torch.optim.Optimizer,
    optimizer_key: str,
    lr: float,
    autocast: torch.autocast | None,
) -> Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]:
    """`step(x, y) -> (outputs, loss in float32)`, to compile with fullgraph=True while `hold_autograd_tracing()`:
    one step of `optimizer_key` on `model`, its state made in `optimizer.state` at zero.

    The gradients: `torch.autograd.grad` where dynamo traces it (torch 2.13 and newer; 21 us a step of the
    tutorial compiled on this CPU), else `torch.func.grad_and_value` (31 us): the same arithmetic."""
    names = [name for name, _ in model.named_parameters()]
    params = [p for _, p in model.named_parameters()]
    make_state, update = UPDATES[optimizer_key]
    for p in params:
        optimizer.state[p] = make_state(p)
    states = [optimizer.state[p] for p in params]
    casting = autocast if autocast is not None else contextlib.nullcontext()

    if traces_autograd():

        def step(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            with casting:
                outputs = model(x)
                loss = criterion(outputs, y)
            grads = torch.autograd.grad(loss, params)
            with torch.no_grad():
                update(params, list(grads), states, lr)
            return outputs.detach(), loss.detach().float()

        return step

    def loss_and_outputs(weights: dict[str, torch.Tensor], x: torch.Tensor, y: torch.Tensor):
        with casting:
            outputs = torch.func.functional_call(model, weights, (x,))
            loss = criterion(outputs, y)
        return loss.float(), outputs

    gradients = torch.func.grad_and_value(loss_and_outputs, has_aux=True)

    def functional_step(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        grads, (loss, outputs) = gradients(dict(zip(names, params, strict=True)), x, y)
        with torch.no_grad():
            update(params, [grads[name] for name in names], states, lr)
        return outputs.detach(), loss.detach()

    return functional_step


# The same update as a person would write it in the generated script (core/outputs/script.py): its state made at
# zero, then the update inside `with torch.no_grad():`, with `params` and `grads` dicts by name. The
# script's run and gpudemo's agree to float32's rounding (tests/core/outputs/test_script.py runs them).
SCRIPT_STATE: dict[str, list[str]] = {
    "sgd": [],
    "momentum": ["buffers = {name: torch.zeros_like(p) for name, p in params.items()}  # momentum's, from zero"],
    "adam": [
        "step_count = torch.zeros((), device=device)  # Adam's state, from zero",
        "exp_avgs = {name: torch.zeros_like(p) for name, p in params.items()}",
        "exp_avg_sqs = {name: torch.zeros_like(p) for name, p in params.items()}",
    ],
}
SCRIPT_UPDATE: dict[str, list[str]] = {
    "sgd": ["for name, p in params.items():", "    p.sub_(grads[name] * lr)"],
    "momentum": [
        "for name, p in params.items():",
        f"    buffers[name].mul_({MOMENTUM}).add_(grads[name])",
        "    p.sub_(buffers[name] * lr)",
    ],
    "adam": [
        "step_count.add_(1)",
        f"bias_correction1 = 1 - {ADAM_BETAS[0]} ** step_count.double()",
        f"bias_correction2 = 1 - {ADAM_BETAS[1]} ** step_count.double()",
        "for name, p in params.items():",
        f"    exp_avgs[name].lerp_(grads[name], 1 - {ADAM_BETAS[0]})",
        f"    exp_avg_sqs[name].mul_({ADAM_BETAS[1]}).addcmul_(grads[name], grads[name], value=1 - {ADAM_BETAS[1]})",
        f"    denom = (exp_avg_sqs[name].sqrt() / bias_correction2.sqrt()).add_({ADAM_EPS})",
        "    p.sub_(exp_avgs[name] / denom * (lr / bias_correction1))",
    ],
}
