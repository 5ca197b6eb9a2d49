"""The Code panel: the plain PyTorch script for the current settings, its running step marked."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QGuiApplication,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.base.errors import RunRefused
from gpudemo.core.base.files import write_atomically
from gpudemo.core.lessons.lesson import code_lines
from gpudemo.core.problems import problem_for
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.training import PREDICTING, PREPARING_STEP, TO_CPU, TO_DEVICE, TRAINING
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.places import ask_save

if TYPE_CHECKING:
    from gpudemo.core.outputs.script import Script

# The marked step's background, and the syntax colours, on a light and on a dark theme.
SINGLE, PARALLEL = "single", "parallel"  # the script shown: for one device, or data parallel for torchrun
PARALLEL_WORKERS = 2  # the workers its torchrun line names (any number runs it)
MARK = {False: QColor("#fff1b8"), True: QColor("#4d4420")}
SYNTAX = {
    False: ("#7a1fa2", "#0b5cad", "#b35900", "#1b7f3b", "#6b6b6b"),
    True: ("#d2a8ff", "#79c0ff", "#ffa657", "#7ee787", "#8b949e"),
}
PATTERNS = (
    r"\b(import|from|for|in|with|as|if|else|def|return|not|and|or)\b",
    r"\b(True|False|None|print|range|zip)\b",
    r"\b\d+(\.\d*)?([eE][-+]?\d+)?\b",
    r"\"[^\"]*\"",
    r"#.*$",
)


def _format(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(700)
    fmt.setFontItalic(italic)
    return fmt


class PythonHighlighter(QSyntaxHighlighter):
    def __init__(self, document, dark: bool = False):
        super().__init__(document)
        self.set_dark(dark)

    def set_dark(self, dark: bool) -> None:
        colours = SYNTAX[dark]
        formats = (
            _format(colours[0], bold=True),
            _format(colours[1]),
            _format(colours[2]),
            _format(colours[3]),
            _format(colours[4], italic=True),
        )
        self.rules = [(re.compile(pattern), fmt) for pattern, fmt in zip(PATTERNS, formats, strict=True)]
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self.rules:
            for match in pattern.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), fmt)


class CodePanel(QDockWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("codeDock")
        self.setWindowTitle(self.tr("Code: the PyTorch behind this run"))
        # Movable, floatable and closable (View → Code panel brings it back): a small screen needs the room.
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self._script: Script | None = None
        self._phase: str | None = None
        self._lesson: tuple[str, ...] = ()  # pieces of the lines a step of the lesson explains
        self._step_names = {
            TO_DEVICE: self.tr("moving the model and the data to the device"),
            TRAINING: self.tr("the training loop"),
            TO_CPU: self.tr("bringing the model back to the CPU"),
            PREDICTING: self.tr("predicting on the CPU"),
        }

        self.kindCombo = QComboBox(objectName="codeKindCombo")
        self.kindCombo.setAccessibleName(self.tr("Which script"))
        self.kindCombo.addItem(self.tr("one device"), SINGLE)
        self.kindCombo.addItem(self.tr("data parallel (DDP, for torchrun)"), PARALLEL)
        self.kindCombo.setToolTip(
            self.tr(
                "The script for one device, as the Start button trains; or the same training with"
                " DistributedDataParallel on several workers, to run with torchrun --nproc-per-node N, as the Data"
                " parallel tab trains"
            )
        )
        self._config: TrainingConfig | None = None
        self._values_text = ""
        self.view = QPlainTextEdit(objectName="codeView")
        self.view.setAccessibleName(self.tr("The PyTorch script of these settings"))
        self.view.setReadOnly(True)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSizeF(max(10.0, font.pointSizeF()))
        self.view.setFont(font)
        self._dark = False
        self._highlighter = PythonHighlighter(self.view.document())
        self.stepLabel = QLabel(objectName="codeStepLabel")
        self.stepLabel.setWordWrap(True)
        self.copyButton = QPushButton(self.tr("Copy"), objectName="copyCodeButton")
        self.saveButton = QPushButton(self.tr("Save as .py…"), objectName="saveCodeButton")
        self.notebookButton = QPushButton(objectName="notebookButton")  # File > Export as a notebook (its action)
        self.copyButton.clicked.connect(self.copy)
        self.kindCombo.currentIndexChanged.connect(self._on_kind)
        self.saveButton.clicked.connect(self.save_dialog)

        buttons = QHBoxLayout()
        buttons.addWidget(self.stepLabel, 1)
        buttons.addWidget(self.copyButton)
        buttons.addWidget(self.saveButton)
        buttons.addWidget(self.notebookButton)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 0, 6, 6)
        layout.addWidget(self.kindCombo)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        self.setWidget(body)

    def text(self) -> str:
        return self._script.text if self._script else ""

    def show_settings(self, config: TrainingConfig, values_text: str) -> None:
        """The script for `config`, predicting for the values typed (4 while they are not valid), or
        classifying the points typed (none while they are not); a digits script recognises test images."""
        from gpudemo.core.distributed.launcher import backend_for
        from gpudemo.core.distributed.script import generate_parallel_script  # made by the problems, in torch
        from gpudemo.core.outputs.script import Script, generate_script

        self._config, self._values_text = config, values_text
        if self.kindCombo.currentData() == PARALLEL:
            backend = backend_for(config.device)  # nccl where this PyTorch has it (never on Windows, macOS)
            text = generate_parallel_script(
                config,
                PARALLEL_WORKERS,
                backend,
                "gpudemo_ddp.py",
                translate=lambda text: QCoreApplication.translate("script", text),
            )
            self.set_script(Script(text, {}))
            return
        problem = problem_for(config)
        try:  # the digits' script predicts no typed input: it shows its test images
            values = problem.parse_inputs(values_text) if problem.predicts_from != rules.IMAGES else []
        except InvalidSetting:
            values = [] if problem.classes else [4.0]
        try:
            script = generate_script(config, values, translate=lambda text: QCoreApplication.translate("script", text))
        except RunRefused as refused:  # a graph script that would fail at its capture: the run's reason instead
            script = Script(
                "# " + self.tr("No script for these settings: {reason}.").format(reason=say(refused)) + "\n", {}
            )
        self.set_script(script)

    def say(self, text: str) -> None:
        """A line in place of the script (while PyTorch loads: the problems that write it need it)."""
        self._script = None
        self.view.setPlainText(text)
        self._show_mark()

    def set_script(self, script: Script) -> None:
        if self._script is not None and script.text == self._script.text:
            return
        scroll = self.view.verticalScrollBar().value()
        self._script = script
        self.view.setPlainText(script.text)
        self.view.verticalScrollBar().setValue(scroll)
        self._show_mark()

    @Slot(str)
    def mark(self, phase: str | None) -> None:
        """Mark the lines of `phase` (None: no mark); a step compiled before the loop marks the loop."""
        self._phase = TRAINING if phase == PREPARING_STEP else phase
        self._show_mark()

    def mark_paused(self, epoch: int) -> None:
        """Mark the training loop, and say that the run holds there."""
        self.mark(TRAINING)
        self.stepLabel.setText(self.tr("Paused in the training loop after epoch {epoch}").format(epoch=f"{epoch:,}"))

    def mark_lesson(self, pieces: tuple[str, ...]) -> None:
        """Mark the lines that hold any of `pieces` (a lesson step's), while no phase of a run is marked."""
        self._lesson = tuple(pieces)
        self._show_mark()

    def marked_lines(self) -> list[int]:
        if self._script is None:
            return []
        if self._phase is None:
            return code_lines(self._script.text, self._lesson) if self._lesson else []
        if self._phase not in self._script.spans:
            return []  # the data-parallel script has no phases of the window's run
        return list(self._script.lines(self._phase))

    @Slot(int)
    def _on_kind(self, index: int) -> None:
        if self._config is not None:
            self.show_settings(self._config, self._values_text)

    def set_dark(self, dark: bool) -> None:
        """Syntax colours and the marked step's background for a dark (or light) theme."""
        self._dark = dark
        self._highlighter.set_dark(dark)
        self._show_mark()

    def _show_mark(self) -> None:
        lines = self.marked_lines()
        selections = []
        document = self.view.document()
        for line in lines:
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(MARK[self._dark])
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.cursor = QTextCursor(document.findBlockByNumber(line))
            selections.append(selection)
        self.view.setExtraSelections(selections)
        if lines:
            self.view.setTextCursor(QTextCursor(document.findBlockByNumber(lines[-1])))
            self.view.ensureCursorVisible()
            self.view.setTextCursor(QTextCursor(document.findBlockByNumber(lines[0])))
            self.view.ensureCursorVisible()
            self.stepLabel.setText(
                self.tr("Now: {step}").format(step=self._step_names[self._phase])
                if self._phase is not None
                else self.tr("The lines this step of the lesson explains")
            )
        else:
            self.stepLabel.setText(self.tr("The script updates as you change the settings."))

    @Slot()
    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
        self.stepLabel.setText(self.tr("Copied to the clipboard."))

    @Slot()
    def save_dialog(self) -> None:
        path = ask_save(self, self.tr("Save the script"), "gpudemo_run.py", self.tr("Python files (*.py)"))
        if path:
            self.save(path)

    def save(self, path: str) -> bool:
        return self._write(path, self.text())

    def has_notebook(self) -> bool:
        """A notebook is made of the script for one device (a DDP script runs under torchrun, not in a kernel)."""
        return self._config is not None and self._script is not None and bool(self._script.spans)

    @Slot()
    def save_notebook_dialog(self) -> None:
        if not self.has_notebook():
            self.stepLabel.setText(
                self.tr("A notebook is made of the script for one device: choose “one device” above the script.")
            )
            return
        path = ask_save(
            self, self.tr("Export as a notebook"), "gpudemo_run.ipynb", self.tr("Jupyter notebooks (*.ipynb)")
        )
        if path:
            self.save_notebook(path)

    def save_notebook(self, path: str) -> bool:
        """The script as a Jupyter notebook (core/outputs/notebook.py), its words in the window's language."""
        from gpudemo.core.outputs.notebook import notebook_text  # a script is shown: PyTorch has loaded

        translate = lambda text: QCoreApplication.translate("script", text)  # noqa: E731
        return self._write(path, notebook_text(self._config, self._script, translate))

    def _write(self, path: str, text: str) -> bool:
        try:
            note = write_atomically(path, lambda out: out.write(text))
        except OSError as error:
            self.stepLabel.setText(self.tr("Could not save {path}: {reason}").format(path=path, reason=error.strerror))
            return False
        saved = self.tr("Saved {path}").format(path=path)
        self.stepLabel.setText(saved if note is None else f"{saved}. {say(note)}")
        return True
