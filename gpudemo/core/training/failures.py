"""How a run that cannot go on ends: a TrainingError in a sentence for a person, the run's memory freed."""

from __future__ import annotations

import traceback
from typing import Protocol

import torch

from gpudemo.core.base.errors import TrainingError
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, epochs_phrase, message
from gpudemo.core.hardware.devices import release_cache
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import mode_of


class Releasable(Protocol):
    """What a failure frees: the prepared run (core/training/run.py), named here without importing it."""

    def release(self) -> None: ...


def training_error(config: TrainingConfig, run: Releasable | None, error: BaseException, epochs: int) -> TrainingError:
    """A TrainingError for `error`, after freeing everything the run held (frames of the traceback too)."""
    # The failing frames hold tensors of the run (an out-of-memory error's frames, the largest):
    # free them first, so that emptying the cache can hand their memory back too.
    traceback.clear_frames(error.__traceback__)
    if run is not None:
        run.release()
    device, count = config.device, epochs_phrase(epochs)
    if isinstance(error, (MemoryError, torch.cuda.OutOfMemoryError)):
        if epochs == 0:
            text = message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "{device} ran out of memory before it began; what the run"
                    " held is freed. Use fewer samples, a smaller batch or a smaller"
                    " model",
                ),
                device=device,
            )
        else:
            text = message(
                QT_TRANSLATE_NOOP(
                    "core",
                    "{device} ran out of memory after {count}; what the run"
                    " held is freed. Use fewer samples, a smaller batch or a smaller"
                    " model",
                ),
                device=device,
                count=count,
            )
    elif epochs == 0:
        text = message(
            QT_TRANSLATE_NOOP("core", "could not prepare {device}: {reason}"), device=device, reason=str(error)
        )
    else:
        text = message(
            QT_TRANSLATE_NOOP("core", "training on {device} failed after {count}: {reason}"),
            device=device,
            count=count,
            reason=str(error),
        )
    if run is None:
        release_cache(config.device)
    return TrainingError(text)


def not_prepared(config: TrainingConfig, error: Exception) -> TrainingError:
    """The step could not be compiled or captured: the reason, in a sentence that names the mode."""
    reason = str(error).strip().splitlines()[0][:300] if str(error).strip() else type(error).__name__
    return TrainingError(mode_of(config).not_prepared(config.device, reason))
