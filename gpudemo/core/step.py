"""One optimizer step on (x, y), chosen once for a run: in float32, or in mixed precision under
torch.autocast (fp16 with a GradScaler that scales the loss), the forward compiled or not.

The one-device loop (core/training.py) and every data-parallel worker (core/distributed/
worker.py) take their steps through this class, so a precision or a compile asked for is the
one trained in, wherever the run goes. The statements are those of the generated script.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import torch
from torch import nn

from gpudemo.core import precision
from gpudemo.core.hookless import direct_call, step_function, zero_grad_function


class Step:
    """`take(x, y)` -> (the outputs, the loss in float32): one step of `optimizer` on `model`.

    `module` is what the forward calls when it is not the model itself (DistributedDataParallel's
    wrapper, whose forward does the all-reduce's bookkeeping); without one, the model is called
    without its hook lookups where none is registered (core/hookless.py).
    """

    def __init__(
        self,
        model: nn.Module,
        criterion: nn.Module,
        optimizer: torch.optim.Optimizer,
        config,
        device: torch.device,
        module: nn.Module | None = None,
    ):
        self.forward: Callable = module if module is not None else direct_call(model)
        if config.compile:  # the same module, its forward (and so its backward) compiled on the first call
            self.forward = torch.compile(module if module is not None else model)
        self.loss_of = direct_call(criterion)
        self.optimizer = optimizer
        self.zero_grad, self.optimizer_step = zero_grad_function(optimizer), step_function(optimizer)
        self.autocast = precision.autocast(config.precision, device)  # None: float32
        self.scaler = precision.grad_scaler(config.precision, device)  # fp16's loss scaling
        self.take: Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]] = (
            self._plain if self.autocast is None else self._mixed
        )  # chosen once

    def casting(self) -> contextlib.AbstractContextManager:
        """The autocast of this step's forward and loss (nothing for float32)."""
        return self.autocast if self.autocast is not None else contextlib.nullcontext()

    def _plain(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.zero_grad()
        outputs = self.forward(x)
        loss = self.loss_of(outputs, y)
        loss.backward()
        self.optimizer_step()
        return outputs, loss

    def _mixed(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.zero_grad()
        with self.autocast:
            outputs = self.forward(x)
            loss = self.loss_of(outputs, y)
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer_step()
        return outputs, loss.float()
