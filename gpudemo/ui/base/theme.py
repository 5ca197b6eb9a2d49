"""Light and dark: the window follows the system's colour scheme unless View → Theme overrides it.

The widgets take their colours from the application's palette; the plots, which pyqtgraph
paints itself, take theirs from the current Theme: background, axes, grid, titles, legends, and the
runs' colours. Every plot made by plot_style.new_plot is registered here and restyled when the theme
changes, its curves and points recoloured from one theme's run colours to the other's.

Contrast (WCAG 2.1 AA, 4.5:1 for text; tests/ui/test_accessibility.py computes every pair): each run's
colour on its plot's background, the text on every background, and the selected text on its highlight
(Fusion's own highlight gave 3.69:1 with white). With the theme on "system", the window follows the
system's colour scheme and its contrast preference (a high contrast asked: black or white text and axes)
as they change.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace

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
    runs: tuple[str, ...]  # each run's colour, in turn: each at least 4.5:1 on `background`


# The runs' colours: the same hues on both, darker on the light background, lighter on the dark one.
LIGHT_RUNS = ("#2f6fd0", "#c2501c", "#1e7d45", "#9b59b6", "#866a00", "#137a88", "#6b6b6b", "#c2255c")
DARK_RUNS = ("#6d9eeb", "#e0622a", "#2ca05a", "#b884cc", "#c29b00", "#1fa9bd", "#8c8c8c", "#ec6f9b")
HIGHLIGHT = "#2a62c0"  # the selection, under white text: 5.8:1 (the styles' own were 3.7:1 and 4.2:1)

LIGHT = Theme(
    LIGHT_KEY, "#ffffff", "#222222", "#333333", "#d9d9d9", (255, 255, 255, 210), (40, 40, 40, 230), False, LIGHT_RUNS
)
DARK = Theme(
    DARK_KEY, "#1e1f22", "#e8e8e8", "#c8c8c8", "#3a3d42", (30, 31, 34, 210), (235, 235, 235, 230), True, DARK_RUNS
)

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
        dark = system_is_dark(app)
        palette = app.style().standardPalette()
    else:
        dark = choice == DARK_KEY
        palette = dark_palette() if dark else app.style().standardPalette()
    strong = choice == SYSTEM and high_contrast(app)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, QColor(HIGHLIGHT))
        palette.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    app.setPalette(palette)
    before = _current
    _current = DARK if dark else LIGHT
    if strong:  # the system asks for more contrast: the plots' text and axes black on white, white on black
        ink = "#ffffff" if dark else "#000000"
        _current = replace(_current, background="#000000" if dark else "#ffffff", text=ink, axis=ink)
    for widget in list(_plots):
        if shiboken6.isValid(widget):  # a closed window's plots may linger as Python objects
            style_plot(widget, _current, before)
        else:
            _plots.discard(widget)
    return _current


def high_contrast(app: QApplication) -> bool:
    """The system asks for more contrast (Qt 6.10 and newer can tell)."""
    hints = app.styleHints()
    accessibility = getattr(hints, "accessibility", None)
    if accessibility is None:
        return False
    return accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast


def follow_system(app: QApplication, on_change) -> None:
    """Call `on_change()` when the system's colour scheme or contrast preference changes."""
    hints = app.styleHints()
    hints.colorSchemeChanged.connect(on_change)
    accessibility = getattr(hints, "accessibility", None)
    if accessibility is not None:
        accessibility().contrastPreferenceChanged.connect(on_change)


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


def style_plot(widget: pg.PlotWidget, theme: Theme, before: Theme | None = None) -> None:
    """`widget` in `theme`'s colours; coming from `before`, its items' run colours are changed to this one's."""
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
    if before is not None and before.runs != theme.runs:
        recolour(plot, dict(zip(before.runs, theme.runs, strict=True)))


def recolour(plot: pg.PlotItem, colours: dict[str, str]) -> None:
    """Each curve's, points' and line's colour that is a key of `colours`, changed to its value."""

    def swap(colour: QColor) -> QColor | None:
        new = colours.get(colour.name())
        if new is None:
            return None
        changed = QColor(new)
        changed.setAlpha(colour.alpha())
        return changed

    for item in plot.items:
        if isinstance(item, pg.PlotDataItem):
            pen = pg.mkPen(item.opts["pen"])
            new = swap(pen.color())
            if new is not None:
                pen.setColor(new)
                item.setPen(pen)
            brush = item.opts.get("symbolBrush")
            if brush is not None:
                new = swap(pg.mkBrush(brush).color())
                if new is not None:
                    item.setSymbolBrush(new)
        elif isinstance(item, pg.ScatterPlotItem):
            new = swap(item.opts["brush"].color()) if item.opts.get("brush") is not None else None
            if new is not None:
                item.setBrush(new)
        elif isinstance(item, pg.InfiniteLine):
            new = swap(item.pen.color())
            if new is not None:
                pen = pg.mkPen(item.pen)
                pen.setColor(new)
                item.setPen(pen)
