"""The fit view: the training data as points, and the model's prediction as a curve over them.

The worker evaluates the model on a fixed grid of x at its flushes and sends the
outputs; this view only draws them. The data is a fixed sample of the training set
(at most training.DATA_SHOWN points), drawn once per run.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication

from gpudemo.core.training import DataSample
from gpudemo.ui.base import theme
from gpudemo.ui.views.plot_style import new_plot

FIT_COLOUR = "#d0541f"
FEW_POINTS = 50  # up to this many, the data is drawn large, dark and over the curve


class FitPlot:
    """The `fitPlot` widget and its two items."""

    def __init__(self):
        self.widget = new_plot(
            "fitPlot",
            QCoreApplication.translate("FitPlot", "x"),
            QCoreApplication.translate("FitPlot", "y"),
            QCoreApplication.translate("FitPlot", "Fit plot"),
        )
        plot = self.widget.getPlotItem()
        self.points = pg.ScatterPlotItem(pen=None, pxMode=True)  # stacked by show_data
        # 2 px: the curve has only FIT_POINTS points, and must read on a projector
        self.curve = pg.PlotDataItem(pen=pg.mkPen(FIT_COLOUR, width=2), antialias=False, connect="finite")
        plot.addItem(self.points)
        # The axes fit the data, not the curve: a model far off (at the start, or diverging)
        # runs off the view instead of squashing the data into a line.
        plot.addItem(self.curve, ignoreBounds=True)
        self._grid: np.ndarray | None = None
        self._drawn: np.ndarray | None = None
        self.show_run(None)

    def show_run(self, run_number: int | None, curve_colour: str = FIT_COLOUR) -> None:
        """Name the run whose fit is drawn, and draw it in that run's colour."""
        if run_number is None:
            title = QCoreApplication.translate("FitPlot", "the data, and what the model predicts")
        else:
            title = QCoreApplication.translate("FitPlot", "the data, and what run #{number}'s model predicts").format(
                number=run_number
            )
        self.widget.getPlotItem().setTitle(title, color=theme.current().text, size="10pt")
        self.curve.setPen(pg.mkPen(curve_colour, width=2))

    def show_data(self, data: DataSample) -> None:
        """A new run's data: its points, and the grid its fits come on; the old fit goes."""
        self._grid = data.grid.astype(np.float64)
        self._drawn = None
        few = len(data.x) <= FEW_POINTS  # the tutorial's three points are drawn large and dark
        # A few points over the curve (none may hide under it); a cloud of them under it, which would
        # otherwise cover the model's prediction where it fits (the sine's 2,000 points hid it whole).
        self.points.setZValue(1 if few else -1)
        self.points.setData(
            x=data.x.astype(np.float64),
            y=data.y.astype(np.float64),
            size=10 if few else 5,
            brush=pg.mkBrush(*theme.current().points) if few else pg.mkBrush(120, 120, 120, 140),
        )
        self.curve.setData([], [])
        view = self.widget.getPlotItem().getViewBox()
        view.setXRange(float(self._grid[0]), float(self._grid[-1]), padding=0.02)
        view.setYRange(*self._y_range(data), padding=0.05)

    def _y_range(self, data: DataSample) -> tuple[float, float]:
        """The data's y range, widened as much as the grid is wider than the data in x (for the
        tutorial, whose grid reaches out to x = 4 beyond its points at 1, 2 and 3)."""
        low, high = float(np.min(data.y)), float(np.max(data.y))
        x_span = float(np.max(data.x) - np.min(data.x))
        widen = (self._grid[-1] - self._grid[0]) / x_span if x_span > 0 else 1.0
        middle, half = (low + high) / 2, max((high - low) / 2 * widen, 0.5)
        return middle - half, middle + half

    def show_fit(self, outputs: np.ndarray) -> None:
        """The model's outputs on the grid (NaN and inf are left out of the curve)."""
        if self._grid is None or len(outputs) != len(self._grid):
            return
        y = outputs.astype(np.float64)
        y[~np.isfinite(y)] = np.nan
        if self._drawn is not None and self._looks_the_same(y):
            return  # a converged model: no repaint, and the GIL stays with the training thread
        self._drawn = y
        self.curve.setData(self._grid, y)

    def _looks_the_same(self, y: np.ndarray) -> bool:
        """Whether `y` would move no point of the drawn curve by a tenth of a pixel or more."""
        view = self.widget.getPlotItem().getViewBox()
        low, high = view.viewRange()[1]
        pixels = max(1.0, view.height())
        with np.errstate(invalid="ignore"):
            moved = np.abs(y - self._drawn)
        same_gaps = np.array_equal(np.isnan(y), np.isnan(self._drawn))
        return same_gaps and bool(np.nanmax(moved, initial=0.0) < 0.1 * (high - low) / pixels)

    def clear(self) -> None:
        self._grid = self._drawn = None
        self.points.setData(x=[], y=[])
        self.curve.setData([], [])
