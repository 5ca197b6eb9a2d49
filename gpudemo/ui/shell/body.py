"""The window's body: the left column (devices, settings, prediction) beside the views, with the run's status
above them and its progress under them; and the docks around it: the Code panel, the two lessons' panels.

The body scrolls where the screen is smaller than it: at 150 % on a 1366 x 768 laptop (Windows' usual
setting) the window has 911 x 485 logical pixels, less than the 1024 x 501 the body needs, and without the
scroll bars the views' right side and the progress row were cut off the screen. Where the window is larger
than the body, no scroll bar shows and the body takes the room.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QScrollArea, QStyle, QVBoxLayout, QWidget

from gpudemo.ui.panels.code_panel import CodePanel
from gpudemo.ui.panels.guess_panel import GuessPanel
from gpudemo.ui.panels.lesson_panel import LessonPanel

ROOMY = 620  # logical px: the body's height where it scrolls (its views' plots readable)


class WindowBody(QScrollArea):
    def __init__(self, left: QWidget, status, tabs: QWidget) -> None:
        super().__init__(objectName="windowBody")
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        right = QVBoxLayout()
        right.addWidget(status.statusLabel)
        right.addWidget(tabs, 1)
        right.addLayout(status.progress_row)
        right.addWidget(status.resultLabel)
        content = QWidget(objectName="windowContent")
        columns = QHBoxLayout(content)
        columns.addWidget(left)
        columns.addLayout(right, 1)
        self.setWidget(content)  # sized here, not by setWidgetResizable: that asks a layout whose labels wrap
        # for its height at the width it has (its preferred height: 1,300 px), and scrolled at 1024 x 768

    def needed(self):
        """The size the body needs to show without a scroll bar."""
        content = self.widget()
        return content.minimumSizeHint().expandedTo(content.minimumSize())

    def needed_width(self) -> int:
        return self.needed().width()

    def fit(self) -> None:
        """The content as large as the room, and no smaller than it needs (the scroll bars show the rest); once
        it scrolls up and down, at least ROOMY tall: its minimum there squeezed the loss plot to 100 px under
        a lesson at 150 %, where a taller body, scrolled, shows the plot whole."""
        room, need = self.maximumViewportSize(), self.needed()
        if need.height() > room.height():
            need.setHeight(max(need.height(), ROOMY))
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        wide, tall = need.width() > room.width(), need.height() > room.height()
        wide = wide or (tall and need.width() > room.width() - bar)
        tall = tall or (wide and need.height() > room.height() - bar)
        width = max(need.width(), room.width() - (bar if tall else 0))
        height = max(need.height(), room.height() - (bar if wide else 0))
        if (width, height) != (self.widget().width(), self.widget().height()):
            self.widget().resize(width, height)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        handled = super().eventFilter(watched, event)
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()  # a view built, a language changed: the content's minimum may have too
        return handled


def add_docks(window: QMainWindow) -> tuple[CodePanel, LessonPanel, GuessPanel]:
    """The Code panel and the two lessons' panels, docked on the right, a lesson above its code."""
    code, lesson, guess = CodePanel(window), LessonPanel(window), GuessPanel(window)
    code.setMinimumWidth(320)
    for dock in (code, lesson, guess):
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.splitDockWidget(lesson, code, Qt.Orientation.Vertical)
    return code, lesson, guess
