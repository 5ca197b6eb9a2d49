"""One step against time: host operators above (nested ones a lane higher), device kernels below,
a thin line from each kernel back to the operator that launched it (see core.timeline).

Drawn with one BarGraphItem per lane (single colour: pyqtgraph paints them with one drawRects)
and one pairs-connected curve for the links, so 10,000 events draw in a fraction of a second
(benchmarks/timeline.py). Hovering a bar names it in the line below the plot.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpudemo.core.measure.timeline import LANES, Span, Timeline
from gpudemo.ui.base import theme
from gpudemo.ui.views.plot_style import colour, new_plot

DEVICE_Y = 0.0  # the device row's bottom; the host lanes sit above it
HOST_Y = 1.2
LANE_HEIGHT = 0.5
BAR_HEIGHT = 0.8


def _lane_bottom(lane: int) -> float:
    return HOST_Y + lane * LANE_HEIGHT


class TimelinePlot(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.plot = new_plot("timelinePlot", self.tr("µs from the step's start"), "", self.tr("Step timeline plot"))
        item = self.plot.getPlotItem()
        item.setMouseEnabled(y=False)
        item.getAxis("left").setWidth(60)
        self._device_tick = (DEVICE_Y + BAR_HEIGHT / 2, self.tr("device"))
        self._host_tick = (HOST_Y + LANE_HEIGHT, self.tr("host"))
        item.getAxis("left").setTicks([[self._device_tick, self._host_tick]])
        self.plot.setMinimumHeight(150)
        pen = pg.mkPen(theme.current().background, width=1)
        self._host_bars = []
        for lane in range(LANES):  # deeper lanes paler: the outermost operators read first
            bars = pg.BarGraphItem(
                x0=[],
                y0=[],
                width=[],
                height=[],
                pen=pen,
                brush=pg.mkBrush(pg.mkColor(colour(0)).lighter(100 + 25 * lane)),
            )
            item.addItem(bars)
            self._host_bars.append(bars)
        self._kernel_bars = pg.BarGraphItem(x0=[], y0=[], width=[], height=[], pen=pen, brush=pg.mkBrush(colour(1)))
        item.addItem(self._kernel_bars)
        self._links = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(colour(6), width=1))
        item.addItem(self._links)
        self.detail = QLabel(objectName="timelineDetail")
        self.detail.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.detail)
        self._timeline: Timeline | None = None
        self._starts = np.zeros(0)
        self._ends = np.zeros(0)
        self._bottoms = np.zeros(0)
        self._tops = np.zeros(0)
        self._spans: list[Span] = []
        self.plot.scene().sigMouseMoved.connect(self._hovered)
        self.clear()

    def clear(self) -> None:
        self._timeline = None
        self._spans = []
        self._starts = self._ends = self._bottoms = self._tops = np.zeros(0)
        for bars in (*self._host_bars, self._kernel_bars):
            bars.setOpts(x0=[], y0=[], width=[], height=[])
        self._links.setData([], [])
        self.detail.setText("")

    def show_timeline(self, timeline: Timeline) -> None:
        self._timeline = timeline
        host, kernels = timeline.host, timeline.kernels
        starts = np.fromiter((s.start_us for s in host), np.float64, len(host))
        widths = np.fromiter((s.duration_us for s in host), np.float64, len(host))
        lanes = np.fromiter((s.lane for s in host), np.int64, len(host))
        bottoms = HOST_Y + lanes * LANE_HEIGHT
        for lane, bars in enumerate(self._host_bars):
            mine = lanes == lane
            bars.setOpts(
                x0=starts[mine],
                y0=bottoms[mine],
                width=widths[mine],
                height=np.full(int(mine.sum()), LANE_HEIGHT * BAR_HEIGHT),
            )
        k_starts = np.fromiter((s.start_us for s in kernels), np.float64, len(kernels))
        k_widths = np.fromiter((s.duration_us for s in kernels), np.float64, len(kernels))
        self._kernel_bars.setOpts(
            x0=k_starts, y0=np.full(len(kernels), DEVICE_Y), width=k_widths, height=np.full(len(kernels), BAR_HEIGHT)
        )
        launchers = np.fromiter((s.launched_by for s in kernels), np.int64, len(kernels))
        linked = launchers >= 0
        if linked.any():  # from the launching operator's start (its bottom edge) to the kernel's start (its top)
            x = np.empty(2 * int(linked.sum()))
            y = np.empty_like(x)
            x[0::2], y[0::2] = starts[launchers[linked]], bottoms[launchers[linked]]
            x[1::2], y[1::2] = k_starts[linked], DEVICE_Y + BAR_HEIGHT
            self._links.setData(x, y)
        else:
            self._links.setData([], [])
        self._spans = [*host, *kernels]
        self._starts = np.concatenate([starts, k_starts])
        self._ends = self._starts + np.concatenate([widths, k_widths])
        self._bottoms = np.concatenate([bottoms, np.full(len(kernels), DEVICE_Y)])
        self._tops = self._bottoms + np.concatenate(
            [np.full(len(host), LANE_HEIGHT * BAR_HEIGHT), np.full(len(kernels), BAR_HEIGHT)]
        )
        item = self.plot.getPlotItem()
        item.setXRange(0, max(timeline.step_us, 1e-3), padding=0.02)
        # On the CPU the device row would stay empty: the host lanes take the height.
        item.getAxis("left").setTicks([[self._device_tick, self._host_tick] if timeline.on_gpu else [self._host_tick]])
        item.setYRange((DEVICE_Y if timeline.on_gpu else HOST_Y) - 0.1, _lane_bottom(LANES), padding=0)
        self.detail.setText(self.tr("Hover over a bar to name it."))

    @Slot(QPointF)
    def _hovered(self, position: QPointF) -> None:
        if not len(self._spans):
            return
        point = self.plot.getPlotItem().vb.mapSceneToView(position)
        x, y = point.x(), point.y()
        under = np.flatnonzero((self._starts <= x) & (x <= self._ends) & (self._bottoms <= y) & (y <= self._tops))
        if not len(under):
            return
        span = self._spans[int(under[-1])]  # the innermost (drawn last) when several overlap
        text = self.tr("{name}: {duration} µs, from {start} µs").format(
            name=span.name, duration=f"{span.duration_us:,.1f}", start=f"{span.start_us:,.1f}"
        )
        if span.launched_by >= 0 and self._timeline is not None:
            text += " " + self.tr("(launched by {operator})").format(
                operator=self._timeline.host[span.launched_by].name
            )
        self.detail.setText(text)
