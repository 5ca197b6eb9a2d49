"""One optimizer step on (x, y), chosen once for a run: in float32, or in mixed precision under
torch.autocast (fp16 with a GradScaler that scales the loss); launched op by op (eager), or the
whole step compiled by torch.compile into one graph (compiled: core/step/fullgraph.py). The third mode, a
step captured in a CUDA graph, replays this same step: see core/step/capture.py.

The one-device loop (core/training/) and every data-parallel worker (core/distributed/
worker.py) take their steps through this class, so a precision or a step mode asked for is the
one trained in, wherever the run goes. The statements are those of the generated script.
"""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable

import torch
from torch import nn

from gpudemo.core.settings import rules
from gpudemo.core.step import fullgraph, precision
from gpudemo.core.step.compiled import CompiledCode, cudagraph_trees_in_this_thread, load_compiler
from gpudemo.core.step.hookless import direct_call, step_function, zero_grad_function

EAGER, COMPILED, GRAPH = rules.STEP_KEYS


def compile_mode(device: torch.device, module: nn.Module | None = None) -> str | None:
    """torch.compile's mode for a compiled step: on CUDA "reduce-overhead" (the compiled graphs replayed
    as CUDA graphs: one launch each instead of one per kernel), elsewhere the default. Not for a data-
    parallel module, whose all-reduce hooks run between the graphs."""
    return "reduce-overhead" if device.type == "cuda" and module is None else None


class Step:
    """`take(x, y)` -> (the outputs, the loss in float32): one step of `optimizer` on `model`.

    `module` is what the forward calls when it is not the model itself (DistributedDataParallel's
    wrapper, whose forward does the all-reduce's bookkeeping); without one, the model is called
    without its hook lookups where none is registered (core/step/hookless.py). `forward` is always the
    eager forward (for evaluations under no_grad); a compiled step compiles `take` as a whole.

    `keep_outputs`: the caller reads the outputs a step returns (a classification's hits); without, a step
    replayed as CUDA graphs does not copy them out.

    `capture`: the step is to be captured in a CUDA graph, so autocast keeps no cache of cast weights
    and the gradients are zeroed in place (a captured step must find them where the capture left them).
    """

    def __init__(
        self,
        model: nn.Module,
        criterion: nn.Module,
        optimizer: torch.optim.Optimizer,
        config,
        device: torch.device,
        module: nn.Module | None = None,
        capture: bool = False,
        keep_outputs: bool = True,
    ):
        self.model = model
        self.forward: Callable = module if module is not None else direct_call(model)  # for evaluations too
        self.step_forward = self.forward  # what the step's forward calls
        self.loss_of = direct_call(criterion)
        self.optimizer = optimizer
        self.optimizer_step = step_function(optimizer)
        self.zero_grad = (lambda: optimizer.zero_grad(set_to_none=False)) if capture else zero_grad_function(optimizer)
        self.autocast = precision.autocast(config.precision, device, cache=not capture)  # None: float32
        self.scaler = precision.grad_scaler(config.precision, device)  # fp16's loss scaling
        whole = self._plain if self.autocast is None else self._mixed
        self.take: Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]] = whole  # chosen once
        self.setup_seconds = 0.0  # loading the compiler for a compiled step, counted with its compile
        self.compiled_code: CompiledCode | None = None
        self.mode: str | None = None  # torch.compile's mode, for a compiled step
        self.keeps_outputs = keep_outputs
        self._let_go: Callable[[], None] = lambda: None  # a one-graph step's hold on autograd's tracing
        if config.step == COMPILED:
            # One graph, or (fp16, data parallel: fullgraph.one_graph_refusal says why) regions.
            one = fullgraph.one_graph_refusal(config, module) is None
            if one:  # forward, loss, gradients and update: one graph (core/step/fullgraph.py)
                whole = fullgraph.one_graph_step(
                    model, criterion, optimizer, config.optimizer, config.lr, self.autocast
                )
                self._let_go = fullgraph.hold_autograd_tracing()  # until release(), or until this step is dropped
                weakref.finalize(self, self._let_go)
            else:  # the same statements through the public calls, compiled in regions (graph breaks between)
                self.step_forward = module if module is not None else model
                self.loss_of, self.optimizer_step = criterion, optimizer.step
                self.zero_grad = lambda: optimizer.zero_grad(set_to_none=True)
            # A fresh start for each run's compile: the last run's graphs guard on its model and optimizer,
            # so each run would add graphs to the same code's cache, and past torch._dynamo.config's
            # cache_size_limit (the 8th run in one window, measured) torch runs the step uncompiled, silently.
            began = time.perf_counter()
            load_compiler()  # a second or more the first time (inductor's ~1,000 modules): part of the compile's cost
            torch._dynamo.reset()
            self.compiled_code = CompiledCode()  # what it installs, let go of by release()
            self.mode = compile_mode(device, module)
            if self.mode == "reduce-overhead":
                cudagraph_trees_in_this_thread()  # the window compiles in a thread of each job's own
            if self.mode == "reduce-overhead" and one:
                # Updated in place inside the CUDA graph: at fixed addresses, so one replay a step serves.
                for tensor in (*model.parameters(), *(t for s in optimizer.state.values() for t in s.values())):
                    torch._dynamo.mark_static_address(tensor)
            # one graph or an error, never a silent break; a graph per batch size
            compiled = torch.compile(whole, mode=self.mode, fullgraph=one, dynamic=False if one else None)
            self.take = self._with_mark(compiled, self.keeps_outputs) if self.mode == "reduce-overhead" else compiled
            self.setup_seconds = time.perf_counter() - began

    def casting(self) -> contextlib.AbstractContextManager:
        """The autocast of this step's forward and loss (nothing for float32)."""
        return self.autocast if self.autocast is not None else contextlib.nullcontext()

    def _plain(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.zero_grad()
        outputs = self.step_forward(x)
        loss = self.loss_of(outputs, y)
        loss.backward()
        self.optimizer_step()
        return outputs, loss

    def _mixed(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.zero_grad()
        with self.autocast:
            outputs = self.step_forward(x)
            loss = self.loss_of(outputs, y)
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer_step()
        return outputs, loss.float()

    @staticmethod
    def _with_mark(compiled: Callable, keep_outputs: bool) -> Callable:
        """A step whose graphs torch.compile replays as CUDA graphs: each call is a new step (so the last
        one's outputs may be overwritten), and the loss is copied out before the next call overwrites it;
        the outputs too where they are read (`keep_outputs`: a classification counts its right answers),
        else they stay the graph's (a clone of 10,000,000 outputs a step is 40 MB of traffic)."""

        def take(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            torch.compiler.cudagraph_mark_step_begin()
            outputs, loss = compiled(x, y)
            return (outputs.detach().clone() if keep_outputs else outputs.detach()), loss.detach().clone()

        return take

    def release(self) -> None:
        """Let go of what compiling this step made (core/step/compiled.py); nothing for an eager step. In the
        thread that ran it: its CUDA-graph trees are that thread's."""
        if self.compiled_code is not None:
            self.compiled_code.release()
            self.compiled_code = None
        self._let_go()

    # Untimed steps that leave no trace: a compile's or a capture's warm-up.

    def saved(self) -> list[torch.Tensor]:
        """The parameters as they stand (copies), for `rewind`."""
        return [p.detach().clone() for p in self.model.parameters()]

    def rewind(self, saved: list[torch.Tensor]) -> None:
        """Back to the parameters `saved` and a fresh optimizer, in place (the same tensors, so that
        compiled guards and captured addresses still hold): the optimizer's state zeroed, which is
        the state of a fresh one (SGD's momentum buffer: 0.9 * 0 + grad is the first step's grad;
        Adam's step count and moments start at 0), and a GradScaler back to its first scale."""
        with torch.no_grad():
            for parameter, value in zip(self.model.parameters(), saved, strict=True):
                parameter.copy_(value)
                if parameter.grad is not None:
                    parameter.grad.zero_()
            for state in self.optimizer.state.values():
                for value in state.values():
                    if isinstance(value, torch.Tensor):
                        value.zero_()
            if self.scaler is not None and getattr(self.scaler, "_scale", None) is not None:
                self.scaler._scale.fill_(self.scaler._init_scale)
                self.scaler._growth_tracker.zero_()
