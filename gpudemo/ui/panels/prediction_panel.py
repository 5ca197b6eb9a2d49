"""Predict on the CPU: the trained model, back from the device, asked for new x."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from gpudemo.core import settings
from gpudemo.core.prediction import predict
from gpudemo.core.runs import Run
from gpudemo.core.settings import InvalidSetting
from gpudemo.ui.base import format as fmt
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.style import set_style_flag


class PredictionPanel(QGroupBox):
    predicted = Signal()  # the table shows new predictions

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("3. Predict on the CPU"))
        self.run: Run | None = None  # the run whose model predicts
        self.input = QLineEdit("4", objectName="predictInput")
        self.input.setPlaceholderText(self.tr("values, e.g. 4, 5.5, -1"))
        self.button = QPushButton(self.tr("Predict"), objectName="predictButton")
        self.message = QLabel(self.tr("Train a model first, then ask it for new x."), objectName="predictMessage")
        self.message.setWordWrap(True)
        self.table = QTableWidget(0, 2, objectName="predictionTable")
        self.table.setHorizontalHeaderLabels([self.tr("x"), self.tr("predicted y")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        self.button.clicked.connect(self.predict)
        self.input.returnPressed.connect(self.predict)

    def set_run(self, run: Run | None) -> None:
        """Predict with this run's model (its final one, or a copy taken when it paused)."""
        self.run = run

    @Slot()
    def predict(self) -> None:
        run = self.run
        if run is None:
            self._say(self.tr("No model yet: train one first, then predict."), error=True)
            return
        if run.model is None:
            self._say(self.tr("Run #{number} has no model to ask yet: pause it, or wait for it to end.").format(
                number=run.number), error=True)
            return
        try:
            values = settings.parse_values(self.input.text())
        except InvalidSetting as error:
            self._say(say(error), error=True)
            return
        predictions = predict(run.model, values)
        self.table.setRowCount(len(values))
        for row, (x, y) in enumerate(zip(values, predictions)):
            for column, value in enumerate((f"{x:g}", fmt.loss(y))):
                item = QTableWidgetItem(value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        self._say(self.tr("Computed on the CPU by run #{number}'s model, trained on {device} ({epochs} epochs).")
                  .format(number=run.number, device=run.config.device, epochs=f"{run.model_epochs:,}"))
        self.predicted.emit()

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        set_style_flag(self.message, "error", error)
