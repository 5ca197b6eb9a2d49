"""What a person may type, and the one set of rules that checks it.

The command line and the window both parse through these functions, so a value is
accepted or refused with the same words wherever it was typed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

EPOCHS_MIN = 1
EPOCHS_MAX = 10_000_000
LR_MIN = 1e-8
LR_MAX = 1000.0
SEED_MIN = 0
SEED_MAX = 2**63 - 1

DEFAULT_EPOCHS = 100
DEFAULT_LR = 0.1
DEFAULT_SEED = 0


class InvalidSetting(ValueError):
    """A value a person typed that cannot be used; the message names it and what would do."""

    def __init__(self, setting: str, message: str):
        super().__init__(message)
        self.setting = setting


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else repr(value)


def short_number(number: float) -> str:
    """1e-08 written as 1e-8."""
    return re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{number:g}")


def parse_epochs(value: object) -> int:
    """Epochs: a whole number from 1 to 10,000,000."""
    text = _text(value)
    if isinstance(value, bool):
        raise InvalidSetting("epochs", f"epochs must be a whole number, not {value!r}")
    if isinstance(value, int):
        number = value
    else:
        if isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str) and re.fullmatch(r"[+-]?\d+", text):
            number = int(text)
        else:
            raise InvalidSetting(
                "epochs", f"epochs must be a whole number from {EPOCHS_MIN} to {EPOCHS_MAX:,}, not {text!r}"
            )
    if not EPOCHS_MIN <= number <= EPOCHS_MAX:
        raise InvalidSetting("epochs", f"epochs must be from {EPOCHS_MIN} to {EPOCHS_MAX:,}, not {number:,}")
    return number


def _finite_float(setting: str, value: object) -> float:
    text = _text(value)
    if isinstance(value, bool):
        raise InvalidSetting(setting, f"{setting} must be a number, not {value!r}")
    try:
        number = float(value) if isinstance(value, (int, float)) else float(text)
    except (TypeError, ValueError):
        raise InvalidSetting(setting, f"{setting} must be a number, not {text!r}") from None
    if not math.isfinite(number):
        raise InvalidSetting(setting, f"{setting} must be a finite number, not {text!r}")
    return number


def parse_learning_rate(value: object) -> float:
    """Learning rate: a finite number from 1e-8 to 1000; '1e-3' and the like are fine."""
    number = _finite_float("learning rate", value)
    if not LR_MIN <= number <= LR_MAX:
        allowed = f"from {short_number(LR_MIN)} to {short_number(LR_MAX)}"
        raise InvalidSetting("learning rate", f"learning rate must be {allowed}, not {_text(value)!r}")
    return number


def parse_seed(value: object) -> int:
    """Seed: a whole number from 0 to 2**63 - 1, handed to torch.manual_seed."""
    text = _text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\+?\d+", text):
        number = int(text)
    else:
        raise InvalidSetting("seed", f"seed must be a whole number from {SEED_MIN} to 2**63-1, not {text!r}")
    if not SEED_MIN <= number <= SEED_MAX:
        raise InvalidSetting("seed", f"seed must be from {SEED_MIN} to 2**63-1, not {number}")
    return number


def parse_values(text: str) -> list[float]:
    """Values to predict for: finite numbers separated by commas, semicolons or spaces."""
    tokens = [token for token in re.split(r"[,;\s]+", text.strip()) if token]
    if not tokens:
        raise InvalidSetting("value", "type at least one number to predict for, for example 4")
    return [_finite_float("value", token) for token in tokens]


@dataclass(frozen=True)
class TrainingConfig:
    """Everything that decides a run. Validated on construction, so a config is always usable."""

    device: str = "cpu"
    epochs: int = DEFAULT_EPOCHS
    lr: float = DEFAULT_LR
    seed: int = DEFAULT_SEED
    problem: str = "linear"
    optimizer: str = "sgd"

    def __post_init__(self) -> None:
        from gpudemo.core.problems import OPTIMIZERS, PROBLEMS  # here: it loads torch, and `--help` need not

        object.__setattr__(self, "epochs", parse_epochs(self.epochs))
        object.__setattr__(self, "lr", parse_learning_rate(self.lr))
        object.__setattr__(self, "seed", parse_seed(self.seed))
        if self.problem not in PROBLEMS:
            raise InvalidSetting("problem", f"problem must be one of {', '.join(PROBLEMS)}, not {self.problem!r}")
        if self.optimizer not in OPTIMIZERS:
            raise InvalidSetting(
                "optimizer", f"optimizer must be one of {', '.join(OPTIMIZERS)}, not {self.optimizer!r}"
            )
