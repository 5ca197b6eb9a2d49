"""The loss plot of a session: every kept run in its own colour, the newest on top.

Each run has two curves: the front one, in its full colour and in the legend, draws
the smoothed loss when smoothing is on and the raw loss when it is off; behind it, a
faint one draws the raw loss while smoothing is on. Clicking a legend entry (or the
run's box in the runs table) shows or hides both. Only the live run's curves change
at a refresh; the others keep the paths they drew.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from gpudemo.core.problems import problem_for
from gpudemo.core.session.runs import Run
from gpudemo.ui.base import theme
from gpudemo.ui.base.i18n import name_text
from gpudemo.ui.views.loss_plot import LossCurve
from gpudemo.ui.views.plot_style import colour, new_plot

EPOCHS = "epochs"
SECONDS = "seconds"
X_AXES = (EPOCHS, SECONDS)
LOSS = "loss"
ACCURACY = "accuracy"
METRICS = (LOSS, ACCURACY)
FAINT_ALPHA = 70  # the raw curve behind a smoothed one
LEGEND_ROWS = 6  # more runs than this: the legend takes two columns
TOP = 1_000_000  # the z of the highlighted run's curves: above every run


def run_label(run: Run) -> str:
    config = run.config
    return QCoreApplication.translate("LossView", "#{number} {device} · {problem} · {optimizer} · lr {lr}").format(
        number=run.number,
        device=config.device,
        problem=name_text(config.problem),
        optimizer=name_text(config.optimizer),
        lr=f"{config.lr:g}",
    )


class _RunCurves:
    def __init__(self, run: Run):
        self.colour = colour(run.number - 1)
        # 1 px pens with no antialiasing: wider pens cost several times more per frame.
        self.front = LossCurve(pen=pg.mkPen(self.colour, width=1), antialias=False)
        faint = QColor(self.colour)
        faint.setAlpha(FAINT_ALPHA)
        self.faint = LossCurve(pen=pg.mkPen(faint, width=1), antialias=False)
        self.front.setZValue(2 * run.number + 1)  # the newest on top; a run's front above its faint
        self.faint.setZValue(2 * run.number)


class LossView(QObject):
    shownChanged = Signal(object, bool)  # a run's curves were shown or hidden (from the legend)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._curves: dict[Run, _RunCurves] = {}
        self.widget = new_plot("lossPlot", self.tr("epoch"), self._metric_label(LOSS), self.tr("Loss plot"))
        self.plot = self.widget.getPlotItem()
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # "loss (MSE) (x0.001)" reads as a different unit
        self.legend = self.plot.addLegend(
            offset=(-10, 10),
            labelTextSize="8pt",
            labelTextColor=theme.current().text,
            brush=pg.mkBrush(*theme.current().legend_fill),
        )
        # Drawn from a pixmap until an entry changes: the plot repaints at every frame, the legend need not.
        self.legend.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._smoothing = 0.0
        self._x_axis = EPOCHS
        self._metric = LOSS
        self._highlighted: Run | None = None
        self._log = False  # the y axis in powers of ten (set_log)
        self.plot.setXRange(1, 100, padding=0.02)  # until a run sets its own epochs
        self.plot.setYRange(0, 1)

    # --- runs -------------------------------------------------------------------------

    def add(self, run: Run) -> None:
        curves = _RunCurves(run)
        self._curves[run] = curves
        self.plot.addItem(curves.faint)
        self.plot.addItem(curves.front)
        self.legend.addItem(curves.front, run_label(run))
        self._arrange_legend()
        curves.front.visibleChanged.connect(self._on_visible_changed)
        curves.faint.setVisible(self._smoothing > 0)
        self.refresh(run)
        self._fit_ranges()
        self.plot.setLabel("left", self._metric_label(self._metric))

    def remove(self, run: Run) -> None:
        curves = self._curves.pop(run, None)
        if curves is None:
            return
        if self._highlighted is run:
            self._highlighted = None
        self.legend.removeItem(curves.front)
        self._arrange_legend()
        for curve in (curves.front, curves.faint):
            self.plot.removeItem(curve)
        self._fit_ranges()
        self.plot.setLabel("left", self._metric_label(self._metric))

    def refresh(self, run: Run) -> None:
        """Draw what `run` has so far (its count, its smoothed curve)."""
        curves = self._curves.get(run)
        if curves is None:
            return
        clock = run if self._x_axis == SECONDS else None
        if self._metric == ACCURACY:  # drawn raw: each epoch's share of right answers (a regression has none)
            curves.front.show_history(run.accuracy, run.count, clock)
            if curves.faint.count:
                curves.faint.show_history(None)
        elif self._smoothing > 0:
            curves.front.show_history(run.smoothed(self._smoothing), run.count, clock)
            curves.faint.show_history(run.history, run.count, clock)
        else:
            curves.front.show_history(run.history, run.count, clock)
            if curves.faint.count:  # only when it drew something: a change costs a view update
                curves.faint.show_history(None)

    def front(self, run: Run) -> LossCurve:
        return self._curves[run].front

    def faint(self, run: Run) -> LossCurve:
        return self._curves[run].faint

    def runs(self) -> list[Run]:
        return list(self._curves)

    # --- what the person sets -----------------------------------------------------------

    def is_shown(self, run: Run) -> bool:
        curves = self._curves.get(run)
        return curves is not None and curves.front.isVisible()

    def set_shown(self, run: Run, shown: bool) -> None:
        curves = self._curves.get(run)
        if curves is not None and curves.front.isVisible() != shown:
            curves.front.setVisible(shown)  # the faint one follows in _on_visible_changed

    def set_smoothing(self, weight: float) -> None:
        self._smoothing = weight
        for run in self._curves:
            self.refresh(run)
            self._follow(run)

    def set_x_axis(self, axis: str) -> None:
        if axis not in X_AXES:
            raise ValueError(f"x axis must be one of {X_AXES}, not {axis!r}")
        self._x_axis = axis
        self.plot.setLabel(
            "bottom", self.tr("epoch") if axis == EPOCHS else self.tr("training seconds (pauses left out)")
        )
        for run in self._curves:
            self.refresh(run)
        self._fit_ranges()

    def x_axis(self) -> str:
        return self._x_axis

    def set_metric(self, metric: str) -> None:
        """Draw each run's loss, or its training accuracy (classifications only)."""
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {METRICS}, not {metric!r}")
        self._metric = metric
        self.plot.setLabel("left", self._metric_label(metric))
        for run in self._curves:
            self.refresh(run)
            self._follow(run)
        self._fit_ranges()

    def metric(self) -> str:
        return self._metric

    def _metric_label(self, metric: str) -> str:
        if metric == ACCURACY:
            return self.tr("training accuracy")
        # The loss the runs shown minimise, in a few words: a long title is cut at the plot's height.
        kinds = {bool(problem_for(run.config).classes) for run in self._curves}
        if kinds == {False}:
            return self.tr("loss (MSE)")
        if kinds == {True}:
            return self.tr("loss (cross-entropy)")
        return self.tr("loss")

    def set_log(self, on: bool) -> None:
        """The y axis in powers of ten, or linear. The view keeps its range in the axis's own units, so the
        range of one means nothing in the other (a diverged run's linear 5e37, read as an exponent, overflowed
        the log axis's tick labels): the range is set again for the new axis."""
        self._log = on
        self.plot.setLogMode(y=on)
        self._fit_y_range()

    def highlight(self, run: Run | None) -> None:
        """Draw `run` thicker and above every other (None: no run stands out)."""
        previous, self._highlighted = self._highlighted, run
        for other in (previous, run):
            curves = self._curves.get(other) if other is not None else None
            if curves is None:
                continue
            on = other is run
            curves.front.setPen(pg.mkPen(curves.colour, width=2 if on else 1))
            curves.front.setZValue(TOP + 1 if on else 2 * other.number + 1)
            curves.faint.setZValue(TOP if on else 2 * other.number)

    def highlighted(self) -> Run | None:
        return self._highlighted

    # --- inside -------------------------------------------------------------------------

    def _fit_y_range(self) -> None:
        """In the y axis's units (a log axis counts powers of ten): an accuracy from 0 to 1 (on a log axis,
        1 % to 100 %); a loss as the runs shown reach it, from the empty plot's range while none has."""
        view = self.plot.getViewBox()
        if self._metric == ACCURACY:  # a share, whatever the runs reached
            view.setYRange(*((-2, 0) if self._log else (0, 1)), padding=0.02)
            return
        fronts = [curves.front for curves in self._curves.values() if curves.front.isVisible()]
        if not any(front.yData is not None and len(front.yData) for front in fronts):
            view.setYRange(*((-3, 0) if self._log else (0, 1)), padding=0.02)  # nothing drawn: no run's range
        view.enableAutoRange(y=True)

    def _fit_ranges(self) -> None:
        """The y range (_fit_y_range). Epochs: the x axis spans the longest shown run from the start (the curve
        fills it, no new ticks each frame). Seconds: the axis follows the clock."""
        view = self.plot.getViewBox()
        self._fit_y_range()
        if self._x_axis == SECONDS:
            view.enableAutoRange(x=True)
            return
        shown = [run.config.epochs for run, curves in self._curves.items() if curves.front.isVisible()]
        view.setXRange(1, max(2, *shown) if shown else 100, padding=0.02)

    def _arrange_legend(self) -> None:
        columns = 1 if len(self._curves) <= LEGEND_ROWS else 2
        if self.legend.columnCount != columns:
            self.legend.setColumnCount(columns)

    def _follow(self, run: Run) -> None:
        curves = self._curves[run]
        curves.faint.setVisible(curves.front.isVisible() and self._smoothing > 0 and self._metric == LOSS)

    @Slot()
    def _on_visible_changed(self) -> None:
        item = self.sender()
        run = next((run for run, curves in self._curves.items() if curves.front is item), None)
        if run is None:
            return
        self._follow(run)
        self._fit_ranges()
        self.shownChanged.emit(run, item.isVisible())
