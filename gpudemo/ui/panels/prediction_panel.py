"""Predict on the CPU: the trained model, back from the device, asked for new x.

What it asks depends on the run's problem: a regression's y for values of x; a 2-D
classification's class (and its probability) for points x1,x2; the digits' class for test
images, picked by number or by a click in the digits view, with every class's probability.
"""

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

from gpudemo.core.base import units as fmt
from gpudemo.core.problems import problem_for
from gpudemo.core.session.runs import Run
from gpudemo.core.settings import rules
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.ui.base.i18n import epochs_text, say
from gpudemo.ui.base.style import set_style_flag

VALUES, POINTS, IMAGES = rules.VALUES, rules.POINTS, rules.IMAGES  # what the input asks for
EXAMPLES = {VALUES: "4", POINTS: "0.5,0.5; -1,1", IMAGES: "1"}


def kind_of(run: Run | None) -> str:
    """What the run's problem predicts from (VALUES before any run)."""
    return VALUES if run is None else problem_for(run.config).predicts_from


class PredictionPanel(QGroupBox):
    predicted = Signal()  # the table shows new predictions

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("3. Predict on the CPU"))
        self.run: Run | None = None  # the run whose model predicts
        self.input = QLineEdit("4", objectName="predictInput")
        self.input.setAccessibleName(self.tr("Values to predict for"))
        self.input.setPlaceholderText(self.tr("values, e.g. 4, 5.5, -1"))
        self.button = QPushButton(self.tr("Predict"), objectName="predictButton")
        self.message = QLabel(self.tr("Train a model first, then ask it for new x."), objectName="predictMessage")
        self.message.setWordWrap(True)
        self.table = QTableWidget(0, 2, objectName="predictionTable")
        self.table.setAccessibleName(self.tr("Predictions"))
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
        kind = kind_of(run)
        if kind != kind_of(self.run) or self.input.placeholderText() == "":
            self._ask_for(kind)
        self.run = run

    def _ask_for(self, kind: str) -> None:
        """Fit the input and the table to what the run's problem predicts; an input of another kind goes."""
        placeholders = {
            VALUES: self.tr("values, e.g. 4, 5.5, -1"),
            POINTS: self.tr("points x1,x2, e.g. 0.5,0.5; -1,1"),
            IMAGES: self.tr("test images 1 to {count}, e.g. 1, 2, 3 (or click one)").format(count=rules.TEST_IMAGES),
        }
        self.input.setPlaceholderText(placeholders[kind])
        try:
            fits = bool(rules.parse_prediction(kind, self.input.text()))
        except InvalidSetting:
            fits = False
        if not fits:
            self.input.setText(EXAMPLES[kind])
        headers = {
            VALUES: [self.tr("x"), self.tr("predicted y")],
            POINTS: [self.tr("x1, x2"), self.tr("class"), self.tr("probability")],
            # The image's number apart from the digits, so that no one reads it as a digit.
            # On two lines each: four columns share the left column's width.
            IMAGES: [
                self.tr("image\nno."),
                self.tr("predicted\ndigit"),
                self.tr("true\ndigit"),
                self.tr("probability"),
            ],
        }[kind]
        self.table.setRowCount(0)
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)

    @Slot(int)
    def predict_image(self, index: int) -> None:
        """Ask for one test image (a click in the digits view) and show every class's probability."""
        self.input.setText(str(index + 1))
        self.predict(every_class=True)

    @Slot()
    def predict(self, every_class: bool = False) -> None:
        run = self.run
        if run is None:
            self._say(self.tr("No model yet: train one first, then predict."), error=True)
            return
        if run.model is None:
            self._say(
                self.tr("Run #{number} has no model to ask yet: pause it, or wait for it to end.").format(
                    number=run.number
                ),
                error=True,
            )
            return
        from gpudemo.core.training.prediction import classify, predict  # a model exists: PyTorch has loaded

        kind = kind_of(run)
        try:
            inputs = rules.parse_prediction(kind, self.input.text())
        except InvalidSetting as error:
            self._say(say(error), error=True)
            return
        if kind == VALUES:
            rows = [(f"{x:g}", fmt.loss(y)) for x, y in zip(inputs, predict(run.model, inputs), strict=True)]
        elif kind == POINTS:
            probabilities = classify(run.model, inputs)
            rows = [
                (f"{x1:g}, {x2:g}", str(int(p.argmax())), f"{float(p.max()):.1%}")
                for (x1, x2), p in zip(inputs, probabilities, strict=True)
            ]
        else:
            x_test, y_test = problem_for(run.config).make_test_data(run.config)
            probabilities = classify(run.model, x_test[inputs])
            rows = [
                (f"{index + 1}", str(int(p.argmax())), str(int(y_test[index])), f"{float(p.max()):.1%}")
                for index, p in zip(inputs, probabilities, strict=True)
            ]
            if every_class or len(inputs) == 1:  # one image: every digit's probability, most likely first
                chances = probabilities[0]
                rows += [
                    ("", str(k), "", f"{float(chances[k]):.1%}") for k in chances.argsort(descending=True).tolist()
                ]
        self.table.setRowCount(len(rows))
        for row, cells in enumerate(rows):
            for column, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        self._say(
            self.tr("Computed on the CPU by run #{number}'s model, trained on {device} ({epochs}).").format(
                number=run.number, device=run.config.device, epochs=epochs_text(run.model_epochs)
            )
        )
        self.predicted.emit()

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        set_style_flag(self.message, "error", error)
