"""The Loss landscape tab: the loss over (weight, bias) as a heat map with contours, and the runs' paths.

It draws the landscape of the chosen run (the selected one, else the newest), and the
path of every kept run trained on the same data (same problem, samples and seed: the
same surface), each in its run's colour, the chosen one's current point marked. The
grid itself comes from the training loop (computed on the run's device); this view
only draws it. For the MLP it says why there is no such picture.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Slot
from PySide6.QtWidgets import QGraphicsItem, QLabel, QVBoxLayout, QWidget

from gpudemo.core.problems import problem_for
from gpudemo.core.session.runs import Run, Session
from gpudemo.core.training.landscape import BATCHED, Landscape
from gpudemo.ui.base import theme
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.loss_view import run_label
from gpudemo.ui.views.plot_style import colour, new_plot

CONTOURS = 9  # contour lines, evenly spaced in log(loss)
PATH_POINTS = 4000  # at most this many points of a path are drawn (every early one, then evenly spaced)


def _same_data(a: Run, b: Run) -> bool:
    return (a.config.problem, a.config.samples, a.config.seed) == (b.config.problem, b.config.samples, b.config.seed)


class LandscapeView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.plot = new_plot("landscapePlot", self.tr("weight w"), self.tr("bias b"), self.tr("Loss landscape plot"))
        item = self.plot.getPlotItem()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(pg.colormap.get("viridis"))
        self.image.setZValue(-50)  # under the grid lines' labels, over nothing else
        # Scaling the grid up to the screen costs ~3 ms a paint: keep the scaled picture (and its
        # contour lines, its children) until the grid or the view changes, not at every new point.
        self.image.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        item.addItem(self.image)
        self.contours = [
            pg.IsocurveItem(level=0, pen=pg.mkPen((255, 255, 255, 120), width=1), axisOrder="row-major")
            for _ in range(CONTOURS)
        ]
        for contour in self.contours:
            contour.setParentItem(self.image)  # image pixels -> (w, b), as the image's own transform
        self.minimum = pg.ScatterPlotItem(symbol="star", size=16, pen=pg.mkPen("#222222"), brush=pg.mkBrush("w"))
        self.minimum.setZValue(30)
        item.addItem(self.minimum)
        self.current = pg.ScatterPlotItem(size=11, pen=pg.mkPen("w", width=1.5))
        self.current.setZValue(40)
        item.addItem(self.current)
        self.legend = item.addLegend(
            offset=(-10, 10),
            labelTextSize="8pt",
            labelTextColor=theme.current().text,
            brush=pg.mkBrush(*theme.current().legend_fill),
        )
        self.note = QLabel(objectName="landscapeNote")
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.plot, 1)
        self._paths: dict[Run, pg.PlotDataItem] = {}
        self._run: Run | None = None  # the chosen run
        self._drawn: Landscape | None = None
        self._stale = False  # a run's progress went undrawn while hidden: drawn again when shown
        self.show_run(None)

        self.detach = session.subscribe(removed=self._on_removed)

    # --- what the window asks ---------------------------------------------------------

    @Slot(object)
    def show_run(self, run: Run | None) -> None:
        """Draw `run`'s landscape and the paths of the session's runs on the same data."""
        self._run = run
        wanted = [
            other
            for other in self.session.runs
            if run is not None and other.path is not None and _same_data(other, run)
        ]
        for other in list(self._paths):
            if other not in wanted:
                curve = self._paths.pop(other)
                self.legend.removeItem(curve)
                self.plot.getPlotItem().removeItem(curve)
        for other in wanted:
            if other not in self._paths:
                curve = pg.PlotDataItem(pen=pg.mkPen(colour(other.number - 1), width=1), antialias=False)
                curve.setZValue(10 + other.number)
                self.plot.getPlotItem().addItem(curve)
                self.legend.addItem(curve, run_label(other))
                self._paths[other] = curve
        self._say(run)
        self._draw_landscape(run.landscape if run is not None else None)
        for other in wanted:
            self._draw_path(other)
        self._stale = False

    def refresh(self, run: Run) -> None:
        """Draw what `run` has added to its path (and a new landscape, when it is the chosen run's). While
        the tab is hidden nothing is drawn (a frame costs the training thread): all of it when shown."""
        if not self.isVisible():
            self._stale = True
            return
        self._draw_path(run)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.show_run(self._run)

    def _draw_path(self, run: Run) -> None:
        curve = self._paths.get(run)
        if curve is None:
            return
        points = run.path.decimated(run.count + 1, PATH_POINTS)
        finite = np.isfinite(points).all(axis=1)
        if not finite.all():
            points = points[finite]
        curve.setData(points[:, 0].astype(np.float64), points[:, 1].astype(np.float64))
        if run is self._run:
            if run.landscape is not self._drawn:
                self._draw_landscape(run.landscape)
            last = points[-1:] if len(points) else points
            self.current.setData(pos=last.astype(np.float64), brush=pg.mkBrush(colour(run.number - 1)))

    def path_curve(self, run: Run) -> pg.PlotDataItem | None:
        return self._paths.get(run)

    # --- inside -------------------------------------------------------------------------

    def _on_removed(self, run: Run) -> None:
        if run in self._paths:
            self.show_run(self._run if self._run is not run else None)

    def _say(self, run: Run | None) -> None:
        if run is None:
            text = self.tr(
                "Train the tutorial or the line to see its loss over every (weight, bias), and the path"
                " the optimizer takes through it."
            )
        elif not problem_for(run.config).has_plane(run.config):
            text = self.tr(
                "No picture: this model has more than two parameters ({count}), and its loss is a surface over"
                " {count} dimensions, which no picture of two axes can show. Train the tutorial or the line (two"
                " parameters, weight and bias) to see the landscape and the optimizer's path through it."
            ).format(count=f"{problem_for(run.config).parameter_count(run.config):,}")
        else:
            text = self.tr(
                "The loss of y = w·x + b at every (w, b) of the grid, darker where it is lower; the lines"
                " join equal losses, the star is the least. Each run's path is its (w, b) after every"
                " epoch."
            )
        self.note.setText(text)
        describe(self.plot, text)

    def _draw_landscape(self, landscape: Landscape | None) -> None:
        self._drawn = landscape
        if landscape is None:
            self.image.clear()
            for contour in self.contours:
                contour.setData(None)
            self.minimum.setData([])
            self.current.setData([])
            return
        with np.errstate(divide="ignore"):
            shown = np.log10(np.maximum(landscape.loss.astype(np.float64), 1e-12))
        low, high = float(shown.min()), float(shown.max())
        self.image.setImage(shown, levels=(low, max(high, low + 1e-9)))
        bounds = landscape.bounds
        self.image.setRect(
            QRectF(bounds.w_low, bounds.b_low, bounds.w_high - bounds.w_low, bounds.b_high - bounds.b_low)
        )
        for level, contour in zip(np.linspace(low, high, CONTOURS + 2)[1:-1], self.contours, strict=True):
            contour.setData(shown, float(level))
        if landscape.minimum is not None:
            self.minimum.setData(pos=[landscape.minimum])
        else:
            self.minimum.setData([])
        view = self.plot.getPlotItem().getViewBox()
        view.setRange(xRange=(bounds.w_low, bounds.w_high), yRange=(bounds.b_low, bounds.b_high), padding=0)
        how = (
            self.tr("every grid point against every sample in one batched evaluation")
            if landscape.method == BATCHED
            else self.tr("from the data's five means (exact for a line and MSE)")
        )
        self.plot.getPlotItem().setTitle(
            self.tr("{size} × {size} grid of the loss, computed on the run's device, {how}").format(
                size=len(landscape.weights), how=how
            ),
            color=theme.current().text,
            size="9pt",
        )
