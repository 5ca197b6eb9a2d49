"""The left column: the devices, the training form and predicting, top to bottom, in a scroll area."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QVBoxLayout, QWidget

from gpudemo.core.devices import DeviceList
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
        layout.addWidget(self.lessonButton)
        layout.addWidget(self.devicePanel)
        layout.addWidget(self.trainingPanel)
        layout.addWidget(self.predictionPanel, 1)
        self.setWidget(column)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFixedWidth(max(MIN_WIDTH, column.minimumSizeHint().width()) + self.verticalScrollBar().sizeHint().width())
