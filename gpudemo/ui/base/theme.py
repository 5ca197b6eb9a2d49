"""Light and dark: the window follows the system's colour scheme unless View → Theme overrides it.

The widgets take their colours from the application's palette; the plots, which pyqtgraph
paints itself, take theirs from the current Theme: background, axes, grid, titles, legends.
Every plot made by plot_style.new_plot is registered here and restyled when the theme
changes. The runs' colours (plot_style.COLOURS) read on both.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

SYSTEM, LIGHT_KEY, DARK_KEY = "system", "light", "dark"
CHOICES = (SYSTEM, LIGHT_KEY, DARK_KEY)


@dataclass(frozen=True)
class Theme:
    key: str
    background: str
    text: str
    axis: str
    grid: str
    legend_fill: tuple[int, int, int, int]
    points: tuple[int, int, int, int]  # a few large data points (the tutorial's three)
    dark: bool


LIGHT = Theme(LIGHT_KEY, "#ffffff", "#222222", "#333333", "#d9d9d9", (255, 255, 255, 210), (40, 40, 40, 230), False)
DARK = Theme(DARK_KEY, "#1e1f22", "#e8e8e8", "#c8c8c8", "#3a3d42", (30, 31, 34, 210), (235, 235, 235, 230), True)

_current = LIGHT
_plots: weakref.WeakSet = weakref.WeakSet()


def current() -> Theme:
    return _current


def register(widget: pg.PlotWidget) -> None:
    """Style a new plot with the current theme, and again whenever it changes."""
    _plots.add(widget)
    style_plot(widget, _current)


def system_is_dark(app: QApplication) -> bool:
    scheme = app.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return True
    if scheme == Qt.ColorScheme.Light:
        return False
    return app.palette().color(QPalette.ColorRole.Window).lightness() < 128


def apply(app: QApplication, choice: str) -> Theme:
    """Switch the widgets' palette and every plot to `choice` (SYSTEM follows the system)."""
    global _current
    if choice not in CHOICES:
        raise ValueError(f"theme must be one of {CHOICES}, not {choice!r}")
    if choice == SYSTEM:
        app.setPalette(app.style().standardPalette())
        dark = system_is_dark(app)
    else:
        dark = choice == DARK_KEY
        app.setPalette(dark_palette() if dark else app.style().standardPalette())
    _current = DARK if dark else LIGHT
    for widget in list(_plots):
        if shiboken6.isValid(widget):  # a closed window's plots may linger as Python objects
            style_plot(widget, _current)
        else:
            _plots.discard(widget)
    return _current


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2d31",
        QPalette.ColorRole.WindowText: "#e8e8e8",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.AlternateBase: "#2b2d31",
        QPalette.ColorRole.Text: "#e8e8e8",
        QPalette.ColorRole.Button: "#3a3d42",
        QPalette.ColorRole.ButtonText: "#e8e8e8",
        QPalette.ColorRole.Highlight: "#3d7bd9",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#2b2d31",
        QPalette.ColorRole.ToolTipText: "#e8e8e8",
        QPalette.ColorRole.PlaceholderText: "#8c8f94",
        QPalette.ColorRole.Link: "#6ea8ff",
        QPalette.ColorRole.BrightText: "#ff6b6b",
    }
    for role, value in roles.items():
        palette.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7d82"))
    return palette


def style_plot(widget: pg.PlotWidget, theme: Theme) -> None:
    widget.setBackground(theme.background)
    plot = widget.getPlotItem()
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(theme.axis))
        axis.setTextPen(pg.mkPen(theme.text))
        if axis.label is not None and axis.labelText:
            axis.setLabel(axis.labelText, units=axis.labelUnits, color=theme.text)
    for item in plot.items:
        if isinstance(item, pg.GridItem):
            item.setPen(pg.mkPen(theme.grid, width=0))
    legend = plot.legend
    if legend is not None:
        legend.setLabelTextColor(theme.text)
        legend.setBrush(pg.mkBrush(*theme.legend_fill))
    title = plot.titleLabel
    if title.text:
        title.setText(title.text, color=theme.text)
