"""The rules for what a person may type: each setting's limits, its default, and the parser that checks it.

The command line and the window both parse through these functions, so a value is
accepted or refused with the same words wherever it was typed.
"""

from __future__ import annotations

import math
import re

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, PersonError, message
from gpudemo.core.settings.choices import OPTIMIZER_CHOICES, PRECISION_CHOICES, PROBLEM_CHOICES

EPOCHS_MIN = 1
EPOCHS_MAX = 10_000_000
LR_MIN = 1e-8
LR_MAX = 1000.0
SEED_MIN = 0
SEED_MAX = 2**63 - 1

SAMPLES_MIN = 3
SAMPLES_MAX = 10_000_000
WIDTH_MIN, WIDTH_MAX = 1, 4096
DEPTH_MIN, DEPTH_MAX = 0, 8  # hidden layers; 0 is a linear model
BATCH_MAX = SAMPLES_MAX  # 0 means the full batch
NOISE_MIN, NOISE_MAX = 0.0, 1.0  # the 2-D classes' noise: a standard deviation, in the data's units

DEFAULT_EPOCHS = 100
DEFAULT_LR = 0.1
DEFAULT_SEED = 0
DEFAULT_PROBLEM = "tutorial"
DEFAULT_SAMPLES = 1000
DEFAULT_WIDTH = 32
DEFAULT_DEPTH = 2
DEFAULT_BATCH = 0
DEFAULT_OPTIMIZER = "sgd"
DEFAULT_NOISE = 0.1


# The keys a person may choose, from the choices' tables (core/settings/choices.py).
PROBLEM_KEYS = tuple(PROBLEM_CHOICES)
TEST_IMAGES = 360  # digits: the images held out from training (20 %), which Predict takes by number
OPTIMIZER_KEYS = tuple(OPTIMIZER_CHOICES)
SWEEP_KINDS = ("step", "matmul")  # core/measure/sweep.py
TRANSFER_DIRECTIONS = ("host_to_device", "device_to_host")  # core/measure/transfer.py (named for the views)
DTYPE_KEYS = ("float32", "tf32", "bfloat16")  # float32 with TF32 off; tf32: float32 data, TF32 matmuls
PRECISION_KEYS = tuple(PRECISION_CHOICES)
DEFAULT_PRECISION = "fp32"
STEP_KEYS = ("eager", "compiled", "graph")  # core/step/step.py: how a step is launched
DEFAULT_STEP = "eager"
BACKEND_KEYS = ("gloo", "nccl")  # torch.distributed: gloo between CPU processes, nccl between GPUs
WORKERS_MAX = 64  # data-parallel workers; the machine's CPUs or GPUs bound them further


# Each setting's name as messages say it, to be translated with them.
NAMES = {
    "epochs": QT_TRANSLATE_NOOP("core", "epochs"),
    "samples": QT_TRANSLATE_NOOP("core", "samples"),
    "width": QT_TRANSLATE_NOOP("core", "width"),
    "depth": QT_TRANSLATE_NOOP("core", "depth"),
    "batch size": QT_TRANSLATE_NOOP("core", "batch size"),
    "problem": QT_TRANSLATE_NOOP("core", "problem"),
    "optimizer": QT_TRANSLATE_NOOP("core", "optimizer"),
    "steps": QT_TRANSLATE_NOOP("core", "steps"),
    "max size": QT_TRANSLATE_NOOP("core", "max size"),
    "kind": QT_TRANSLATE_NOOP("core", "kind"),
    "dtype": QT_TRANSLATE_NOOP("core", "dtype"),
    "backend": QT_TRANSLATE_NOOP("core", "backend"),
    "precision": QT_TRANSLATE_NOOP("core", "precision"),
    "step": QT_TRANSLATE_NOOP("core", "step mode"),
    "workers": QT_TRANSLATE_NOOP("core", "workers"),
    "learning rate": QT_TRANSLATE_NOOP("core", "learning rate"),
    "seed": QT_TRANSLATE_NOOP("core", "seed"),
    "noise": QT_TRANSLATE_NOOP("core", "noise"),
    "point": QT_TRANSLATE_NOOP("core", "point"),
    "data": QT_TRANSLATE_NOOP("core", "data file"),
    "value": QT_TRANSLATE_NOOP("core", "value"),
    "guess": QT_TRANSLATE_NOOP("core", "guess"),
}


class InvalidSetting(PersonError, ValueError):
    """A value a person typed that cannot be used; the message names it and what would do.

    `setting` is the setting's key (a key of NAMES); `message` the sentence, to translate.
    """

    def __init__(self, setting: str, message: Message | str):
        super().__init__(message)
        self.setting = setting


def _refuse(setting: str, template: str, **fields: object) -> InvalidSetting:
    return InvalidSetting(setting, message(template, setting=Message(NAMES[setting]), **fields))


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else repr(value)


SHOWN_MAX = 40  # characters of a refused value that a message quotes
DIGITS_MAX = 30  # a whole number longer than this is out of every range (and int() of 4,300 digits raises)


def quoted(value: object) -> str:
    """A refused value as a message shows it: its repr, cut to SHOWN_MAX characters (a pasted book stays out)."""
    shown = repr(value)
    return shown if len(shown) <= SHOWN_MAX else shown[: SHOWN_MAX - 1] + "…"


def _integer(text: str) -> int:
    """The whole number `text` spells (digits, a sign); past DIGITS_MAX digits, ±10**DIGITS_MAX: out of range."""
    if len(text) <= DIGITS_MAX:
        return int(text)
    return (-1 if text.startswith("-") else 1) * 10**DIGITS_MAX


def _shown(number: int, text: str, grouped: bool = True) -> str:
    """An out-of-range number as typed: 12,000,000 (or what was typed, cut, when it is too long to show, and
    '-0' as typed, not 0)."""
    shown = f"{number:,}" if grouped else str(number)
    if number == 0 and text.startswith("-"):
        return quoted(text)
    return shown if len(shown) <= SHOWN_MAX and len(text) <= DIGITS_MAX else quoted(text)


def short_number(number: float) -> str:
    """1e-08 written as 1e-8."""
    return re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{number:g}")


def _whole_number(setting: str, value: object, low: int, high: int, unit: Message | str = "") -> int:
    """A whole number from `low` to `high`, from an int or its text; the message names the value."""
    text = _text(value)
    if isinstance(value, bool):
        raise _refuse(
            setting, QT_TRANSLATE_NOOP("core", "{setting} must be a whole number, not {value}"), value=quoted(value)
        )
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", text):
        number = _integer(text)
    else:
        raise _refuse(
            setting,
            QT_TRANSLATE_NOOP("core", "{setting} must be a whole number from {low} to {high}, not {value}"),
            low=f"{low:,}",
            high=f"{high:,}",
            value=quoted(text),
        )
    if not low <= number <= high:
        raise _refuse(
            setting,
            QT_TRANSLATE_NOOP("core", "{setting} must be from {low} to {high}{unit}, not {value}"),
            low=f"{low:,}",
            high=f"{high:,}",
            unit=unit,
            value=_shown(number, text),
        )
    return number


def parse_epochs(value: object) -> int:
    """Epochs: a whole number from 1 to 10,000,000."""
    return _whole_number("epochs", value, EPOCHS_MIN, EPOCHS_MAX)


def parse_samples(value: object) -> int:
    """Samples: training points of every problem but the tutorial's three and the digits, 3 to 10,000,000."""
    return _whole_number("samples", value, SAMPLES_MIN, SAMPLES_MAX)


def parse_width(value: object) -> int:
    """Width: units in each hidden layer of the MLP, 1 to 4096."""
    return _whole_number("width", value, WIDTH_MIN, WIDTH_MAX)


def parse_depth(value: object) -> int:
    """Depth: hidden layers of the MLP, 0 (a linear model: no hidden layer) to 8."""
    return _whole_number("depth", value, DEPTH_MIN, DEPTH_MAX)


def parse_batch_size(value: object) -> int:
    """Batch size: samples per step, 1 to 10,000,000; 0 (or nothing) means the full batch."""
    if isinstance(value, str) and not value.strip():
        return 0
    return _whole_number("batch size", value, 0, BATCH_MAX, Message(QT_TRANSLATE_NOOP("core", " (0: the full batch)")))


def _choice(setting: str, value: object, keys: tuple[str, ...]) -> str:
    text = value.strip().lower() if isinstance(value, str) else value
    if text not in keys:
        raise _refuse(
            setting,
            QT_TRANSLATE_NOOP("core", "{setting} must be one of {choices}, not {value}"),
            choices=", ".join(keys),
            value=quoted(_text(value)),
        )
    return text


def parse_problem(value: object) -> str:
    return _choice("problem", value, PROBLEM_KEYS)


def parse_optimizer(value: object) -> str:
    return _choice("optimizer", value, OPTIMIZER_KEYS)


PROFILE_STEPS_MAX = 10_000


def parse_profile_steps(value: object) -> int:
    """Steps a profile measures, 1 to 10,000."""
    return _whole_number("steps", value, 1, PROFILE_STEPS_MAX)


def parse_max_size(value: object) -> int:
    """The largest size a sweep goes to: samples for `step`, n for `matmul`."""
    return _whole_number("max size", value, 10, SAMPLES_MAX)


TRANSFER_BYTES_MAX = 1 << 30


def parse_transfer_bytes(value: object) -> int:
    """The largest copy a transfer measurement goes to, 1,024 bytes to 1 GiB."""
    return _whole_number("max size", value, 1024, TRANSFER_BYTES_MAX)


def parse_sweep_kind(value: object) -> str:
    return _choice("kind", value, SWEEP_KINDS)


def parse_dtype(value: object) -> str:
    return _choice("dtype", value, DTYPE_KEYS)


def parse_precision(value: object) -> str:
    return _choice("precision", value, PRECISION_KEYS)


def parse_backend(value: object) -> str:
    return _choice("backend", value, BACKEND_KEYS)


def parse_workers(value: object) -> int:
    """Workers of a data-parallel run, 1 to 64 (the machine's CPUs or GPUs bound it further)."""
    return _whole_number("workers", value, 1, WORKERS_MAX)


# A number as typed anywhere in gpudemo (and as its CSV reader reads it): ASCII digits, a point, an
# exponent; "inf" and "nan" are numbers too, refused as not finite.
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|infinity|nan)", re.IGNORECASE)


def _finite_float(setting: str, value: object) -> float:
    text = _text(value)
    if isinstance(value, bool):
        raise _refuse(
            setting, QT_TRANSLATE_NOOP("core", "{setting} must be a number, not {value}"), value=quoted(value)
        )
    try:
        if not isinstance(value, (int, float)) and not NUMBER.fullmatch(text):
            raise ValueError(text)  # float() takes "1_0" and other scripts' digits; a person's number is ASCII
        number = float(value) if isinstance(value, (int, float)) else float(text)
    except (TypeError, ValueError):
        raise _refuse(
            setting, QT_TRANSLATE_NOOP("core", "{setting} must be a number, not {value}"), value=quoted(text)
        ) from None
    if not math.isfinite(number):
        raise _refuse(
            setting, QT_TRANSLATE_NOOP("core", "{setting} must be a finite number, not {value}"), value=quoted(text)
        )
    return number


def _finite_in(setting: str, value: object, low: float, high: float) -> float:
    """A finite number from `low` to `high`; the message names the value and the range."""
    number = _finite_float(setting, value)
    if not low <= number <= high:
        raise _refuse(
            setting,
            QT_TRANSLATE_NOOP("core", "{setting} must be from {low} to {high}{unit}, not {value}"),
            low=short_number(low),
            high=short_number(high),
            unit="",
            value=quoted(_text(value)),
        )
    return number


def parse_learning_rate(value: object) -> float:
    """Learning rate: a finite number from 1e-8 to 1000; '1e-3' and the like are fine."""
    return _finite_in("learning rate", value, LR_MIN, LR_MAX)


def parse_noise(value: object) -> float:
    """Noise: the standard deviation added to each 2-D point, 0 to 1 (the data spans about -1.5 to 1.5)."""
    return _finite_in("noise", value, NOISE_MIN, NOISE_MAX)


def parse_seed(value: object) -> int:
    """Seed: a whole number from 0 to 2**63 - 1, handed to torch.manual_seed."""
    text = _text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", text):  # -0 is 0, as for every whole number
        number = _integer(text)
    else:
        raise _refuse(
            "seed",
            QT_TRANSLATE_NOOP("core", "{setting} must be a whole number from {low} to {high}, not {value}"),
            low=str(SEED_MIN),
            high="2**63-1",
            value=quoted(text),
        )
    if not SEED_MIN <= number <= SEED_MAX:
        raise _refuse(
            "seed",
            QT_TRANSLATE_NOOP("core", "{setting} must be from {low} to {high}{unit}, not {value}"),
            low=str(SEED_MIN),
            high="2**63-1",
            unit="",
            value=_shown(number, text, grouped=False),
        )
    return number


def parse_step(value: object) -> str:
    """How each step is launched: eager (op by op), compiled (torch.compile) or graph (a captured CUDA graph)."""
    return _choice("step", value, STEP_KEYS)


FLOAT32_MAX = 3.4028234663852886e38  # the model computes in float32: a larger input is inf to it


def _model_input(setting: str, token: str) -> float:
    """A number a model is asked about: finite, and finite in float32 too (1e39 is inf there: no answer)."""
    number = _finite_float(setting, token)
    if abs(number) > FLOAT32_MAX:
        raise _refuse(
            setting,
            QT_TRANSLATE_NOOP("core", "{setting} {value} is too large for the model (float32 holds up to 3.4e38)"),
            value=quoted(_text(token)),
        )
    return number


def parse_values(text: str) -> list[float]:
    """Values to predict for: numbers separated by commas, semicolons or spaces, finite in float32."""
    tokens = [token for token in re.split(r"[,;\s]+", text.strip()) if token]
    if not tokens:
        raise _refuse("value", QT_TRANSLATE_NOOP("core", "type at least one number to predict for, for example 4"))
    return [_model_input("value", token) for token in tokens]


POINTS_MAX = 10_000  # points a person may ask a prediction for at once


def parse_points(text: str) -> list[tuple[float, float]]:
    """Points to classify: pairs x1,x2, the pairs separated by semicolons or spaces ("0.5,0.5; -1,1")."""
    if not isinstance(text, str):
        raise _refuse("point", QT_TRANSLATE_NOOP("core", "{setting} must be a number, not {value}"), value=quoted(text))
    tokens = [token for token in re.split(r"[,;\s()]+", text.strip()) if token]
    if not tokens:
        raise _refuse(
            "point", QT_TRANSLATE_NOOP("core", "type at least one point x1,x2 to classify, for example 0.5,0.5")
        )
    if len(tokens) % 2:
        raise _refuse(
            "point",
            QT_TRANSLATE_NOOP("core", "each {setting} needs two numbers, x1,x2; {value} has {count} numbers"),
            value=quoted(text.strip()),
            count=len(tokens),
        )
    if len(tokens) > 2 * POINTS_MAX:
        raise _refuse(
            "point",
            QT_TRANSLATE_NOOP("core", "classify at most {high} points at once, not {count}"),
            high=f"{POINTS_MAX:,}",
            count=f"{len(tokens) // 2:,}",
        )
    numbers = [_model_input("point", token) for token in tokens]
    return list(zip(numbers[0::2], numbers[1::2], strict=True))


PATH_MAX = 4096


def parse_data_path(value: object, problem: str = "data") -> str:
    """The data file of the problem "data" (read, and checked, when a run needs it); "" for the others."""
    if not isinstance(value, str) or len(value) > PATH_MAX or "\0" in value:
        raise _refuse(
            "data", QT_TRANSLATE_NOOP("core", "{setting} must be a file's path, not {value}"), value=quoted(value)
        )
    if problem == "data" and not value.strip():
        raise _refuse(
            "data", QT_TRANSLATE_NOOP("core", "choose a {setting} (CSV: x,y or x1,x2,label) to train on your own data")
        )
    return value if problem == "data" else ""


def parse_test_images(text: str, count: int) -> list[int]:
    """Test image numbers, 1 to `count`, separated by commas or spaces: their 0-based indices."""
    values = parse_values(text)
    for value in values:
        if not value.is_integer() or not 1 <= value <= count:
            raise _refuse(
                "value",
                QT_TRANSLATE_NOOP("core", "a test image is a whole number from 1 to {high}, not {value}"),
                high=count,
                value=quoted(f"{value:g}"),
            )
    return [int(value) - 1 for value in values]


VALUES, POINTS, IMAGES = "values", "points", "images"  # what a problem's prediction takes (Problem.predicts_from)


def parse_prediction(kind: str, text: str) -> list:
    """What a person typed for a prediction of this kind: values, points x1,x2, or test images by number."""
    if kind == POINTS:
        return parse_points(text)
    if kind == IMAGES:
        return parse_test_images(text, TEST_IMAGES)
    return parse_values(text)
