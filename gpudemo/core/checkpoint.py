"""A trained model in a file: its weights and the settings it was trained with.

The file is a `torch.save` of plain data (strings, numbers, tensors), read back with
`torch.load(..., weights_only=True)`, so a file that carries code (a pickled object of
any other kind) is refused before anything in it runs. Everything read is checked: the
format's name and version, the settings (with the same rules as a person's input), and
that the weights fit the model those settings build. Writing goes to a temporary file
that is renamed over the target only when complete, so a crash never leaves half a file.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from gpudemo.core.files import write_atomically
from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings import InvalidSetting, TrainingConfig

FORMAT = "gpudemo-checkpoint"
VERSION = 1
MAX_BYTES = 2 * 2**30  # larger than any model gpudemo can build (8 x 4096 x 4096 floats is 0.5 GiB)


class CheckpointError(ValueError):
    """The file cannot be read as a gpudemo checkpoint; the message says why, for a person."""


@dataclass(frozen=True)
class Checkpoint:
    model: nn.Module  # on the CPU
    config: TrainingConfig
    epochs: int  # the epochs it was trained for


def save(path: str | os.PathLike, model: nn.Module, config: TrainingConfig, epochs: int) -> None:
    """Write the model (its CPU weights) and its settings to `path`, all or nothing."""
    settings = dataclasses.asdict(config)
    settings["device"] = "cpu"  # where it loads; the device it trained on is kept apart
    data = {
        "format": FORMAT,
        "version": VERSION,
        "config": settings,
        "trained_on": config.device,
        "epochs": int(epochs),
        "state_dict": {name: tensor.detach().to("cpu").clone() for name, tensor in model.state_dict().items()},
    }
    write_atomically(path, lambda out: torch.save(data, out), binary=True)


def load(path: str | os.PathLike) -> Checkpoint:
    """The model and settings in `path`; raises CheckpointError with a reason for any file that is not one."""
    target = Path(path)
    try:
        size = target.stat().st_size
    except OSError as error:
        raise CheckpointError(f"cannot read {target}: {error.strerror}") from None
    if size > MAX_BYTES:
        raise CheckpointError(f"{target} is {size / 2**30:.1f} GiB: larger than any gpudemo model; not loaded")
    try:
        data = torch.load(target, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        if "global" not in str(error).lower():  # no object of a forbidden kind: the file is garbage
            raise CheckpointError(f"{target} is not a gpudemo checkpoint, or it is damaged or cut short") from None
        raise CheckpointError(f"{target} holds more than weights and settings (code, or objects of other kinds);"
                              " nothing in it was run, and it was not loaded") from None
    except MemoryError:
        raise CheckpointError(f"{target} asks for more memory than there is; not loaded") from None
    except Exception:  # an untrusted file can fail the reader in any of its ways
        raise CheckpointError(f"{target} is not a gpudemo checkpoint, or it is damaged or cut short") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{target} is a PyTorch file but not a gpudemo checkpoint")
    if data.get("version") != VERSION:
        raise CheckpointError(f"{target} is a gpudemo checkpoint of version {data.get('version')!r};"
                              f" this gpudemo reads version {VERSION}")
    settings, weights, epochs = data.get("config"), data.get("state_dict"), data.get("epochs")
    if not isinstance(settings, dict) or not isinstance(weights, dict) or not isinstance(epochs, int) or epochs < 0:
        raise CheckpointError(f"{target} is missing its settings, weights or epochs")
    fields = {field.name for field in dataclasses.fields(TrainingConfig)}
    try:
        config = TrainingConfig(**{key: value for key, value in settings.items() if key in fields})
    except InvalidSetting as error:
        raise CheckpointError(f"{target} has a setting gpudemo cannot use: {error}") from None
    except TypeError as error:
        raise CheckpointError(f"{target} has settings of the wrong kind: {error}") from None
    torch.manual_seed(config.seed)
    model = PROBLEMS[config.problem].make_model(config)
    try:
        model.load_state_dict(weights, strict=True)
    except (RuntimeError, TypeError, AttributeError) as error:
        raise CheckpointError(f"{target}'s weights do not fit the {config.problem} model its settings describe:"
                              f" {_first_line(error)}") from None
    model.eval()
    return Checkpoint(model, config, epochs)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
