"""The lesson's panel: one step of the tutorial at a time, with Back, Next, its action and a way out.

It shows what the lesson (ui/shell/lesson_commands.py) gives it and says which button was
pressed; what a step does to the window is the lesson's business. The step's words scroll (a dock
under the views on a small screen is a few lines tall), so they never set the panel's height; Back,
Next and Leave stay below them, always in sight.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from gpudemo.ui.base.spoken import announce


class LessonPanel(QDockWidget):
    backRequested = Signal()
    nextRequested = Signal()
    actionRequested = Signal()
    leaveRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.setWindowTitle(self.tr("Lesson: the tutorial, step by step"))
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.stepLabel = QLabel(objectName="lessonStepLabel")
        self.titleLabel = QLabel(objectName="lessonTitle")
        font = self.titleLabel.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.titleLabel.setFont(font)
        self.titleLabel.setWordWrap(True)
        self.textLabel = QLabel(objectName="lessonText")
        self.textLabel.setWordWrap(True)
        self.textLabel.setTextFormat(Qt.TextFormat.RichText)
        self.textLabel.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.textLabel.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.actionButton = QPushButton(objectName="lessonActionButton")
        self.backButton = QPushButton(self.tr("◀ Back"), objectName="lessonBackButton")
        self.nextButton = QPushButton(self.tr("Next ▶"), objectName="lessonNextButton")
        self.leaveButton = QPushButton(self.tr("Leave the lesson"), objectName="lessonLeaveButton")
        self.leaveButton.setToolTip(self.tr("End the lesson: your own settings come back"))
        self.backButton.clicked.connect(self.backRequested)
        self.nextButton.clicked.connect(self.nextRequested)
        self.actionButton.clicked.connect(self.actionRequested)
        self.leaveButton.clicked.connect(self.leaveRequested)

        self.lay_out([(self.stepLabel, 0), (self.titleLabel, 0), (self.textLabel, 0)], [(self.actionButton, 0)])

    def lay_out(self, scrolled: list[tuple[QWidget, int]], below: list[tuple[QWidget, int]] = ()) -> None:
        """The panel's body: `scrolled` (widget, stretch) in a scroll area that takes what room there is,
        then `below` and the row of Back, Next and Leave, never scrolled away."""
        content = QWidget(objectName="lessonContent")
        inside = QVBoxLayout(content)
        inside.setContentsMargins(0, 0, 4, 0)
        for widget, stretch in scrolled:
            alignment = Qt.AlignmentFlag.AlignLeft if isinstance(widget, QPushButton) else Qt.AlignmentFlag(0)
            inside.addWidget(widget, stretch, alignment)
        inside.addStretch(1)
        self.scroll = QScrollArea(objectName="lessonScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the words wrap instead
        self.scroll.setWidget(content)
        buttons = QHBoxLayout()
        buttons.addWidget(self.backButton)
        buttons.addWidget(self.nextButton)
        buttons.addStretch(1)
        buttons.addWidget(self.leaveButton)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 2, 8, 8)
        layout.addWidget(self.scroll, 1)
        for widget, stretch in below:
            alignment = Qt.AlignmentFlag.AlignLeft if isinstance(widget, QPushButton) else Qt.AlignmentFlag(0)
            layout.addWidget(widget, stretch, alignment)
        layout.addLayout(buttons)
        first = self.widget()
        self.setWidget(body)
        if first is not None:  # a subclass lays its parts out again: the first body goes
            first.deleteLater()

    def show_step(
        self, number: int, total: int, title: str, text: str, action: str | None, action_enabled: bool = True
    ) -> None:
        """Step `number` (from 1) of `total`; `action` is its button's text (None: no button)."""
        self.stepLabel.setText(self.tr("Step {number} of {total}").format(number=number, total=total))
        self.titleLabel.setText(title)
        self.textLabel.setText(text)
        self.actionButton.setVisible(action is not None)
        self.actionButton.setText(action or "")
        self.actionButton.setEnabled(action_enabled)
        self.backButton.setEnabled(number > 1)
        self.nextButton.setEnabled(number < total)
        announce(self, f"{self.stepLabel.text()}: {title}")  # a screen reader hears the step change

    def closeEvent(self, event) -> None:
        """The dock's own close button leaves the lesson too (the lesson hides the panel)."""
        event.ignore()
        self.leaveRequested.emit()
