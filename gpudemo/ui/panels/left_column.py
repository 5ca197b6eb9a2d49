"""The left column: the devices, the training form and predicting, top to bottom, in a scroll area."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QVBoxLayout, QWidget

from gpudemo.core.hardware.machine import DeviceList
from gpudemo.ui.panels.devices_panel import DevicePanel
from gpudemo.ui.panels.prediction_panel import PredictionPanel
from gpudemo.ui.panels.training_panel import TrainingPanel

MIN_WIDTH = 380


class LeftColumn(QScrollArea):
    """On a short screen the column scrolls instead of squeezing its rows; it is as wide as its widest
    row needs in the language shown (MIN_WIDTH at least), and no wider."""

    def __init__(self, devices: DeviceList, parent: QWidget | None = None):
        super().__init__(parent, objectName="leftColumn")
        self.devicePanel = DevicePanel(devices)
        self.trainingPanel = TrainingPanel()
        self.predictionPanel = PredictionPanel()
        self.lessonButton = QPushButton(objectName="lessonButton")  # bound to the window's lesson action
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(4, 6, 4, 6)  # the column's width is the form's widest row: keep a 1024 screen's room
        layout.addWidget(self.lessonButton)
        layout.addWidget(self.devicePanel)
        layout.addWidget(self.trainingPanel)
        layout.addWidget(self.predictionPanel, 1)
        self.setWidget(column)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._fit()
        column.installEventFilter(self)  # a row that grows later (a style sheet, a button's text) widens it

    def show_predictions(self) -> None:
        """Scroll the column to the predictions, when they are below its fold (a 1366 x 768 laptop)."""
        table = self.predictionPanel.table
        top = table.mapTo(self.widget(), table.rect().topLeft())
        rows = min(table.height(), table.verticalHeader().length() + table.horizontalHeader().height() + 4)
        self.ensureVisible(top.x(), top.y() + rows, 0, 16)  # the table's header and its rows, whole
        self.ensureWidgetVisible(self.predictionPanel.input, 0, 8)  # and the values asked, above them

    def _fit(self) -> None:
        width = max(MIN_WIDTH, self.widget().minimumSizeHint().width()) + self.verticalScrollBar().sizeHint().width()
        if width != self.width():
            self.setFixedWidth(width)

    def eventFilter(self, watched, event) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit()
        return False
