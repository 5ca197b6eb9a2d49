"""The second lesson's panel: the lesson panel's step, Back, Next and way out, plus the learner's guess
(a choice of sizes, or a number typed), what was wrong with it, and at the end the table of every
guess against this machine with a way to export it.

It shows what the lesson (ui/shell/guess_lesson.py) gives it and says which button was pressed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.lessons.lesson import CHOICE, PERCENT, GuessSpec
from gpudemo.ui.base.style import set_style_flag
from gpudemo.ui.panels.lesson_panel import LessonPanel

QUESTION = 0  # the table's first column
QUESTION_SHARE = 0.3  # of the table's width, at most, for the question (at least QUESTION_MIN px)
QUESTION_MIN = 60


class GuessPanel(LessonPanel):
    exportRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("guessPanel")
        self.setWindowTitle(self.tr("Lesson: make the GPU win"))
        self.guessLabel = QLabel(self.tr("Your guess:"), objectName="guessLabel")
        self.guessCombo = QComboBox(objectName="guessCombo")
        self.guessCombo.setAccessibleName(self.tr("Your guess"))
        self.guessInput = QLineEdit(objectName="guessInput")
        self.guessInput.setAccessibleName(self.tr("Your guess"))
        self.guessInput.setMaximumWidth(120)
        self.unitLabel = QLabel(objectName="guessUnit")
        self.lastGuess = QLabel(objectName="lastGuess")
        self.guessError = QLabel(objectName="guessError")
        self.guessError.setWordWrap(True)  # red, by the window's style sheet
        self.guessError.hide()
        self.guessTable = QTableWidget(0, 5, objectName="guessTable")
        self.guessTable.setAccessibleName(self.tr("Your guesses beside what was measured"))
        self.guessTable.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.guessTable.setHorizontalHeaderLabels(
            [self.tr("question"), self.tr("guess"), self.tr("measured"), self.tr("off by"), self.tr("note")]
        )
        # The numbers whole and first (the question moves after them: a dock beside the views is ~320 px);
        # the question and the note take what is left, cut, whole in their tips.
        header = self.guessTable.horizontalHeader()
        header.moveSection(QUESTION, 3)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(QUESTION, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.guessTable.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.guessTable.verticalHeader().hide()
        self.guessTable.setWordWrap(False)  # a row a line: a note too long for its cell is cut, whole in its tip
        self.exportButton = QPushButton(self.tr("Export as CSV…"), objectName="exportGuessesButton")
        self.exportButton.clicked.connect(self.exportRequested)
        self.guessInput.returnPressed.connect(self.actionRequested)

        # The guess on one line, its Measure button under it: side by side, "Measure again" after the first
        # measurement widened the dock's minimum by 45 px, and the window past a 1366-px screen.
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.guessLabel, self.guessCombo, self.guessInput, self.unitLabel):
            row.addWidget(widget)
        row.addStretch(1)
        button_row = QHBoxLayout()
        button_row.addWidget(self.actionButton)
        button_row.addStretch(1)
        rows = QVBoxLayout()
        rows.setContentsMargins(0, 0, 0, 0)
        rows.addLayout(row)
        rows.addLayout(button_row)
        self.guessRow = QWidget(objectName="guessRow")
        self.guessRow.setLayout(rows)
        # the words scroll; the guess, its Measure button, the table and its export stay in sight under them
        self.lay_out(
            [(self.stepLabel, 0), (self.titleLabel, 0), (self.textLabel, 0)],
            [(self.guessRow, 0), (self.lastGuess, 0), (self.guessError, 0), (self.guessTable, 2),
             (self.exportButton, 0)],
        )  # fmt: skip
        self.show_guess(None)
        self.show_table(None)

    def show_guess(self, spec: GuessSpec | None, value: float | None = None, last: str = "") -> None:
        """The guess row for `spec` (None: this step asks none), holding `value`; `last`: the guess remembered
        from an earlier pass, said under it."""
        self.guessRow.setVisible(spec is not None)
        self.show_error("")
        self.lastGuess.setText(last)
        self.lastGuess.setVisible(bool(last))
        if spec is None:
            return
        choice = spec.kind == CHOICE
        self.guessCombo.setVisible(choice)
        self.guessInput.setVisible(not choice)
        self.unitLabel.setText("%" if spec.kind == PERCENT else ("" if choice else "×"))
        if choice:
            self.guessCombo.clear()
            for number in spec.choices:
                self.guessCombo.addItem(f"{number:,.0f}", number)
            if value is not None and self.guessCombo.findData(value) >= 0:
                self.guessCombo.setCurrentIndex(self.guessCombo.findData(value))
        else:
            self.guessInput.setText("" if value is None else f"{value:g}")

    def guess_text(self) -> object:
        """What the learner answered: a choice's number, or the text typed (checked by the lesson)."""
        return self.guessCombo.currentData() if self.guessCombo.isVisible() else self.guessInput.text()

    def show_error(self, text: str) -> None:
        set_style_flag(self.guessInput, "invalid", bool(text))
        self.guessError.setText(text)
        self.guessError.setVisible(bool(text))

    def show_table(self, rows: list[tuple[str, str, str, str, str]] | None) -> None:
        """The guesses against the measurements (None: not this step)."""
        self.guessTable.setVisible(rows is not None)
        self.exportButton.setVisible(rows is not None)
        self.exportButton.setEnabled(bool(rows))
        self.guessTable.setRowCount(len(rows or []))
        for number, row in enumerate(rows or []):
            for column, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setToolTip(text)  # a long note, cut in its cell, whole here
                self.guessTable.setItem(number, column, item)
        self._fit_question()

    def _fit_question(self) -> None:
        """The question column as wide as its text, but no more than its share of the table."""
        table = self.guessTable
        wanted = max(table.sizeHintForColumn(QUESTION), table.horizontalHeader().sectionSizeHint(QUESTION))
        table.setColumnWidth(QUESTION, min(wanted, max(QUESTION_MIN, int(table.viewport().width() * QUESTION_SHARE))))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.guessTable.isVisible():
            self._fit_question()
