"""The decision boundary of a 2-D classification: the class the model predicts at every point of
the area, as a heat map, with the training points over it, redrawn live as the run goes.

The loop evaluates the model over a BOUNDARY_SIDE x BOUNDARY_SIDE grid in one batched pass
on the run's device at its read-backs (core.training) and sends the class probabilities;
this view only colours them: each class its colour, paler where the model is unsure, white
where the classes meet. Two classes draw as TensorFlow Playground draws them.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF

from gpudemo.core.training import DataSample
from gpudemo.ui.base import theme
from gpudemo.ui.views.plot_style import new_plot

# Class colours (RGB): orange and blue as Playground has them, then the plots' own.
CLASS_COLOURS = np.array(
    [
        (245, 147, 34),
        (8, 119, 189),
        (44, 160, 90),
        (155, 89, 182),
        (194, 155, 0),
        (31, 169, 189),
        (140, 140, 140),
        (224, 69, 123),
        (47, 111, 208),
        (224, 98, 42),
    ],
    dtype=np.float32,
)
SURE = 0.85  # how much of its class colour a point the model is certain of takes (the rest stays white)
POINTS_SHOWN = 2000  # as training.DATA_SHOWN
LEVELS = 256  # shades of each class, from white (a tie) to its colour (certain)


def _palette() -> np.ndarray:
    """(classes, LEVELS, 3) uint8: each class's colour at every level of certainty."""
    alpha = SURE * np.linspace(0, 1, LEVELS, dtype=np.float32)[None, :, None]
    return (255 * (1 - alpha) + CLASS_COLOURS[:, None, :] * alpha).round().astype(np.uint8)


PALETTE = _palette()


def boundary_image(probabilities: np.ndarray) -> np.ndarray:
    """(side, side, classes) probabilities, row i at x2 = grid[i], as an RGB image (row-major, the same
    rows): each point the colour of its likeliest class, paler the less sure the model is (white at a
    tie). A palette lookup: about 0.3 ms at 128 x 128."""
    classes = probabilities.shape[2]
    top = probabilities.argmax(axis=2)
    # how sure: 0 where the top class has 1 / classes of the probability, 1 where it has all of it
    sure = (np.take_along_axis(probabilities, top[..., None], axis=2)[..., 0] - 1 / classes) * (classes / (classes - 1))
    level = (sure.clip(0, 1) * (LEVELS - 1) + 0.5).astype(np.intp)
    return PALETTE[top % len(PALETTE), level]


class BoundaryPlot:
    """The `boundaryPlot` widget: the heat map and the points."""

    def __init__(self):
        self.widget = new_plot(
            "boundaryPlot",
            QCoreApplication.translate("BoundaryPlot", "x1"),
            QCoreApplication.translate("BoundaryPlot", "x2"),
            QCoreApplication.translate("BoundaryPlot", "Decision boundary plot"),
        )
        plot = self.widget.getPlotItem()
        plot.setAspectLocked(True)
        self.image = pg.ImageItem(axisOrder="row-major")  # rows are x2, as the loop sends them
        self.image.setZValue(-50)
        plot.addItem(self.image)
        self.points = pg.ScatterPlotItem(pxMode=True, size=5, pen=pg.mkPen(255, 255, 255, 200, width=1))
        self.points.setZValue(10)
        plot.addItem(self.points)
        self._area: tuple[float, float] | None = None
        self._drawn: np.ndarray | None = None
        self._range: tuple[float, float] | None = None  # the data's span, both axes: what the view shows
        self.show_run(None)
        # Resized (the window, the splitters), the view shows the data's span again: with the axes at equal
        # scale, a range set while the plot was wide and low would leave the points off to one side.
        plot.getViewBox().sigResized.connect(self._fit_view)

    def show_run(self, run_number: int | None) -> None:
        if run_number is None:
            title = QCoreApplication.translate("BoundaryPlot", "the points, and the class the model predicts")
        else:
            title = QCoreApplication.translate("BoundaryPlot", "run #{number}: the class predicted everywhere").format(
                number=run_number
            )
        self.widget.getPlotItem().setTitle(title, color=theme.current().text, size="10pt")

    def show_data(self, data: DataSample) -> None:
        """A new run's points, coloured by class; the area its boundaries come over."""
        grid = data.grid.astype(np.float64)
        low, high = float(grid[0]), float(grid[-1])
        self._area, self._drawn = (low, high), None
        x = data.x[:POINTS_SHOWN].astype(np.float64)
        labels = data.y[:POINTS_SHOWN].astype(np.int64)
        brushes = [
            pg.mkBrush(*(int(c) for c in CLASS_COLOURS[label % len(CLASS_COLOURS)]))
            for label in range(max(data.classes, 1))
        ]
        self.points.setData(x=x[:, 0], y=x[:, 1], brush=[brushes[label] for label in labels])
        self.image.clear()
        self.image.setRect(QRectF(low, low, high - low, high - low))
        if len(x):  # the points' span, the same on both axes (equal scale), inside the area
            span = (max(low, float(x.min())), min(high, float(x.max())))
        else:
            span = (low, high)
        self._range = span
        self._fit_view()

    def _fit_view(self, *_ignored: object) -> None:
        if self._range is not None:
            low, high = self._range
            view = self.widget.getPlotItem().getViewBox()
            view.setRange(xRange=(low, high), yRange=(low, high), padding=0.04)

    def show_fit(self, probabilities: np.ndarray) -> None:
        """The model's class probabilities over the area, as the loop sent them."""
        if self._area is None or probabilities.ndim != 3:
            return
        if (
            self._drawn is not None
            and np.array_equal(probabilities.argmax(axis=2), self._drawn)
            and self._unchanged(probabilities)
        ):
            return  # a converged model: no repaint
        self._last = probabilities
        self._drawn = probabilities.argmax(axis=2)
        low, high = self._area
        self.image.setImage(boundary_image(probabilities), autoLevels=False, levels=None)
        self.image.setRect(QRectF(low, low, high - low, high - low))

    def _unchanged(self, probabilities: np.ndarray) -> bool:
        """Whether no point's colour would change by more than about one level of 255."""
        return bool(np.abs(probabilities - self._last).max() < 1 / 255 / SURE)

    def clear(self) -> None:
        self._area = self._drawn = self._range = None
        self.points.setData(x=[], y=[])
        self.image.clear()
