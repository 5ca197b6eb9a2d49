"""The choices a person may make, each declared once with its words: a problem's, an optimizer's and a precision's
title in the form's list and what it means, and the settings a problem uses. The command line's choices
(core/settings/rules.py's keys) and the window's lists (ui/panels/form_fields.choice_box) are made from these
tables; the registries that do the work (core/problems, core/step/optimizers, core/step/precision) are keyed
the same (a test checks it). Torch-free: `gpudemo --help` and the form read them before PyTorch loads.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Choice:
    """One choice of a setting as a person meets it: its title in the form's list and what it means (the item's
    tooltip), both marked for translation; a problem's `uses`: the settings it takes besides the shared ones
    (its Problem's `uses`), so that the form greys the others before PyTorch has loaded."""

    title: str
    tip: str = ""
    uses: frozenset[str] = frozenset()


_POINTS = frozenset({"samples", "width", "depth", "noise"})
PROBLEM_CHOICES = {
    "tutorial": Choice(
        QT_TRANSLATE_NOOP("core", "Tutorial: y = 2x from 3 points"),
        QT_TRANSLATE_NOOP("core", "The tutorial's own problem: nn.Linear(1, 1) on x = 1, 2, 3"),
    ),
    "line": Choice(
        QT_TRANSLATE_NOOP("core", "Line: y = 2x + noise"),
        QT_TRANSLATE_NOOP("core", "nn.Linear(1, 1) on N points, x uniform in [-3, 3], normal noise of 0.5"),
        frozenset({"samples"}),
    ),
    "sine": Choice(
        QT_TRANSLATE_NOOP("core", "Sine: an MLP learns sin(x)"),
        QT_TRANSLATE_NOOP("core", "An MLP of tanh layers on N points of sin(x) + noise of 0.1, x in [-π, π]"),
        frozenset({"samples", "width", "depth"}),
    ),
    "circles": Choice(
        QT_TRANSLATE_NOOP("core", "Circles: two classes, one inside the other"),
        QT_TRANSLATE_NOOP(
            "core",
            "Classify 2-D points: class 0 on a circle of radius 0.5, class 1 on the unit circle. No straight"
            " line separates them: set depth 0 (a linear model) to see it fail",
        ),
        _POINTS,
    ),
    "xor": Choice(
        QT_TRANSLATE_NOOP("core", "XOR: two classes in opposite corners"),
        QT_TRANSLATE_NOOP(
            "core",
            "Classify 2-D points by quadrant: the same sign on both axes is class 0. The classic problem a"
            " single layer cannot solve",
        ),
        _POINTS,
    ),
    "spiral": Choice(
        QT_TRANSLATE_NOOP("core", "Spiral: two interleaved arms"),
        QT_TRANSLATE_NOOP(
            "core",
            "Classify 2-D points on two spiral arms, half a turn apart: the hardest of the three; try more"
            " width and depth",
        ),
        _POINTS,
    ),
    "digits": Choice(
        QT_TRANSLATE_NOOP("core", "Digits: 8x8 handwritten, 10 classes"),
        QT_TRANSLATE_NOOP(
            "core",
            "1,797 handwritten digits of 8x8 pixels (UCI, CC BY 4.0): 1,437 to train on, 360 held out to"
            " test; the classic first GPU exercise",
        ),
        frozenset({"width", "depth"}),
    ),
    # A person's file (File > Open data, --data): titled by its file's name where it is listed.
    "data": Choice("", "", frozenset({"width", "depth"})),
}
OWN_DATA = "data"
OPTIMIZER_CHOICES = {
    "sgd": Choice(QT_TRANSLATE_NOOP("core", "SGD")),
    "momentum": Choice(QT_TRANSLATE_NOOP("core", "SGD with momentum 0.9")),
    "adam": Choice(QT_TRANSLATE_NOOP("core", "Adam")),
}
PRECISION_CHOICES = {  # core/step/precision.py
    "fp32": Choice(QT_TRANSLATE_NOOP("core", "fp32: float32 throughout")),
    "tf32": Choice(QT_TRANSLATE_NOOP("core", "tf32: matmuls on tensor cores")),
    "bf16": Choice(QT_TRANSLATE_NOOP("core", "bf16: mixed, autocast")),
    "fp16": Choice(QT_TRANSLATE_NOOP("core", "fp16: mixed, autocast + GradScaler")),
}
