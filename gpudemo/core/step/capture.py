"""The graph mode's step: the whole step captured by hand in a CUDA graph, as PyTorch's CUDA-graphs
notes do for a whole network.

Eager, a step of the tutorial is a dozen kernel launches, each paid in Python and in the driver
(~470 us on an H200, for ~16 us of GPU work). Captured, the same kernels replay from one launch:
the host's cost is paid once per replay, not once per kernel. Here one replay runs EPOCHS_PER_REPLAY
epochs (a second graph of one epoch serves a remainder, and a person's "Step one epoch"), so a
replay costs one launch for many epochs. Each epoch writes its loss (and what else the run records
per epoch: a classification's right answers, the path's (w, b)) into a buffer on the device, so
that reading them back stays one copy per replay.

Capture needs static tensors: the full batch (its x and y never move), gradients and optimizer
state allocated before the capture and updated in place (Adam built `capturable`), autocast
without its cache. Before capturing, the step is taken a few times on a side stream (the
warm-up the notes ask for: lazy state, cuBLAS's workspace) and then rewound (core/step/step.py), so
the run starts from the same weights as an eager one, and its losses are those of the epochs asked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

import torch

from gpudemo.core.step.step import Step

EPOCHS_PER_REPLAY = 64  # epochs captured in one graph (one launch for all of them)
WARM_UP_STEPS = 3  # untimed steps before a capture, as in PyTorch's notes (then rewound)


def cuda_graph(body: Callable[[], None], device: torch.device) -> Callable[[], None]:
    """`body` captured in a CUDA graph of its own memory pool, on `device`; the replay, one launch.

    Captured on a stream of `device` with `device` current: torch.cuda.graph's default stream is made on
    whatever device is current at the first capture, and a run on cuda:1 while cuda:0 is current would
    capture nothing (its kernels go to cuda:1's stream, which is not capturing) and replay nothing.
    Captured "thread_local": the window's memory line reads the GPU's free memory from the GUI thread
    twice a second, and under the default "global" mode such a call from another thread during the
    capture would invalidate it."""
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.device(device):
        with torch.cuda.graph(graph, stream=torch.cuda.Stream(device=device), capture_error_mode="thread_local"):
            body()
    return graph.replay


class CapturedEpochs:
    """Epochs of full-batch steps, captured: `replay(epochs)` runs EPOCHS_PER_REPLAY epochs or one, and
    gives back each record of each epoch, stacked, still on the device (a copy, so the next replay may
    write its buffers).

    `records(outputs, loss)` is what the run keeps of each epoch (the loss first), each tensor of a fixed
    shape. `capture` turns a body into its replay (cuda_graph; the tests hand one that runs the body
    as it is, to check everything else on the CPU).
    """

    def __init__(
        self,
        step: Step,
        x: torch.Tensor,
        y: torch.Tensor,
        records: Callable[[torch.Tensor, torch.Tensor], Sequence[torch.Tensor]],
        epochs: int,
        capture: Callable[[Callable[[], None]], Callable[[], None]] = cuda_graph,
        side_stream: bool = True,
    ):
        self.step, self.x, self.y, self.records = step, x, y, records
        saved = step.saved()
        # On the run's device (its streams and the capture's too: see cuda_graph), whichever is current.
        on_device = torch.cuda.device(x.device) if side_stream else contextlib.nullcontext()
        with on_device:
            stream = torch.cuda.Stream(device=x.device) if side_stream else None
            if stream is not None:
                stream.wait_stream(torch.cuda.current_stream(x.device))
            with torch.cuda.stream(stream) if stream is not None else contextlib.nullcontext():
                for _ in range(WARM_UP_STEPS):
                    outputs, loss = step.take(x, y)
                    shapes = [record.shape for record in records(outputs, loss)]
            if stream is not None:
                torch.cuda.current_stream(x.device).wait_stream(stream)
        step.rewind(saved)  # the gradients stay, zeroed: the capture updates them in place
        sizes = sorted({min(EPOCHS_PER_REPLAY, epochs), 1}, reverse=True)
        self.buffers: dict[int, list[torch.Tensor]] = {}
        self.replays: dict[int, Callable[[], None]] = {}
        for size in sizes:
            buffers = [torch.empty((size, *shape), device=x.device, dtype=torch.float32) for shape in shapes]
            self.buffers[size] = buffers
            self.replays[size] = capture(self._body(size, buffers), x.device)
        # Each graph replayed once before the clock (a fresh graph's first launch also uploads it), then
        # rewound again: the run starts from the weights and optimizer it had.
        for replay in self.replays.values():
            replay()
        step.rewind(saved)
        self.largest = sizes[0]

    def _body(self, size: int, buffers: list[torch.Tensor]) -> Callable[[], None]:
        def body() -> None:
            for epoch in range(size):
                outputs, loss = self.step.take(self.x, self.y)
                for buffer, record in zip(buffers, self.records(outputs, loss), strict=True):
                    buffer[epoch].copy_(record.detach())

        return body

    def size_for(self, epochs: int) -> int:
        """The epochs of the replay to run when `epochs` may run before the next check (at least 1)."""
        return self.largest if epochs >= self.largest else 1

    def replay(self, size: int) -> list[torch.Tensor]:
        """Run the graph of `size` epochs (a size of size_for); its records, (size, ...) each."""
        self.replays[size]()
        return [buffer.clone() for buffer in self.buffers[size]]
