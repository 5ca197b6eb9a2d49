"""What both lessons do alike on the window: their steps, Back and Next, the panel docked where there
is room, the view a step shows and the frames around its widgets, and the person's own settings kept
while a lesson runs and put back when it ends. Each lesson (lesson_commands.py, guess_lesson.py) adds
what its steps do.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QObject, Qt, Slot

from gpudemo.core.lessons import lesson
from gpudemo.ui.base.highlight import Highlighter
from gpudemo.ui.panels.lesson_panel import LessonPanel

PANEL_HEIGHT = 280  # a step's panel beside the views, at least this tall
BOTTOM_HEIGHT = 220  # or under them, on a screen too narrow for a dock beside them (its words scroll)
FORM_KEYS = ("problem", "samples", "batch_size", "optimizer", "precision", "step", "epochs", "lr", "seed")


def form_values(config) -> dict:
    """The form's values a lesson sets: `config`'s settings of FORM_KEYS."""
    values = dataclasses.asdict(config)
    return {key: values[key] for key in FORM_KEYS}


class LessonCourse(QObject):
    """A lesson's course through `steps` on the window, shown in `panel`. Subclasses show a step (`go`),
    do its button (`act`) and end (`leave`, calling `_end` for what every lesson undoes)."""

    def __init__(self, window, panel: LessonPanel, steps: tuple[lesson.Step, ...]):
        super().__init__(window)
        self.window = window
        self.panel = panel
        self.steps = steps
        self.highlighter = Highlighter(window)
        self.index = -1  # the step shown; -1: no lesson
        self._saved: tuple[dict, str, int] | None = None  # the person's form, predict text and view
        self._beside = True  # the panel docks beside the views (else under them)
        self._code_moved = False  # the Code panel moved under the views beside the lesson, closed before
        panel.hide()
        panel.backRequested.connect(self.back)
        panel.nextRequested.connect(self.next)
        panel.actionRequested.connect(self.act)
        panel.leaveRequested.connect(self.leave)

    def is_active(self) -> bool:
        return self.index >= 0

    def go(self, index: int) -> None:
        raise NotImplementedError

    def act(self) -> None:
        raise NotImplementedError

    def leave(self) -> None:
        raise NotImplementedError

    @Slot()
    def back(self) -> None:
        if self.index > 0:
            self.go(self.index - 1)

    @Slot()
    def next(self) -> None:
        if 0 <= self.index < len(self.steps) - 1:
            self.go(self.index + 1)

    def _keep_settings(self) -> None:
        w = self.window
        self._saved = (w.trainingPanel.snapshot(), w.predictInput.text(), w.viewTabs.currentIndex())

    def _end(self) -> bool:
        """What ending any lesson undoes: the step, the frames, the panel, the person's settings. False when
        no lesson was going (the panel is hidden all the same)."""
        if not self.is_active():
            self.panel.hide()
            return False
        self.index = -1
        self.highlighter.clear()
        self.panel.hide()
        self._put_code_back()
        if self._saved is not None:
            form, predict_text, view = self._saved
            w = self.window
            w.trainingPanel.restore(form)
            w.predictInput.setText(predict_text)
            w.viewTabs.setCurrentIndex(view)
            self._saved = None
        return True

    def _hand_over(self, other: LessonCourse) -> bool:
        """Take the person's settings from `other` (the same lesson on the window this one replaces), which
        then lets go of them; whether it had a lesson going."""
        if not other.is_active():
            return False
        self._saved = other._saved
        other._saved, other.index = None, -1  # closing the old window must not put the settings back there
        other.highlighter.clear()
        return True

    def _dock(self, beside_height: int, with_code: bool = False) -> None:
        """The panel above the Code panel, `beside_height` tall; on a screen too narrow for a dock beside the
        views (where the Code panel starts closed), under them instead, and there, for a lesson that marks the
        script's lines (`with_code`), the Code panel beside it: at 1024 x 768 every marked line pointed at a
        panel that was not shown."""
        w = self.window
        room = w.width() - w.centralWidget().needed_width()
        self._beside = room >= max(self.panel.minimumSizeHint().width(), w.codePanel.minimumWidth())
        if self._beside:
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel)
            if w.codePanel.isVisibleTo(w):
                w.splitDockWidget(self.panel, w.codePanel, Qt.Orientation.Vertical)
            self.panel.show()
            w.resizeDocks([self.panel], [max(PANEL_HEIGHT, beside_height)], Qt.Orientation.Vertical)
        else:
            w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.panel)
            self.panel.show()
            if with_code and not self._code_moved:
                self._code_moved = True
                w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, w.codePanel)
                w.splitDockWidget(self.panel, w.codePanel, Qt.Orientation.Horizontal)
                w.codePanel.show()
                w.resizeDocks([self.panel, w.codePanel], [w.width() // 2] * 2, Qt.Orientation.Horizontal)
            w.resizeDocks([self.panel], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)

    def _put_code_back(self) -> None:
        """The Code panel where it was before the lesson moved it under the views: on the right, closed."""
        if self._code_moved:
            self._code_moved = False
            w = self.window
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, w.codePanel)
            w.codePanel.hide()

    def _show_view_and_frames(self, step: lesson.Step) -> None:
        """The view `step` talks about, and a frame around each widget it names."""
        w = self.window
        if step.tab:
            view = w.find(step.tab)
            if view is not None:
                w.viewTabs.setCurrentWidget(view)
        self.highlighter.show([widget for name in step.widgets if (widget := w.find(name)) is not None])
