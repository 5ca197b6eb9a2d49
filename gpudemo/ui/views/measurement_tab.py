"""What the tabs that measure share: a note and the window's button for the measurement in a row, and a
plot with a legend under them (the Data parallel and Moving data tabs)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from gpudemo.ui.base import theme
from gpudemo.ui.views.plot_style import new_plot

PLOT_MIN_HEIGHT = 120


class MeasurementTab(QWidget):
    """`name`Button (bound to the window's action), `name`Note and `name`Plot; a subclass names the axes
    (`set_axes`) and adds its curves, and more widgets under the plot through `body`."""

    def __init__(self, name: str, spoken: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.button = QPushButton(objectName=f"{name}Button")
        self.note = QLabel(objectName=f"{name}Note")
        self.note.setWordWrap(True)
        self.plot = new_plot(f"{name}Plot", "", "", spoken)
        # Tall enough for its axes' labels not to run into each other; a table under it gives way first.
        self.plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        self.legend = self.plot.getPlotItem().addLegend(
            offset=(10, 10), labelTextColor=theme.current().text, brush=pg.mkBrush(*theme.current().legend_fill)
        )
        row = QHBoxLayout()
        row.addWidget(self.note, 1)
        row.addWidget(self.button)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addLayout(row)
        self.body.addWidget(self.plot, 1)

    def set_axes(self, bottom: str, left: str) -> None:
        item = self.plot.getPlotItem()
        item.setLabel("bottom", bottom)
        item.setLabel("left", left)
