"""The step modes, one object each, chosen once for a run: how it prepares its step before the clock and
how it takes its epochs. The loop, the profile and the words for a person ask the mode rather than
compare its name.

- `Eager`: op by op; nothing to prepare; an epoch at a time.
- `Compiled`: the whole step under torch.compile (core/step.py compiles it); warmed before the clock on
  every batch shape the run meets, round after round until a round compiles nothing, then rewound;
  its epochs as eager's. `compiles`: the loop counts graphs built inside the clock.
- `Graph`: the epochs captured in CUDA graphs (core/capture.py); each replay runs up to
  EPOCHS_PER_REPLAY epochs, so its records come back as rows (`rows`).

Each method takes the run prepared on its device (core/training/run.py's PreparedRun).
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from gpudemo.core import capture
from gpudemo.core.step import COMPILED, EAGER, GRAPH
from gpudemo.core.training.failures import Stopped

WARM_ROUNDS = 4  # a compiled step's warm-up: rounds over its batch shapes, until one compiles nothing


def compiled_graphs() -> int:
    """How many graphs torch.compile has built in this process so far."""
    from torch._dynamo.utils import counters  # loaded with torch.compile; only a compiled run asks

    return int(counters["stats"]["unique_graphs"])


class StepMode:
    key = EAGER
    prepares = False  # it compiles or captures before the clock
    compiles = False  # torch.compile builds graphs: those built inside the clock are counted
    rows = False  # a replay's records come back as rows of epochs

    def prepare(self, run, with_path: bool) -> None:
        """Compile or capture `run`'s step before the clock (nothing for eager)."""

    def advance(
        self, run, most: int, with_path: bool
    ) -> tuple[int, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """Up to `most` epochs (at least one): (how many, their losses, a classification's right answers, the
        path's (w, b) when `with_path`), still on the device."""
        losses = run.epoch()
        return 1, losses, run.hits, run.position() if with_path else None


class Eager(StepMode):
    pass


class Compiled(StepMode):
    key, prepares, compiles = COMPILED, True, True

    def prepare(self, run, with_path: bool) -> None:
        """Every batch shape the run will meet (the batch; a last minibatch of another size), warmed until a
        round compiles nothing, then rewound (core/step.py): the run starts from the weights and optimizer
        state it had, and no shape is first compiled inside the clock (one that was recompiled there:
        1.17 s of 1.18 timed, on the CPU)."""
        saved = run.step.saved()
        full = run.batch >= run.samples
        if full and run.step.mode == "reduce-overhead":
            # The full batch as the CUDA graphs' own inputs: not copied into them at every step (two 40 MB
            # copies a step at 10,000,000 samples). Warmed with these very tensors (whether an input is
            # static is decided from those seen at the compile).
            torch._dynamo.mark_static_address(run.x_train)
            torch._dynamo.mark_static_address(run.y_train)
        batches = [(run.x_train, run.y_train)] if full else []
        sizes = [] if full else [run.batch] + ([run.samples % run.batch] if run.samples % run.batch else [])
        for size in sizes:
            index = torch.arange(size, device=run.device)
            batches.append((run.x_train[index], run.y_train[index]))
        try:
            self._warm(run, batches)
        finally:
            run.step.rewind(saved)

    @staticmethod
    def _warm(run, batches: list[tuple[torch.Tensor, torch.Tensor]]) -> None:
        """Steps on each batch shape until a whole round compiles nothing new: an optimizer makes its state on
        its first step (momentum's buffers: a graph more on the second call), a second size makes dynamic
        shapes, and CUDA-graph trees record a graph on the call after the one that compiled it. So nothing
        is compiled or recorded inside the clock (`recompiles` counts dynamo's graphs, not recordings: a
        round more than dynamo needs covers those). At most WARM_ROUNDS rounds."""
        for round_ in range(WARM_ROUNDS):
            before = compiled_graphs()
            for x, y in batches:
                for _ in range(2):
                    if run.should_stop():  # a compile cannot be interrupted, but the next one need not start
                        raise Stopped
                    run.train_step(x, y)
            if round_ and compiled_graphs() == before:
                return


class Graph(StepMode):
    key, prepares, rows = GRAPH, True, True

    def prepare(self, run, with_path: bool) -> None:
        """The epochs captured (core/capture.py), recording each epoch's loss, a classification's right
        answers and, `with_path`, (w, b)."""
        run.captured = capture.CapturedEpochs(
            run.step,
            run.x_train,
            run.y_train,
            self._records(run, with_path),
            run.config.epochs,
            capture=capture.cuda_graph,
            side_stream=run.device.type == "cuda",
        )

    @staticmethod
    def _records(run, with_path: bool) -> Callable[[torch.Tensor, torch.Tensor], list[torch.Tensor]]:
        """What an epoch records, for the captured epochs: its loss, a classification's right answers, (w, b)."""

        def records(outputs: torch.Tensor, loss: torch.Tensor) -> list[torch.Tensor]:
            kept = [loss.detach().float()]
            if run.classes:
                kept.append(run.hits_of(outputs, run.y_train))
            if with_path:
                kept.append(run.position())
            return kept

        return records

    def advance(
        self, run, most: int, with_path: bool
    ) -> tuple[int, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """One replay: the captured epochs if `most` allows them all, else one (the path as captured)."""
        size = run.captured.size_for(most)
        records = iter(run.captured.replay(size))
        losses = next(records)
        hits = next(records) if run.classes else None
        return size, losses, hits, next(records, None)


MODES: dict[str, StepMode] = {mode.key: mode for mode in (Eager(), Compiled(), Graph())}
