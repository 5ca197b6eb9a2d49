"""What each measurement is asked: one object the command line, the window and the lessons make alike.

Loads without torch: the window makes a request from its form before PyTorch has loaded, and the
measurement (core/measure/sweep.py) runs it on a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import SWEEP_KINDS

STEP, MATMUL = SWEEP_KINDS
STEP_SIZES = tuple(10**k for k in range(1, 8))  # 10 ... 10,000,000 samples
MATMUL_SIZES = tuple(2**k for k in range(4, 15))  # 16 ... 16,384
LINE = TrainingConfig(problem="line", optimizer="sgd", lr=0.01)  # the step swept unless another is asked for


@dataclass(frozen=True)
class SweepRequest:
    """What a sweep measures: `kind` (STEP or MATMUL) at growing sizes on each of `devices` (the CPU is always
    among them), in `dtype`; a step is a full-batch step of `config`'s problem, model and optimizer (its
    samples the size). `sizes`: these instead of the kind's (the lesson's doubling: N and 2N), none over
    `max_size`. With `roofline`, each row's work is counted and each device's peaks looked up or measured
    (core/measure/roofline.py). With `energy` (a step sweep), each size's step is metered on the device's
    energy counter (1 s idle, then the step for 4 s), or the device's reason is kept. The command line, the
    window and the second lesson each make one."""

    kind: str = STEP
    devices: tuple[str, ...] = ("cpu",)
    dtype: str = "float32"
    config: TrainingConfig = LINE
    roofline: bool = False
    sizes: tuple[int, ...] | None = None
    max_size: int | None = None
    energy: bool = False

    def __post_init__(self) -> None:
        if self.kind not in SWEEP_KINDS:
            raise ValueError(f"kind must be one of {', '.join(SWEEP_KINDS)}, not {self.kind!r}")
        object.__setattr__(self, "devices", tuple(self.devices))
        if self.sizes is not None:
            object.__setattr__(self, "sizes", tuple(self.sizes))

    @property
    def metered(self) -> bool:
        return self.energy and self.kind == STEP

    def every_device(self) -> list[str]:
        """The devices, the CPU among them, each once, in order."""
        return list(dict.fromkeys([*self.devices, "cpu"]))

    def sizes_to_time(self) -> list[int]:
        return [
            size
            for size in self.sizes or (STEP_SIZES if self.kind == STEP else MATMUL_SIZES)
            if self.max_size is None or size <= self.max_size
        ]
