"""The look the window's plots share: white, a light grid, dark axes, no context menu."""

from __future__ import annotations

import pyqtgraph as pg

# One colour per device or run, in order (readable on white, and apart for most colour blindness).
COLOURS = ("#1f5fbf", "#d0541f", "#2a9d4a", "#8e44ad", "#b8860b", "#17becf", "#7f7f7f", "#c2185b")


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def new_plot(object_name: str, bottom: str, left: str) -> pg.PlotWidget:
    widget = pg.PlotWidget(background="w")
    widget.setObjectName(object_name)
    plot = widget.getPlotItem()
    plot.setLabel("bottom", bottom)
    plot.setLabel("left", left)
    # A GridItem, not showGrid(): the axes' own grid costs ~25 ms a frame in software
    # painting, all of it holding the GIL that the training thread needs.
    grid = pg.GridItem(pen=pg.mkPen("#d9d9d9", width=0), textPen=None)
    grid.setZValue(-100)
    plot.addItem(grid, ignoreBounds=True)
    plot.setMenuEnabled(False)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen("#333333"))
        axis.setTextPen(pg.mkPen("#222222"))
    widget.setMouseEnabled(x=True, y=True)
    return widget
