"""The step modes, one object each, chosen once for a run (`mode_of(config)`): what it refuses and why,
how it prepares its step before the clock, how it takes its epochs, and its words for a person. The
loop, the profile, the sweep, the script, the command line and the window ask the mode rather than
compare its name.

- `Eager`: op by op; nothing to prepare; an epoch at a time.
- `Compiled`: the whole step under torch.compile (core/step/step.py compiles it); warmed before the clock on
  every batch shape the run meets, round after round until a round compiles nothing, then rewound;
  its epochs as eager's. `compiles`: the loop counts graphs built inside the clock.
- `Graph`: the epochs captured in CUDA graphs (core/step/capture.py); each replay runs up to
  EPOCHS_PER_REPLAY epochs, so its records come back as rows (`rows`).

`prepare` and `advance` take the run prepared on its device (core/training/run.py's PreparedRun).
A mode's words and refusals need no torch (the window's form lists the modes before PyTorch has
loaded); what prepares and takes steps imports the torch-holding modules it runs, when it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from gpudemo.core.base import oscalls
from gpudemo.core.base.errors import RunRefused
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import STEP_KEYS

if TYPE_CHECKING:
    import torch

EAGER, COMPILED, GRAPH = STEP_KEYS

WARM_ROUNDS = 4  # a compiled step's warm-up: rounds over its batch shapes, until one compiles nothing


class StepRefused(RunRefused):
    """This run cannot take its steps in the mode asked; the message says why and what would do."""

    setting = "step"


class Stopped(Exception):
    """A stop request in the middle of an epoch (or between a compile's passes): that epoch is not counted."""


def compiled_graphs() -> int:
    """How many graphs torch.compile has built in this process so far."""
    from torch._dynamo.utils import counters  # loaded with torch.compile; only a compiled run asks

    return int(counters["stats"]["unique_graphs"])


class SteppedRun(Protocol):
    """What a mode's `prepare` and `advance` ask of a run: a training run's PreparedRun (core/training/run.py)
    and the sweep's one full-batch step (core/measure/sweep.py's _SweptRun) both are one."""

    config: TrainingConfig
    device: torch.device
    step: object  # core/step/step.Step: its take, its compiled code, its capture
    train_step: Callable  # the step as it is launched: (x, y) -> (outputs, loss)
    x_train: torch.Tensor
    y_train: torch.Tensor
    samples: int
    batch: int  # samples a step; the full batch where it equals samples
    classes: int  # 0: a regression (no right answers counted)
    hits: torch.Tensor | None  # the last epoch's right answers, a classification's
    captured: object | None  # a graph mode's captured replays (core/step/capture.py), once captured

    def should_stop(self) -> bool: ...  # asked between a compile's passes

    def epoch(self) -> torch.Tensor: ...  # one epoch, its loss still on the device

    def position(self) -> torch.Tensor: ...  # (w, b) now, for a model of two parameters


class StepMode:
    key = EAGER
    prepares = False  # it compiles or captures before the clock
    compiles = False  # torch.compile builds graphs: those built inside the clock are counted
    captures = False  # the step is captured whole: a capturable optimizer, static inputs, no minibatches
    rows = False  # a replay's records come back as rows of epochs
    activation_copies = 1  # a step's activations held at once, in steps' worth (core/training/budget.py)
    label = QT_TRANSLATE_NOOP("core", "eager: op by op")  # the form's choice
    title = QT_TRANSLATE_NOOP("core", "Eager step (op by op)")  # a profile's heading

    def heading(self) -> Message:
        """A profile's heading for a step in this mode."""
        from gpudemo.core.step.capture import EPOCHS_PER_REPLAY

        return message(self.title, replay=EPOCHS_PER_REPLAY)

    def refuse(self, config: TrainingConfig) -> None:
        """Raise StepRefused when `config`'s run cannot take its steps in this mode (eager takes any)."""

    def refuse_here(self, config: TrainingConfig) -> None:
        """Raise StepRefused when this machine lacks what the mode needs to run `config` (a script for another
        machine is not refused for it)."""

    def refuse_parallel(self) -> None:
        """Raise StepRefused when data-parallel workers cannot take their steps in this mode."""

    def preparing(self, device: str) -> Message | None:
        """What the status line says while the step is prepared before the clock (None: nothing to prepare)."""
        return None

    def interrupting(self) -> Message | None:
        """What a stop asked while the step is prepared waits for (None: a stop is taken at once)."""
        return None

    def prepared(self, seconds: float, config: TrainingConfig | None = None) -> Message | None:
        """What preparing `config`'s step took, said beside the timed epochs (None when it prepares nothing)."""
        return None

    def not_prepared(self, device: str, reason: str) -> Message:
        """The sentence for a step that could not be prepared on `device`."""
        return message(QT_TRANSLATE_NOOP("core", "could not prepare {device}: {reason}"), device=device, reason=reason)

    def prepare(self, run: SteppedRun, with_path: bool) -> None:
        """Compile or capture `run`'s step before the clock (nothing for eager)."""

    def advance(self, run: SteppedRun, most: int) -> tuple[int, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """Up to `most` epochs (at least one): (how many, their losses, a classification's right answers, the
        path's (w, b) where the step captured them, else None: the read-back reads them as they stand), still
        on the device."""
        return 1, run.epoch(), run.hits, None


class Eager(StepMode):
    pass


class Compiled(StepMode):
    key, prepares, compiles = COMPILED, True, True
    label = QT_TRANSLATE_NOOP("core", "compiled: torch.compile")
    title = QT_TRANSLATE_NOOP("core", "Compiled step (torch.compile, compiled before it was profiled)")

    def preparing(self, device: str) -> Message:
        return message(
            QT_TRANSLATE_NOOP(
                "core",
                "Compiling the step (torch.compile) on {device} before the clock starts: seconds, more the first time…",
            ),
            device=device,
        )

    def refuse_here(self, config: TrainingConfig) -> None:
        """What torch.compile builds with must be here: a C++ compiler for the CPU, Triton for a CUDA GPU (a
        missing one ended the compile in a long traceback from inductor)."""
        if config.device == "cpu" and oscalls.cpp_compiler() is None:
            raise StepRefused(
                QT_TRANSLATE_NOOP(
                    "core",
                    "the compiled step needs a C++ compiler for the CPU, and none was found here (on Windows,"
                    " Visual Studio's Build Tools; on macOS, xcode-select --install; on Linux, g++): use eager",
                )
            )
        if config.device.startswith("cuda") and not oscalls.has_module("triton"):
            raise StepRefused(
                QT_TRANSLATE_NOOP(
                    "core",
                    "the compiled step needs Triton for a CUDA GPU, and this PyTorch has none (on Windows, pip"
                    " install triton-windows): use graph or eager",
                )
            )

    def interrupting(self) -> Message:
        return Message(QT_TRANSLATE_NOOP("core", "the compile (torch.compile cannot be interrupted)"))

    def prepared(self, seconds: float, config: TrainingConfig | None = None) -> Message:
        """The compile's seconds; and where the step could not be one graph (core/step/fullgraph.py), why."""
        from gpudemo.core.step.fullgraph import one_graph_refusal

        split = one_graph_refusal(config, None) if config is not None else None
        if split is None:
            return message(QT_TRANSLATE_NOOP("core", "compiling the step {seconds} s"), seconds=f"{seconds:,.3g}")
        return message(
            QT_TRANSLATE_NOOP("core", "compiling the step {seconds} s, not as one graph: {why}"),
            seconds=f"{seconds:,.3g}",
            why=Message(split),
        )

    def not_prepared(self, device: str, reason: str) -> Message:
        return message(
            QT_TRANSLATE_NOOP(
                "core", "torch.compile could not compile this step on {device}: {reason}; train without compiling"
            ),
            device=device,
            reason=reason,
        )

    def prepare(self, run: SteppedRun, with_path: bool) -> None:
        """Every batch shape the run will meet (the batch; a last minibatch of another size), warmed until a
        round compiles nothing, then rewound (core/step/step.py): the run starts from the weights and optimizer
        state it had, and no shape is first compiled inside the clock (one that was recompiled there:
        1.17 s of 1.18 timed, on the CPU)."""
        import torch

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
    key, prepares, captures, rows = GRAPH, True, True, True
    # Its two captured graphs (64 epochs and one) keep a memory pool each, as large as a step's activations,
    # beside what the warm-up and capture use: three steps' worth in all.
    activation_copies = 3
    label = QT_TRANSLATE_NOOP("core", "graph: captured CUDA graph")
    title = QT_TRANSLATE_NOOP("core", "Graph step (captured in CUDA graphs, {replay} epochs a replay)")

    def refuse(self, config: TrainingConfig) -> None:
        """A CUDA device, the full batch, no fp16 scaler: what a capture needs."""
        if not config.device.startswith("cuda"):
            raise StepRefused(
                message(
                    QT_TRANSLATE_NOOP(
                        "core",
                        "the graph step captures a CUDA graph, and {device} has none: use compiled or eager there",
                    ),
                    device=config.device,
                )
            )
        samples = problem_for(config).samples(config)
        if 0 < config.batch_size < samples:
            raise StepRefused(
                QT_TRANSLATE_NOOP(
                    "core",
                    "the graph step captures the full batch: a minibatch's shuffle and gather would have to be"
                    " captured too, which gpudemo does not do yet. Set the batch size to 0 (the full batch),"
                    " or use the compiled step",
                )
            )
        if config.precision == "fp16":  # precision.FP16
            raise StepRefused(
                QT_TRANSLATE_NOOP(
                    "core",
                    "fp16's GradScaler reads its overflow check back to the host at every step, which a CUDA"
                    " graph cannot capture: use bf16 (no scaler) or the compiled step",
                )
            )

    def refuse_parallel(self) -> None:
        raise StepRefused(
            QT_TRANSLATE_NOOP(
                "core",
                "data-parallel workers take eager or compiled steps: a graph step would have to capture the"
                " all-reduce between them, which gpudemo does not do",
            )
        )

    def preparing(self, device: str) -> Message:
        return message(
            QT_TRANSLATE_NOOP("core", "Capturing the step in CUDA graphs on {device} before the clock starts…"),
            device=device,
        )

    def interrupting(self) -> Message:
        return Message(QT_TRANSLATE_NOOP("core", "the capture (a CUDA graph capture cannot be interrupted)"))

    def prepared(self, seconds: float, config: TrainingConfig | None = None) -> Message:
        return message(
            QT_TRANSLATE_NOOP("core", "capturing the step in CUDA graphs {milliseconds} ms"),
            milliseconds=f"{seconds * 1e3:,.3g}",
        )

    def not_prepared(self, device: str, reason: str) -> Message:
        return message(
            QT_TRANSLATE_NOOP(
                "core",
                "the step could not be captured in a CUDA graph on {device}: {reason}; use the eager or compiled step",
            ),
            device=device,
            reason=reason,
        )

    def prepare(self, run: SteppedRun, with_path: bool) -> None:
        """The epochs captured (core/step/capture.py), recording each epoch's loss, a classification's right
        answers and, `with_path`, (w, b)."""
        from gpudemo.core.step import capture

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

    def advance(self, run: SteppedRun, most: int) -> tuple[int, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """One replay: the captured epochs if `most` allows them all, else one (the path as captured)."""
        size = run.captured.size_for(most)
        records = iter(run.captured.replay(size))
        losses = next(records)
        hits = next(records) if run.classes else None
        return size, losses, hits, next(records, None)


MODES: dict[str, StepMode] = {mode.key: mode for mode in (Eager(), Compiled(), Graph())}


def mode_of(config: TrainingConfig) -> StepMode:
    """The mode `config`'s steps are taken in."""
    return MODES[config.step]


def fastest_for(device: str) -> str:
    """The mode that takes the most epochs a second at the tutorial's size on `device`, where it can: the
    graph step on a CUDA GPU (one launch a replay), the compiled step elsewhere (eager where nothing can
    compile it: no C++ compiler)."""
    if device.startswith("cuda"):
        return GRAPH
    return COMPILED if device != "cpu" or oscalls.cpp_compiler() is not None else EAGER


def check(config: TrainingConfig, here: bool = True) -> None:
    """Refuse, before anything starts, a precision the device cannot do (precision.PrecisionRefused) and
    a step mode the run cannot take (StepRefused), on this machine (`here`; a script for another one is
    checked for the run alone): never a silent fall back to eager."""
    from gpudemo.core.step import precision

    precision.check(config.precision, config.device)
    refuse(config, here)


def refuse(config: TrainingConfig, here: bool = True) -> None:
    """StepRefused when `config`'s step mode cannot take its run, or (`here`) cannot on this machine."""
    mode_of(config).refuse(config)
    if here:
        mode_of(config).refuse_here(config)
