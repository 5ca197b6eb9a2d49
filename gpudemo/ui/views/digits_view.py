"""The digits, after a run: test images with the class the model sees (wrong ones marked), and the
confusion matrix over all 360 held-out images.

It asks the run's CPU model (the final one, or the copy a pause took) on the CPU, as the
tutorial predicts. A click on an image hands it to the Predict panel, which shows the
probability of every class.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QColor, QIcon, QImage, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.problems import problem_for
from gpudemo.core.session.runs import Run
from gpudemo.ui.base import style, theme
from gpudemo.ui.base.i18n import epochs_text

IMAGES_SHOWN = 20  # the first test images, two rows of ten
COLUMNS = 10
IMAGE_PIXELS = 44  # each 8x8 image drawn this large


def wrong_colour() -> str:
    """A wrong digit's colour in the theme shown: the error's, at least 4.5:1 on the window (#d03030 was 4.4:1 on
    the light window and 2.7:1 on the dark one)."""
    return (style.DARK_COLOURS if theme.current().dark else style.LIGHT_COLOURS)["error"]


def digit_pixmap(pixels: np.ndarray, side: int, size: int = IMAGE_PIXELS) -> QPixmap:
    """An image of `side` x `side` pixels 0..1 (ink), drawn dark on light, `size` pixels a side."""
    grey = np.ascontiguousarray(((1 - pixels.reshape(side, side)) * 255).clip(0, 255).astype(np.uint8))
    image = QImage(grey.data, side, side, side, QImage.Format.Format_Grayscale8).copy()
    return QPixmap.fromImage(image).scaled(
        size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.FastTransformation
    )


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class DigitsView(QWidget):
    imagePicked = Signal(int)  # the index of a test image a person clicked

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("digitsView")
        self.note = QLabel(objectName="digitsNote")
        self.note.setWordWrap(True)
        self.images: list[QToolButton] = []
        grid = QGridLayout()
        grid.setSpacing(2)
        for index in range(IMAGES_SHOWN):
            button = QToolButton(objectName=f"digitImage{index}")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
            button.setIconSize(QSize(IMAGE_PIXELS, IMAGE_PIXELS))
            button.setAutoRaise(True)
            button.setAccessibleName(self.tr("Test image {number}: no model yet").format(number=index + 1))
            button.clicked.connect(self._on_image_clicked)
            self.images.append(button)
            grid.addWidget(button, index // COLUMNS, index % COLUMNS)
        self.confusionTable = QTableWidget(0, 0, objectName="confusionTable")
        self.confusionTable.setAccessibleName(
            self.tr("Confusion matrix: a row for each true digit, a column for each digit said")
        )
        self.confusionTable.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.confusionTable.setToolTip(
            self.tr(
                "Row: the true digit; column: the digit the model says. The diagonal is right; any other cell counts"
                " one kind of mistake (a 3 read as an 8, say)"
            )
        )
        # Cells as small as their numbers allow, so that the ten rows and columns fit the space (at 1366 x 768
        # the style's minimum section sizes needed a scroll bar each way).
        metrics = self.confusionTable.fontMetrics()
        sizes = (metrics.horizontalAdvance("88") + 6, metrics.height() + 2)  # a class has about 36 test images
        for header, size in zip(
            (self.confusionTable.horizontalHeader(), self.confusionTable.verticalHeader()), sizes, strict=True
        ):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            header.setMinimumSectionSize(size)
        self.confusionTable.setTextElideMode(Qt.TextElideMode.ElideNone)  # a count is never cut to "…"
        images = QVBoxLayout()
        # The captions wrap: a line of them must not widen the view past its place (it scrolled at 1366 x 768).
        images.addWidget(_caption(self.tr("Test images: what the model says (the true digit); wrong ones in red")))
        images.addLayout(grid)
        images.addStretch(1)
        matrix = QVBoxLayout()
        matrix.addWidget(_caption(self.tr("Confusion matrix (rows: true, columns: predicted)")))
        matrix.addWidget(self.confusionTable, 1)
        inside = QWidget()
        row = QHBoxLayout(inside)
        row.setContentsMargins(0, 0, 0, 0)
        row.addLayout(images, 3)
        row.addLayout(matrix, 2)
        scroll = QScrollArea()  # a small window scrolls the images and the matrix instead of growing
        scroll.setWidget(inside)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(scroll, 1)
        self._run: Run | None = None
        self._shown_model = None
        self.show_run(None)

    def show_run(self, run: Run | None) -> None:
        """Show what `run`'s model makes of the test images (when it has a model)."""
        model = run.model if run is not None else None
        if run is self._run and model is self._shown_model:
            return
        self._run, self._shown_model = run, model
        if run is None or model is None:
            self._clear(run)
            return
        from gpudemo.core.training.prediction import classify, confusion  # a model exists: PyTorch has loaded

        problem = problem_for(run.config)
        x_test, y_test = problem.make_test_data(run.config)
        shown = x_test[:IMAGES_SHOWN]
        predicted = classify(model, shown).argmax(1).tolist()
        for index, button in enumerate(self.images):
            said, true = predicted[index], int(y_test[index])
            button.setIcon(QIcon(digit_pixmap(shown[index].numpy(), problem.image_side)))
            button.setText(f"{said} ({true})")
            button.setStyleSheet(f"color: {wrong_colour()}; font-weight: bold;" if said != true else "")
            button.setToolTip(
                self.tr(
                    "Test image {number}: the model says {said}, it is a {true}. Click to see every"
                    " class's probability in Predict"
                ).format(number=index + 1, said=said, true=true)
            )
            button.setAccessibleName(
                self.tr("Test image {number}: the model says {said}, it is a {true}").format(
                    number=index + 1, said=said, true=true
                )
            )
            button.setEnabled(True)
        self._fill_confusion(confusion(model, x_test, y_test, problem.classes).numpy())
        right = int(np.trace(self._matrix))
        self.note.setText(
            self.tr("Run #{number}'s model after {epochs}: {right} of {total} test images right ({share}).").format(
                number=run.number,
                epochs=epochs_text(run.model_epochs),
                right=right,
                total=len(y_test),
                share=f"{right / len(y_test):.1%}",
            )
        )

    def _fill_confusion(self, matrix: np.ndarray) -> None:
        self._matrix = matrix
        classes = len(matrix)
        table = self.confusionTable
        table.setRowCount(classes)
        table.setColumnCount(classes)
        labels = [str(k) for k in range(classes)]
        table.setHorizontalHeaderLabels(labels)
        table.setVerticalHeaderLabels(labels)
        for k in range(classes):  # what a screen reader says of each header: not "3", but which 3
            table.horizontalHeaderItem(k).setData(
                Qt.ItemDataRole.AccessibleTextRole, self.tr("said {digit}").format(digit=k)
            )
            table.verticalHeaderItem(k).setData(
                Qt.ItemDataRole.AccessibleTextRole, self.tr("true {digit}").format(digit=k)
            )
        largest = max(1, int(matrix.max()))
        for true in range(classes):
            for said in range(classes):
                count = int(matrix[true, said])
                item = QTableWidgetItem(str(count) if count else "")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if count:
                    strength = 40 + int(160 * count / largest)
                    item.setBackground(QColor(44, 160, 90, strength) if true == said else QColor(208, 48, 48, strength))
                table.setItem(true, said, item)

    def _clear(self, run: Run | None) -> None:
        for index, button in enumerate(self.images):
            button.setIcon(QIcon())
            button.setText("")
            button.setToolTip("")
            button.setAccessibleName(self.tr("Test image {number}: no model yet").format(number=index + 1))
            button.setEnabled(False)
        self.confusionTable.setRowCount(0)
        self.confusionTable.setColumnCount(0)
        self._matrix = np.zeros((0, 0))
        if run is None:
            self.note.setText(self.tr("Train on the digits to see what the model makes of the test images."))
        else:
            self.note.setText(
                self.tr(
                    "Run #{number} is training: its test images and confusion matrix show when it ends or pauses."
                ).format(number=run.number)
            )

    @Slot()
    def _on_image_clicked(self) -> None:
        button = self.sender()
        if button in self.images:
            self.imagePicked.emit(self.images.index(button))
