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
import errno
import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from gpudemo.core.base.files import write_atomically
from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.problems import problem_for, remember
from gpudemo.core.problems.base import Problem
from gpudemo.core.problems.datafile import DataFileError
from gpudemo.core.problems.own import OwnData
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting

FORMAT = "gpudemo-checkpoint"
VERSION = 1
MAX_BYTES = 2 * 2**30  # larger than any model gpudemo can build (8 x 4096 x 4096 floats is 0.5 GiB)


class CheckpointError(PersonError, ValueError):
    """The file cannot be read as a gpudemo checkpoint; the message says why, for a person."""


@dataclass(frozen=True)
class Checkpoint:
    model: nn.Module  # on the CPU
    config: TrainingConfig
    epochs: int  # the epochs it was trained for
    note: Message | None = None  # something to tell: the data file it was trained on has changed since


def _fingerprint(path: str) -> str:
    """The SHA-256 of a data file's bytes: a checkpoint tells later whether its data is still the same."""
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def save(path: str | os.PathLike, model: nn.Module, config: TrainingConfig, epochs: int) -> Message | None:
    """Write the model (its CPU weights) and its settings to `path`, all or nothing; what a person should know
    of the write (`files.write_atomically`), else None."""
    settings = dataclasses.asdict(config)
    settings["device"] = "cpu"  # where it loads; the device it trained on is kept apart
    if config.data:  # the file wherever it was named from: predict works from any folder
        settings["data"] = str(Path(config.data).expanduser().resolve())
    data = {
        "format": FORMAT,
        "version": VERSION,
        "config": settings,
        "trained_on": config.device,
        "epochs": int(epochs),
        "state_dict": {name: tensor.detach().to("cpu").clone() for name, tensor in model.state_dict().items()},
    }
    if config.data:
        data["data_sha256"] = _fingerprint(settings["data"])
        data["data_shape"] = problem_for(config).shape()  # predicts without the file (a moved or deleted CSV)
    return write_atomically(path, lambda out: _torch_save(data, out), binary=True)


def _torch_save(data: dict, out) -> None:
    """torch.save, its write failures as the OSError they are: on a full disk its zip writer turns the file's
    OSError (ENOSPC) into a RuntimeError of its own ("unexpected pos 3648 vs 3600")."""
    try:
        torch.save(data, out)
    except RuntimeError as error:
        cause, seen = error.__context__ or error.__cause__, set()
        while cause is not None and not isinstance(cause, (OSError, KeyboardInterrupt)) and id(cause) not in seen:
            seen.add(id(cause))
            cause = cause.__context__ or cause.__cause__
        if isinstance(cause, KeyboardInterrupt):  # Ctrl-C in the middle: the caller says "interrupted"
            raise
        if isinstance(cause, OSError):
            raise cause from None
        raise OSError(errno.EIO, f"{os.strerror(errno.EIO)} ({_first_line(error)})") from None


def load(path: str | os.PathLike) -> Checkpoint:
    """The model and settings in `path`; raises CheckpointError with a reason for any file that is not one.
    Read as untrusted, stage by stage: the file, its contents, its settings, its problem, its weights."""
    target = Path(path)
    _check_file(target)
    data = _read(target)
    config = _settings(data, target)
    problem, note = _problem(config, data, target)
    model = _model(problem, config, data["state_dict"], target)
    if note is None and config.data and data.get("data_sha256") not in (None, _fingerprint_or_none(config.data)):
        note = message(
            QT_TRANSLATE_NOOP("core", "{data} has changed since this model was trained on it; it predicts as trained"),
            data=config.data,
        )
    return Checkpoint(model, config, data["epochs"], note)


def _check_file(target: Path) -> None:
    """A readable file of at most MAX_BYTES whose zip is whole (its CRCs), before torch reads a byte of it."""
    if target.is_dir():
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is a folder, not a checkpoint"), target)
    try:
        size = target.stat().st_size
    except OSError as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "cannot read {path}: {reason}"), target, reason=error.strerror
        ) from None
    if size > MAX_BYTES:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} is {size} GiB: larger than any gpudemo model; not loaded"),
            target,
            size=f"{size / 2**30:.1f}",
        )
    damaged = _damaged(target)
    if damaged is not None:
        raise damaged


def _read(target: Path) -> dict:
    """The file's plain data (weights only: nothing in it runs), of this format and version, with its parts."""
    try:
        data = torch.load(target, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        if "global" not in str(error).lower():  # no object of a forbidden kind: the file is garbage
            raise _refuse(
                QT_TRANSLATE_NOOP("core", "{path} is not a gpudemo checkpoint, or it is damaged or cut short"), target
            ) from None
        raise _refuse(
            QT_TRANSLATE_NOOP(
                "core",
                "{path} holds more than weights and settings (code, or objects of"
                " other kinds); nothing in it was run, and it was not loaded",
            ),
            target,
        ) from None
    except MemoryError:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} asks for more memory than there is; not loaded"), target
        ) from None
    except Exception:  # an untrusted file can fail the reader in any of its ways
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} is not a gpudemo checkpoint, or it is damaged or cut short"), target
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is a PyTorch file but not a gpudemo checkpoint"), target)
    if data.get("version") != VERSION:
        raise _refuse(
            QT_TRANSLATE_NOOP(
                "core", "{path} is a gpudemo checkpoint of version {found}; this gpudemo reads version {version}"
            ),
            target,
            found=repr(data.get("version")),
            version=VERSION,
        )
    settings, weights, epochs = data.get("config"), data.get("state_dict"), data.get("epochs")
    if not isinstance(settings, dict) or not isinstance(weights, dict) or type(epochs) is not int or epochs < 0:
        raise _refuse(QT_TRANSLATE_NOOP("core", "{path} is missing its settings, weights or epochs"), target)
    return data


def _settings(data: dict, target: Path) -> TrainingConfig:
    """The settings it was trained with, checked by the rules a person's input is."""
    fields = {field.name for field in dataclasses.fields(TrainingConfig)}
    try:
        return TrainingConfig(**{key: value for key, value in data["config"].items() if key in fields})
    except InvalidSetting as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has a setting gpudemo cannot use: {reason}"), target, reason=error.message
        ) from None
    except TypeError as error:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path} has settings of the wrong kind: {reason}"), target, reason=str(error)
        ) from None


def _problem(config: TrainingConfig, data: dict, target: Path) -> tuple[Problem, Message | None]:
    """The problem the model was trained on; a person's data file that cannot be read now stands in by the
    shape the checkpoint kept of it, said in the note."""
    try:
        return problem_for(config), None  # a model of your own data: its file says its inputs and classes
    except DataFileError as error:
        kept = OwnData.remembered(config.data, data.get("data_shape"), error)
        if kept is None:  # a checkpoint of before the shape was kept
            raise _refuse(
                QT_TRANSLATE_NOOP("core", "{path} was trained on a data file that cannot be read now: {reason}"),
                target,
                reason=error.message,
            ) from None
        remember(config.data, kept)
        return kept, message(
            QT_TRANSLATE_NOOP(
                "core", "its data file {data} cannot be read now ({reason}); the model predicts as trained"
            ),
            data=config.data,
            reason=error.message,
        )


def _model(problem: Problem, config: TrainingConfig, weights: dict, target: Path) -> nn.Module:
    """The problem's model with the file's weights, which must fit it exactly and all be finite."""
    torch.manual_seed(config.seed)
    model = problem.make_model(config)
    try:
        model.load_state_dict(weights, strict=True)
    except (RuntimeError, TypeError, AttributeError) as error:
        raise _refuse(
            QT_TRANSLATE_NOOP(
                "core", "{path}'s weights do not fit the {problem} model its settings describe: {reason}"
            ),
            target,
            problem=config.problem,
            reason=_detail(error),
        ) from None
    if not all(torch.isfinite(tensor).all() for tensor in model.state_dict().values() if tensor.is_floating_point()):
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "{path}'s weights are not all finite numbers (NaN or infinity); not loaded"),
            target,
        )
    return model.eval()


def _fingerprint_or_none(path: str) -> str | None:
    try:
        return _fingerprint(path)
    except OSError:
        return None


def _refuse(template: str, path: Path, **fields: object) -> CheckpointError:
    return CheckpointError(message(template, path=str(path), **fields))


def _damaged(path: Path) -> CheckpointError | None:
    """Why a file cannot be a whole checkpoint, read before torch reads it: torch.save writes a zip whose
    every member carries a CRC-32, which torch.load never checks (a flipped bit in a weight loaded and
    predicted a wrong value); a file that is no zip (a bare pickle, garbage) is refused before torch
    unpickles anything of it."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError):
        return _refuse(
            QT_TRANSLATE_NOOP("core", "{path} is not a gpudemo checkpoint, or it is damaged or cut short"), path
        )
    if bad is not None:
        return _refuse(
            QT_TRANSLATE_NOOP(
                "core", "{path} is damaged: its part {part} is not what was written (its checksum differs)"
            ),
            path,
            part=bad,
        )
    return None


def _detail(error: BaseException) -> str:
    """An error's text on one line: torch's "Error(s) in loading state_dict for Linear:" is followed by what."""
    return " ".join(line.strip() for line in str(error).strip().splitlines() if line.strip()) or type(error).__name__


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
