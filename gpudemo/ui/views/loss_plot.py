"""A loss curve: the full history as its data, an envelope of it on screen.

The curve item's data is every epoch (x = the epoch, or the run's clock at it; y = its
loss), read from a LossHistory with no copy of its own. What it draws is the history's
min/max envelope of the visible epochs at about one bin per pixel, computed from block
extremes, so a refresh costs about the same at a hundred epochs as at ten million.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.PlotDataItem import PlotDataset
from PySide6.QtCore import QPointF, QRectF

from gpudemo.core.training.history import LossHistory


class Clock(Protocol):
    """Maps epochs to the run's clock and back (a Run does): for a loss-against-seconds x axis."""

    def seconds_at(self, epochs: np.ndarray) -> np.ndarray: ...

    def epochs_at(self, seconds: np.ndarray | float) -> np.ndarray: ...


class LossCurve(pg.PlotDataItem):
    """A PlotDataItem whose data is a LossHistory: x = the epoch (1, 2, ...) or its time, y = its loss.

    It keeps no arrays of its own: `xData` and `yData` are made from the history when
    asked for, and what it draws is the history's envelope of the visible epochs.
    """

    def __init__(self, **kwargs):
        self._history: LossHistory | None = None
        self._count = 0
        self._clock: Clock | None = None
        self._cached: tuple | None = None
        super().__init__(**kwargs)
        self.opts["clipToView"] = True  # so that a pan or zoom asks for a new envelope
        self.opts["autoDownsample"] = False  # the envelope is the downsampling

    def show_history(self, history: LossHistory | None, count: int = 0, clock: Clock | None = None) -> None:
        """Draw the first `count` epochs of `history` (None clears the curve); x in `clock`'s seconds if given."""
        if history is not self._history or clock is not self._clock:
            self._cached = None  # an envelope belongs to one history on one axis
        self._history = history
        self._clock = clock
        self._count = 0 if history is None else min(count, history.count)
        self.updateItems(styleUpdate=False)
        self.informViewBoundsChanged()
        self.sigPlotChanged.emit(self)

    @property
    def count(self) -> int:
        return self._count

    @property
    def xData(self) -> np.ndarray | None:
        if not self._count:
            return None
        epochs = np.arange(1, self._count + 1, dtype=np.float64)
        return epochs if self._clock is None else self._clock.seconds_at(epochs)

    @property
    def yData(self) -> np.ndarray | None:
        return self._history.head(self._count) if self._count else None

    def getOriginalDataset(self):
        return self.xData, self.yData

    def dataRect(self) -> QRectF | None:
        history = self._history
        if not self._count or not math.isfinite(history.min_finite):
            return None
        left, right = 1.0, float(self._count)
        if self._clock is not None:
            left, right = (float(x) for x in self._clock.seconds_at(np.array([left, right])))
        return QRectF(QPointF(left, history.min_finite), QPointF(right, history.max_finite))

    def clear(self) -> None:
        self.show_history(None)

    def _getDisplayDataset(self) -> PlotDataset | None:
        history, count = self._history, self._count
        if history is None or count == 0:
            return None
        view = self.getViewBox()
        first, last, bins = 1, count, 1000
        if view is not None:
            bins = max(50, int(view.width()))
            if not view.autoRangeEnabled()[0]:
                rect = view.viewRect()
                left, right = rect.left(), rect.right()
                if self._clock is not None:
                    left, right = self._clock.epochs_at(np.array([left, right]))
                first, last = math.floor(left), math.ceil(right) + 1
        log_y = bool(self.opts["logMode"][1])
        key = (count, first, last, bins, log_y)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        x, y = history.envelope(count, first, last, bins)
        if self._clock is not None:
            x = self._clock.seconds_at(x)
        y = y.astype(np.float64)
        if log_y:  # a loss of exactly 0 is drawn at the smallest positive loss seen
            floor = history.min_positive if math.isfinite(history.min_positive) else 1.0
            with np.errstate(invalid="ignore"):
                y = np.log10(np.maximum(y, floor))
        finite = np.isfinite(y)
        if not finite.all():  # a diverged run ends on inf or nan: draw up to it
            x, y = x[finite], y[finite]
        dataset = PlotDataset(x, y, True, True)
        self._cached = (key, dataset)
        return dataset
