"""The tutorial's step, minus the bookkeeping nobody here is listening to.

On a problem this small a step is mostly Python: `optimizer.step()` and
`optimizer.zero_grad()` each open a profiler `record_function` range and look for
hooks, and calling a module looks for hooks too. With no profiler and no hook
registered, that is work with no effect: skipping it runs the same arithmetic, in
the same order, about 40% faster on a CPU. Wherever a hook is registered (or a
future torch changes the wrapper this relies on), the public calls are used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch
from torch import nn
from torch.nn.modules import module as module_hooks
from torch.optim import optimizer as optimizer_hooks

_GLOBAL_MODULE_HOOKS = (
    "_global_forward_pre_hooks",
    "_global_forward_hooks",
    "_global_backward_pre_hooks",
    "_global_backward_hooks",
)
_MODULE_HOOKS = (
    "_forward_pre_hooks",
    "_forward_hooks",
    "_backward_pre_hooks",
    "_backward_hooks",
)


def direct_call(module: nn.Module) -> Callable:
    """`module.forward` when calling the module would only look for hooks, else the module.

    An nn.Sequential (the MLPs) calls each layer, and each call looks for hooks again: with
    none on any layer, its layers' `forward`s are chained directly, in the same order.
    """
    hooked = any(getattr(module_hooks, name, None) for name in _GLOBAL_MODULE_HOOKS) or any(
        getattr(part, name, None) for part in module.modules() for name in _MODULE_HOOKS
    )
    if hooked:
        return module
    if type(module) is nn.Sequential and all(not isinstance(layer, nn.Sequential) for layer in module):
        forwards = tuple(layer.forward for layer in module)

        def chained(x: torch.Tensor) -> torch.Tensor:
            for forward in forwards:
                x = forward(x)
            return x

        return chained
    return module.forward


def step_function(optimizer: torch.optim.Optimizer) -> Callable[[], object]:
    """`optimizer.step` without its profiler range, when no step hook is registered."""
    step = type(optimizer).step
    inner = getattr(step, "__wrapped__", None)
    hooked = (
        optimizer_hooks._global_optimizer_pre_hooks
        or optimizer_hooks._global_optimizer_post_hooks
        or optimizer._optimizer_step_pre_hooks
        or optimizer._optimizer_step_post_hooks
    )
    if inner is None or not getattr(step, "hooked", False) or hooked:
        return optimizer.step
    return functools.partial(inner, optimizer)


def zero_grad_function(optimizer: torch.optim.Optimizer) -> Callable[[], None]:
    """`optimizer.zero_grad(set_to_none=True)` without its profiler range."""
    parameters = [p for group in optimizer.param_groups for p in group["params"]]

    def zero_grad() -> None:
        for parameter in parameters:
            parameter.grad = None

    return zero_grad
