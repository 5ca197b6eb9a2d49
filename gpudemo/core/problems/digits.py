"""The 8x8 handwritten digits: 1,797 images of 10 classes, the classic first GPU exercise, offline.

The images ship in the package (resources/data/digits.csv.gz, 57 KB: UCI's Optical
Recognition of Handwritten Digits, CC BY 4.0, the copy scikit-learn carries; see
DIGITS-LICENSE.txt there). Shipping them, instead of depending on scikit-learn for one
file, keeps the install small (scikit-learn and SciPy weigh some 50 MB) and the app
offline. A fixed split, the same for every seed, holds 360 images out to test on, so
that test accuracies of different runs compare.
"""

from __future__ import annotations

import functools
import gzip
from importlib.resources import files
from pathlib import Path

import numpy as np
import torch
from torch import nn

from gpudemo.core.problems import mlp
from gpudemo.core.problems.base import Problem
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import TEST_IMAGES  # held out: 20 %

SIDE = 8
PIXELS = SIDE * SIDE
CLASSES = 10
IMAGES = 1797
SPLIT_SEED = 0  # the split's own seed: the same test images for every run
INK = 16.0  # a pixel's largest value; inputs are pixel / INK, 0 to 1


def data_path() -> Path:
    return Path(str(files("gpudemo") / "resources" / "data" / "digits.csv.gz"))


@functools.cache
def _rows() -> torch.Tensor:
    """Every image's 64 pixels and its class, one row each, float32."""
    with gzip.open(data_path(), "rt", encoding="ascii") as file:
        rows = np.loadtxt(file, delimiter=",", dtype=np.float32, ndmin=2)
    if rows.shape != (IMAGES, PIXELS + 1):
        raise ValueError(f"{data_path()} holds {rows.shape}, not ({IMAGES}, {PIXELS + 1})")
    return torch.from_numpy(rows)


def _split() -> tuple[torch.Tensor, torch.Tensor]:
    """(test rows, train rows), the same for every run."""
    rows = _rows()
    order = torch.randperm(len(rows), generator=torch.Generator().manual_seed(SPLIT_SEED))
    return rows[order[:TEST_IMAGES]], rows[order[TEST_IMAGES:]]


def _images(rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return rows[:, :PIXELS] / INK, rows[:, PIXELS].long()


class Digits(Problem):
    key = "digits"
    inputs = PIXELS
    classes = CLASSES
    image_side = SIDE

    def samples(self, config: TrainingConfig) -> int:
        return IMAGES - TEST_IMAGES

    def make_model(self, config: TrainingConfig) -> nn.Module:
        return mlp.mlp(PIXELS, CLASSES, config.width, config.depth)

    def make_data(self, config, generator):
        return _images(_split()[1])

    def make_test_data(self, config):
        return _images(_split()[0])

    def uses_generator(self, config: TrainingConfig) -> bool:
        return False

    def describe(self, model: nn.Module) -> dict[str, float]:
        return {"parameters": float(sum(p.numel() for p in model.parameters()))}

    def parameter_count(self, config: TrainingConfig) -> int:
        return mlp.parameter_count(PIXELS, CLASSES, config.width, config.depth)

    def activation_floats_per_sample(self, config: TrainingConfig) -> int:
        return mlp.activation_floats(PIXELS, CLASSES, config.width, config.depth)

    def script_imports(self) -> list[str]:
        return ["import gzip"]

    def script_model(self, config: TrainingConfig) -> list[str]:
        return mlp.script_lines(PIXELS, CLASSES, config.width, config.depth)

    def script_data(self, config: TrainingConfig) -> list[str]:
        return [
            "# The 1,797 8x8 digits gpudemo ships (UCI, CC BY 4.0; sklearn.datasets.load_digits() has the same).",
            f'with gzip.open({str(data_path())!r}, "rt") as file:',
            '    rows = torch.tensor([[float(v) for v in line.split(",")] for line in file])',
            f"order = torch.randperm(len(rows), generator=torch.Generator().manual_seed({SPLIT_SEED}))",
            f"test, train = rows[order[:{TEST_IMAGES}]], rows[order[{TEST_IMAGES}:]]  # a fixed split: {TEST_IMAGES}"
            " images held out",
            f"x_train, y_train = (train[:, :{PIXELS}] / {INK!r}).to(device), train[:, {PIXELS}].long().to(device)",
            f"x_test, y_test = test[:, :{PIXELS}] / {INK!r}, test[:, {PIXELS}].long()",
        ]

    def script_result(self) -> list[str]:
        return [
            'print("parameters", sum(p.numel() for p in model.parameters()))',
            "with torch.no_grad():",
            '    print("accuracy", (model(x_train.cpu()).argmax(1) == y_train.cpu()).float().mean().item())',
            '    print("test accuracy", (model(x_test).argmax(1) == y_test).float().mean().item())',
        ]
