"""The second lesson's measurements taken where a GPU is: the notebook that takes them with PyTorch alone, and
the result file it writes, read back as untrusted input.

The notebook is resources/lesson/gpu_measurements.py cut at its "# %%" lines (the comment lines that open a
cell become the markdown above it): it needs no gpudemo, so a hosted notebook (Colab, Kaggle, a JupyterHub) runs
it as it is. It writes one JSON file: the device's name, torch's version, the date and a figure for each of the
lesson's questions it can answer there, in the units the lesson asks (core/lessons/guesses.py). `read_result`
checks that file before anything of it is shown: its size, its schema, each figure finite and in its range;
anything else is refused with the reason.
"""

from __future__ import annotations

import datetime
import json
import math
from dataclasses import dataclass
from importlib import resources

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, PersonError, message
from gpudemo.core.outputs.notebook import notebook_of, opening_comment

FORMAT, VERSION = "gpudemo-measurements", 1
SIZE_MAX = 64 * 1024  # bytes: the file is a few hundred
NAME_MAX = 120  # characters of a device's name or a torch version
# Each figure the notebook writes (a step of the lesson by its key) and the range it may take.
RANGES = {
    "crossover": (1.0, 1e9),  # samples: the smallest size at which the GPU beat the CPU
    "busy": (0.0, 100.0),  # percent of the step the device computed
    "doubling": (0.01, 100.0),  # twice the samples: times as long
    "modes": (0.01, 1e4),  # the captured step: times as fast as eager
    "bf16": (0.01, 1e4),  # bfloat16's matmul: times as fast as float32's
    "pinned": (0.01, 1e4),  # pinned copies: times the bandwidth of pageable ones
    "energy": (1e-4, 1e4),  # an epoch's joules on the GPU over the CPU's
}


class ResultRefused(PersonError, ValueError):
    """A result file that is not the notebook's, or not whole: the message says what is wrong."""


@dataclass(frozen=True)
class Borrowed:
    """Figures measured on another machine, with where and when."""

    device: str
    torch: str
    date: str  # ISO, YYYY-MM-DD
    figures: dict[str, float | None]

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "device": self.device,
            "torch": self.torch,
            "date": self.date,
            "figures": self.figures,
        }


def _refuse(why: str, **fields: object) -> ResultRefused:
    return ResultRefused(message(why, **fields))


def _name(data: dict, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > NAME_MAX or not value.isprintable():
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "its {key} must be a line of text of at most {most} characters"),
            key=key,
            most=NAME_MAX,
        )
    return value.strip()


def read_result(text: str) -> Borrowed:
    """The measurements in `text` (the notebook's JSON file), checked; raises ResultRefused."""
    if len(text.encode("utf-8", "surrogatepass")) > SIZE_MAX:
        raise _refuse(
            QT_TRANSLATE_NOOP("core", "it is larger than {size} KiB: not a result file"), size=SIZE_MAX // 1024
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise _refuse(QT_TRANSLATE_NOOP("core", "it is not JSON")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(QT_TRANSLATE_NOOP("core", "it is not the measurements notebook's result file"))
    if data.get("version") != VERSION:
        raise _refuse(QT_TRANSLATE_NOOP("core", "it is of a version this gpudemo does not read"))
    device, torch = _name(data, "device"), _name(data, "torch")
    try:
        date = datetime.date.fromisoformat(str(data.get("date")))
    except ValueError:
        raise _refuse(QT_TRANSLATE_NOOP("core", "its date is not a date (YYYY-MM-DD)")) from None
    figures = data.get("figures")
    if not isinstance(figures, dict) or not set(figures) <= set(RANGES):
        raise _refuse(QT_TRANSLATE_NOOP("core", "its figures must be an object of {keys}"), keys=", ".join(RANGES))
    checked: dict[str, float | None] = {}
    for key, value in figures.items():
        low, high = RANGES[key]
        if value is None:
            checked[key] = None
        elif (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or not low <= value <= high
        ):
            raise _refuse(
                QT_TRANSLATE_NOOP("core", "its figure {key} must be a number from {low} to {high}, or null"),
                key=key,
                low=f"{low:g}",
                high=f"{high:g}",
            )
        else:
            checked[key] = float(value)
    return Borrowed(device, torch, date.isoformat(), checked)


def read_result_file(path: str) -> Borrowed:
    """The result file at `path`, checked; raises ResultRefused (an unreadable file too, with its reason)."""
    try:
        with open(path, "rb") as file:
            raw = file.read(SIZE_MAX + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise _refuse(QT_TRANSLATE_NOOP("core", "it cannot be read: {reason}"), reason=reason) from None
    try:
        return read_result(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _refuse(QT_TRANSLATE_NOOP("core", "it is not text (UTF-8)")) from None


def measurements_script() -> str:
    """resources/lesson/gpu_measurements.py: the lesson's measurements with torch alone."""
    return resources.files("gpudemo").joinpath("resources/lesson/gpu_measurements.py").read_text(encoding="utf-8")


def percent_cells(text: str) -> list[tuple[str, str]]:
    """A script cut at its "# %%" lines into (markdown, code) pairs: the comment lines opening each cell are its
    markdown; what comes before the first "# %%" is left out (it says how the file is used)."""
    cells = []
    for chunk in text.split("\n# %%\n")[1:]:
        said, code = opening_comment(chunk.strip("\n").split("\n"))
        cells.append(("\n".join(said), code))
    return cells


def measurements_notebook(quick: bool = False) -> str:
    """The lesson's measurements as the text of an .ipynb file; `quick`: small sizes only (a CPU, a test)."""
    script = measurements_script()
    if quick:
        script = script.replace("\nQUICK = False\n", "\nQUICK = True\n")
    return notebook_of(percent_cells(script), gpu=True)
