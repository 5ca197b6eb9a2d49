"""The guided lesson: the tutorial, step by step, read from a plain data file.

The file (resources/lesson/tutorial.json) is a list of steps, each:
- "key": a name for the step;
- "title", "text": {"en": ..., "zh_CN": ...}; a text may name the values the window fills in:
  {device}, {devices}, {w0}, {b0} (the model before training), {bytes}, {move} (what moving to
  the device moved and how long it took), {w}, {b}, {loss} (the lesson's run), {prediction};
- "widgets": the object names of the window's widgets the step talks about (highlighted);
- "code": pieces of code lines of the Code panel's script it explains (each must match a line);
- "tab": the object name of the tab to show, or null;
- "action": what its button does, one of ACTIONS, or null;
- "needs": "run" when it needs the lesson's run done first (its button then trains), or null.
A teacher adds a step by adding an entry; a test checks every widget and code piece exists.

What the window computes for the texts (no Qt here): the model's starting parameters, and the
time moving the tutorial's model and data to the device takes.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path

import torch

from gpudemo.core.config import TrainingConfig
from gpudemo.core.devices import synchronize
from gpudemo.core.problems import problem_for
from gpudemo.core.training import DataSample, prepared

ENGLISH = "en"
TRAIN, PREDICT, COMPARE_LARGE, PROFILE = "train", "predict", "compare_large", "profile"
ACTIONS = (TRAIN, PREDICT, COMPARE_LARGE, PROFILE)
NEEDS_RUN = "run"
TUTORIAL = TrainingConfig()  # the tutorial's own settings: its three points, SGD at 0.1, 100 epochs, seed 0
LARGE = replace(TUTORIAL, problem="line", samples=1_000_000)  # where a GPU starts to pay
PREDICT_AT = "4"
KEYS = {"key", "title", "text", "widgets", "code", "tab", "action", "needs"}


class LessonError(ValueError):
    """The lesson file is not as described above: says which step and what is wrong."""


@dataclass(frozen=True)
class Step:
    key: str
    title: dict[str, str]
    text: dict[str, str]
    widgets: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    tab: str | None = None
    action: str | None = None
    needs: str | None = None

    def title_in(self, language: str) -> str:
        return self.title.get(language) or self.title[ENGLISH]

    def text_in(self, language: str) -> str:
        return self.text.get(language) or self.text[ENGLISH]


def lesson_file() -> Path:
    return Path(str(files("gpudemo") / "resources" / "lesson" / "tutorial.json"))


def load(path: Path | None = None) -> tuple[Step, ...]:
    """The steps of the lesson file; LessonError names the step and the fault."""
    path = path or lesson_file()
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LessonError(f"{path}: cannot be read as JSON: {error}") from error
    if not isinstance(entries, list) or not entries:
        raise LessonError(f"{path}: must hold a list of steps")
    return tuple(_step(entry, number) for number, entry in enumerate(entries, 1))


def _step(entry: object, number: int) -> Step:
    where = f"step {number}"
    if not isinstance(entry, dict):
        raise LessonError(f"{where}: must be an object")
    unknown = set(entry) - KEYS
    if unknown:
        raise LessonError(f"{where}: unknown keys {sorted(unknown)}; a step has {sorted(KEYS)}")
    for name in ("title", "text"):
        words = entry.get(name)
        if (
            not isinstance(words, dict)
            or not isinstance(words.get(ENGLISH), str)
            or not all(isinstance(value, str) for value in words.values())
        ):
            raise LessonError(f"{where}: {name!r} must map languages to texts, English ({ENGLISH!r}) among them")
    for name in ("widgets", "code"):
        if not isinstance(entry.get(name, []), list) or not all(isinstance(v, str) and v for v in entry.get(name, [])):
            raise LessonError(f"{where}: {name!r} must be a list of names")
    if entry.get("action") not in (None, *ACTIONS):
        raise LessonError(f"{where}: action {entry['action']!r} is not one of {', '.join(ACTIONS)}")
    if entry.get("needs") not in (None, NEEDS_RUN):
        raise LessonError(f"{where}: needs {entry['needs']!r} is not {NEEDS_RUN!r}")
    if not isinstance(entry.get("key"), str) or not isinstance(entry.get("tab") or "", str):
        raise LessonError(f"{where}: 'key' must be a name, 'tab' a name or null")
    return Step(
        entry["key"],
        dict(entry["title"]),
        dict(entry["text"]),
        tuple(entry.get("widgets", [])),
        tuple(entry.get("code", [])),
        entry.get("tab"),
        entry.get("action"),
        entry.get("needs"),
    )


class _Known(dict):
    def __missing__(self, key: str) -> str:  # a value not known yet stays as its name
        return "{" + key + "}"


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with the {names} of `values` filled in; the others left as they are."""
    return text.format_map(_Known(values))


def code_lines(script: str, pieces: tuple[str, ...]) -> list[int]:
    """The numbers (from 0) of the script's lines that hold any of `pieces`."""
    return [number for number, line in enumerate(script.splitlines()) if any(piece in line for piece in pieces)]


def missing_code(script: str, pieces: tuple[str, ...]) -> list[str]:
    """The pieces no line of the script holds (a check for the tests: every step's marked code is in its script)."""
    lines = script.splitlines()
    return [piece for piece in pieces if not any(piece in line for line in lines)]


def initial_parameters(config: TrainingConfig) -> tuple[float, float]:
    """A one-input linear model's weight and bias before training, as a run of `config` starts them."""
    torch.manual_seed(config.seed)
    model = problem_for(config).make_model(config)
    return float(model.weight.detach().reshape(-1)[0]), float(model.bias.detach().reshape(-1)[0])


def data_preview(config: TrainingConfig) -> DataSample | None:
    """What the fit view draws of `config`'s data, made on the CPU as a run makes it."""
    with prepared(replace(config, device="cpu")) as run:
        return run.data_sample()


@dataclass(frozen=True)
class Move:
    bytes: int  # the model's parameters and the data
    seconds: float  # median of warm moves, the device synchronised


def time_move(config: TrainingConfig, repeats: int = 5) -> Move:
    """Move `config`'s model and data from the CPU to its device, as the tutorial's .to(device) does."""
    problem = problem_for(config)
    device = torch.device(config.device)
    torch.manual_seed(config.seed)
    model = problem.make_model(config)
    x, y = problem.make_data(config, torch.Generator().manual_seed(config.seed))
    size = sum(t.numel() * t.element_size() for t in (*model.parameters(), x, y))
    timings = []
    for _ in range(repeats + 1):  # the first pays for anything not yet set up
        synchronize(device)
        began = time.perf_counter()
        moved = (model.to(device), x.to(device), y.to(device))
        synchronize(device)
        timings.append(time.perf_counter() - began)
        del moved
        model = model.to("cpu")
    return Move(size, statistics.median(timings[1:]))
