"""How much memory a run needs, and a refusal that says it and what its device has free.

The estimate adds what a step keeps alive: parameters, their gradients, the
optimizer's state, the data (and its shuffled order when batching), and the
activations of one batch through forward, loss and backward (three batches' for a
graph step, whose two captured graphs keep a memory pool each). It is an estimate
(allocators round up, libraries keep workspaces), so a run is refused only when
it needs more than is free; a run that passes and still runs out is ended by the
training loop with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpudemo.core.base.errors import TrainingError
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, message
from gpudemo.core.base.units import bytes_text
from gpudemo.core.hardware.devices import free_bytes
from gpudemo.core.problems import problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import mode_of
from gpudemo.core.step.optimizers import OPTIMIZERS

# Bytes of a float32. bf16 and fp16 runs keep float32 weights and data too (autocast lowers only the
# activations of matmuls), so this is an upper bound for them.
FLOAT = 4
INDEX = 8  # bytes: torch.randperm's int64


@dataclass(frozen=True)
class MemoryNeed:
    parameters: int  # bytes, each
    gradients: int
    optimizer_state: int
    data: int
    activations: int

    @property
    def total(self) -> int:
        return self.parameters + self.gradients + self.optimizer_state + self.data + self.activations


def batch_size(config: TrainingConfig) -> int:
    """Samples per step: the whole data set for a full batch (0, or a batch at least as large)."""
    samples = problem_for(config).samples(config)
    return samples if config.batch_size == 0 else min(config.batch_size, samples)


def estimate(config: TrainingConfig) -> MemoryNeed:
    problem = problem_for(config)
    samples, batch = problem.samples(config), batch_size(config)
    parameters = problem.parameter_count(config) * FLOAT
    shuffled = batch < samples
    # a sample: its inputs (float32) and its target (a float32 value, or an int64 class)
    per_sample = problem.inputs * FLOAT + (INDEX if problem.classes else FLOAT)
    test = problem.make_test_data(config) if problem.classes else None
    held_out = len(test[1]) * per_sample if test is not None else 0
    data = samples * per_sample + held_out + (samples * INDEX + batch * per_sample if shuffled else 0)
    return MemoryNeed(
        parameters=parameters,
        gradients=parameters,
        optimizer_state=OPTIMIZERS[config.optimizer].state_per_parameter * parameters,
        data=data,
        activations=batch * problem.activation_floats_per_sample(config) * FLOAT * mode_of(config).activation_copies,
    )


class RunTooLarge(TrainingError):
    """A run that cannot fit on its device; the message has both figures."""

    def __init__(self, config: TrainingConfig, need: MemoryNeed, free: int):
        super().__init__(
            message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "this run needs about {total} on {device} ({data} data, {activations}"
                    " activations, {state} parameters, gradients and optimizer state), but only"
                    " {free} is free there; use fewer samples, a smaller batch or a smaller model",
                ),
                total=bytes_text(need.total),
                device=config.device,
                data=bytes_text(need.data),
                activations=bytes_text(need.activations),
                state=bytes_text(need.parameters + need.gradients + need.optimizer_state),
                free=bytes_text(free),
            )
        )
        self.need, self.free = need, free


def check_fits(config: TrainingConfig) -> MemoryNeed:
    """The run's estimated need; raises RunTooLarge when it is more than the device has free."""
    need = estimate(config)
    try:
        free = free_bytes(config.device)
    except Exception:  # a device that cannot say: let the run try, and the loop catch what fails
        free = None
    if free is not None and need.total > free:
        raise RunTooLarge(config, need, free)
    return need
