"""The live loss curve: the full history as its data, an envelope of it on screen.

The curve item's data is every epoch (x = the epoch, y = its loss), read from the
run's LossHistory with no copy of its own. What it draws is the history's min/max envelope of the
visible epochs at about one bin per pixel, computed from block extremes, so a
refresh costs about the same at a hundred epochs as at ten million.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.PlotDataItem import PlotDataset
from PySide6.QtCore import QCoreApplication, QPointF, QRectF

from gpudemo.core.history import LossHistory
from gpudemo.ui.plot_style import new_plot


def tr(text: str) -> str:
    return QCoreApplication.translate("LossPlot", text)


class LossCurve(pg.PlotDataItem):
    """A PlotDataItem whose data is a LossHistory: x = the epoch (1, 2, ...), y = its loss.

    It keeps no arrays of its own: `xData` and `yData` are made from the history when
    asked for, and what it draws is the history's envelope of the visible epochs.
    """

    def __init__(self, **kwargs):
        self._history: LossHistory | None = None
        self._count = 0
        self._cached: tuple | None = None
        super().__init__(**kwargs)
        self.opts["clipToView"] = True  # so that a pan or zoom asks for a new envelope
        self.opts["autoDownsample"] = False  # the envelope is the downsampling

    def show_history(self, history: LossHistory | None, count: int = 0) -> None:
        """Draw the first `count` epochs of `history` (None clears the curve)."""
        if history is not self._history:
            self._cached = None  # an envelope belongs to one history
        self._history = history
        self._count = 0 if history is None else min(count, history.count)
        self.updateItems(styleUpdate=False)
        self.informViewBoundsChanged()
        self.sigPlotChanged.emit(self)

    @property
    def xData(self) -> np.ndarray | None:
        return np.arange(1, self._count + 1, dtype=np.float64) if self._count else None

    @property
    def yData(self) -> np.ndarray | None:
        return self._history.head(self._count) if self._count else None

    def getOriginalDataset(self):
        return self.xData, self.yData

    def dataRect(self) -> QRectF | None:
        history = self._history
        if not self._count or not math.isfinite(history.min_finite):
            return None
        return QRectF(QPointF(1, history.min_finite), QPointF(self._count, history.max_finite))

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
                first, last = math.floor(rect.left()), math.ceil(rect.right()) + 1
        log_y = bool(self.opts["logMode"][1])
        key = (count, first, last, bins, log_y)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        x, y = history.envelope(count, first, last, bins)
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


def make_loss_plot() -> tuple[pg.PlotWidget, LossCurve]:
    widget = new_plot("lossPlot", tr("epoch"), tr("loss (MSE)"))
    plot = widget.getPlotItem()
    plot.getAxis("left").enableAutoSIPrefix(False)  # "loss (MSE) (x0.001)" reads as a different unit
    # A 1 px pen with no antialiasing: wider pens cost several times more per frame.
    curve = LossCurve(pen=pg.mkPen("#1f5fbf", width=1), antialias=False)
    plot.addItem(curve)
    plot.setXRange(1, 100, padding=0.02)  # until a run sets its own epochs
    plot.setYRange(0, 1)
    return widget, curve
