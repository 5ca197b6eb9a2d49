"""The look the window's plots share: the theme's background, a light grid, its axes, no context menu."""

from __future__ import annotations

import pyqtgraph as pg

from gpudemo.ui.base import theme
from gpudemo.ui.views.log_axis import LogAxis

# One colour per device or run, in order: mid-tones that read on white and on the dark theme's
# background, and stay apart for most colour blindness.
COLOURS = ("#2f6fd0", "#e0622a", "#2ca05a", "#9b59b6", "#c29b00", "#1fa9bd", "#8c8c8c", "#e0457b")


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def new_plot(object_name: str, bottom: str, left: str) -> pg.PlotWidget:
    # No context menus (pyqtgraph's would offer its own export and axis settings beside the window's): asked at
    # construction, the view box's menu is never built (a tenth of the window's build time, 11 plots).
    widget = pg.PlotWidget(enableMenu=False, axisItems={"left": LogAxis("left"), "bottom": LogAxis("bottom")})
    widget.setObjectName(object_name)
    plot = widget.getPlotItem()
    plot.setLabel("bottom", bottom)
    plot.setLabel("left", left)
    # A GridItem, not showGrid(): the axes' own grid costs ~25 ms a frame in software
    # painting, all of it holding the GIL that the training thread needs.
    grid = pg.GridItem(textPen=None)
    grid.setZValue(-100)
    plot.addItem(grid, ignoreBounds=True)
    plot.setMenuEnabled(False)  # the plot's own menu, built by pyqtgraph whatever it is asked
    theme.register(widget)  # background, axes, grid and titles, now and when the theme changes
    widget.setMouseEnabled(x=True, y=True)
    _title_may_be_cut(plot)
    return widget


def _title_may_be_cut(plot: pg.PlotItem) -> None:
    """pyqtgraph makes a title's width the plot's minimum width: in a narrow place (a square boundary
    at 1024 x 768) the plot then overflowed its widget and its right side, points and all, was cut
    off. The title is cut instead."""
    label = plot.titleLabel
    update = label.updateMin

    def update_min() -> None:
        update()
        label.setMinimumWidth(0)

    label.updateMin = update_min
