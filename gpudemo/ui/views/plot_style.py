"""The look the window's plots share: the theme's background, a light grid, its axes, no context menu."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt

from gpudemo.ui.base import theme
from gpudemo.ui.views.log_axis import LogAxis


# One colour per device or run, in order: mid-tones that read on white and on the dark theme's
# background, and stay apart for most colour blindness.
def colour(index: int) -> str:
    """The `index`th run's colour in the theme shown (ui/base/theme.py: each readable on its plots)."""
    runs = theme.current().runs
    return runs[index % len(runs)]


def new_plot(object_name: str, bottom: str, left: str, spoken: str = "") -> pg.PlotWidget:
    """A plot of the window's look, named `spoken` for a screen reader (its description says what it shows:
    ui/base/spoken.py)."""
    # No context menus (pyqtgraph's would offer its own export and axis settings beside the window's): asked at
    # construction, the view box's menu is never built (a tenth of the window's build time, 11 plots).
    widget = pg.PlotWidget(enableMenu=False, axisItems={"left": LogAxis("left"), "bottom": LogAxis("bottom")})
    widget.setObjectName(object_name)
    widget.setAccessibleName(spoken)
    widget.setAccessibleDescription(QCoreApplication.translate("PlotStyle", "Empty: nothing drawn yet."))
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it: a screen reader then reads what it shows
    widget.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
    widget.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
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
