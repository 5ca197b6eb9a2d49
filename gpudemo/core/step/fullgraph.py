"""The compiled step as one graph: forward, loss, gradients and the optimizer's update in one function that
torch.compile traces whole (`fullgraph=True`), with no break between them.

Compiled as the tutorial writes it, a step breaks in three: `loss.backward()` hands over to the autograd
engine, and `optimizer.step()` breaks the graph on purpose (torch.optim marks it so), so a step is
several compiled regions with guards, the engine and Python between them: on the CPU slower than eager
at the tutorial's size (0.34x, `python -m benchmarks --only steps`), and on a GPU several CUDA graphs a
step instead of one. Here the gradients come from `torch.autograd.grad`, which dynamo traces into the same graph
(torch 2.13's trace_autograd_ops; before it, `torch.func.grad_and_value`, a transform it traces), and the
update is written out, in place, with torch.optim's own arithmetic: each optimizer's own
(core/step/optimizers.py: `Optimizer.one_graph`, with the same update as the generated script writes it).
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
from gpudemo.core.step.optimizers import OPTIMIZERS


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
    if OPTIMIZERS[config.optimizer].one_graph is None:
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
    written = OPTIMIZERS[optimizer_key].one_graph
    update = written.update
    for p in params:
        optimizer.state[p] = written.state(p)
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
