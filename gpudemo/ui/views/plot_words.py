"""The training view's plots said in words, for a screen reader (ui/base/spoken.py): what each shows now.

"Loss plot, run 3 on cpu: 0.0102 at epoch 150 of 150, falling." A plot is a picture to a screen reader;
these sentences are its description, kept up to date at a calm pace while a run goes.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication

from gpudemo.core.base import units as fmt
from gpudemo.core.session.runs import Run

TREND_SHARE = 0.1  # the trend compares the last loss with the one this share of the epochs before


def trend(values) -> str:
    """Falling, rising or flat: the last value against one a tenth of the run before it (at least 1 epoch)."""
    count = len(values)
    if count < 2:
        return ""
    last, before = float(values[-1]), float(values[max(0, count - 1 - max(1, int(count * TREND_SHARE)))])
    if not (math.isfinite(last) and math.isfinite(before)):
        return QCoreApplication.translate("PlotWords", "not a number")
    if last < before * 0.99:
        return QCoreApplication.translate("PlotWords", "falling")
    if last > before * 1.01:
        return QCoreApplication.translate("PlotWords", "rising")
    return QCoreApplication.translate("PlotWords", "flat")


def loss_words(run: Run | None) -> str:
    """The loss plot: the chosen run's loss, where it is, which way it goes."""
    if run is None:
        return QCoreApplication.translate("PlotWords", "No run yet: press Start training to see the loss fall.")
    values = run.history.values
    if not len(values):
        return QCoreApplication.translate("PlotWords", "Run {number} on {device}: no epoch yet.").format(
            number=run.number, device=run.config.device
        )
    words = QCoreApplication.translate(
        "PlotWords", "Run {number} on {device}: loss {loss} at epoch {epoch} of {epochs}"
    ).format(
        number=run.number,
        device=run.config.device,
        loss=fmt.loss(float(values[-1])),
        epoch=f"{len(values):,}",
        epochs=f"{run.config.epochs:,}",
    )
    way = trend(values)
    return f"{words}, {way}." if way else f"{words}."


def fit_words(run: Run | None) -> str:
    """The fit plot: the data, and the chosen run's model drawn through it."""
    if run is None:
        return QCoreApplication.translate(
            "PlotWords", "The data the model learns from, and, once a run has gone, its curve."
        )
    return QCoreApplication.translate(
        "PlotWords", "The data, and the curve of run {number}'s model after {epochs} epochs drawn through it."
    ).format(number=run.number, epochs=f"{run.count:,}")


def boundary_words(run: Run | None) -> str:
    """The decision boundary: which class the chosen run's model gives each place, and its accuracy."""
    if run is None:
        return QCoreApplication.translate("PlotWords", "The points of each class; once a run has gone, its boundary.")
    accuracy = run.accuracy.values if run.accuracy is not None else ()
    words = QCoreApplication.translate(
        "PlotWords", "The points of each class over the regions run {number}'s model gives each class"
    ).format(number=run.number)
    if len(accuracy):
        words += ", " + QCoreApplication.translate("PlotWords", "{share} of the training points right").format(
            share=f"{float(accuracy[-1]):.1%}"
        )
    return words + "."
