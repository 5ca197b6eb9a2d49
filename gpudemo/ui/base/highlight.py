"""Frames drawn over widgets to point at them, on top of the window, letting clicks through.

A frame is a child of the window, not of its widget: the widget's own look and layout stay as
they are. The frames follow their widgets (a scrolled column, a resized dock, a switched tab)
on a timer of their owner's while shown; a widget that is not visible has no frame.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea, QWidget

COLOUR = QColor("#e0622a")
MARGIN = 3
FOLLOW_MS = 200


class Frame(QWidget):
    def __init__(self, target: QWidget, window: QWidget):
        super().__init__(window)
        self.target = target
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.follow()

    def follow(self) -> None:
        target, window = self.target, self.parentWidget()
        if not target.isVisible() or window is None:
            self.hide()
            return
        corner = window.mapFromGlobal(target.mapToGlobal(QPoint(0, 0)))
        area = QRect(corner, target.size()).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
        clip = _visible_part(target, window)
        area = area.intersected(clip.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)) if clip is not None else area
        if area.isEmpty():
            self.hide()
            return
        if self.geometry() != area:
            self.setGeometry(area)
        self.show()
        self.raise_()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(COLOUR, 2.5)
        painter.setPen(pen)
        painter.drawRoundedRect(self.rect().adjusted(2, 2, -2, -2), 4, 4)


def _visible_part(target: QWidget, window: QWidget) -> QRect | None:
    """Where the scroll areas around `target` show it, in the window's coordinates (None: no scroll area): the
    part every one of them shows (the left column's, inside the window body's on a small screen; a frame
    drawn by the innermost alone was drawn over the lesson's panel, its widget scrolled out of sight)."""
    shown = None
    parent = target.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea) and parent is not target:
            viewport = parent.viewport()
            corner = window.mapFromGlobal(viewport.mapToGlobal(QPoint(0, 0)))
            area = QRect(corner, viewport.size())
            shown = area if shown is None else shown.intersected(area)
        parent = parent.parentWidget()
    return shown


class Highlighter:
    """Frames over a set of widgets of `window`; `show(widgets)` replaces the set, `clear()` removes it."""

    def __init__(self, window: QWidget):
        self.window = window
        self.frames: list[Frame] = []
        self.timer = QTimer(window)
        self.timer.setInterval(FOLLOW_MS)
        self.timer.timeout.connect(self._follow)

    def show(self, widgets: list[QWidget]) -> None:
        self.clear()
        for widget in widgets:
            _scroll_to(widget)
            self.frames.append(Frame(widget, self.window))
        if self.frames:
            self.timer.start()

    def clear(self) -> None:
        self.timer.stop()
        for frame in self.frames:
            frame.hide()
            frame.deleteLater()
        self.frames = []

    def targets(self) -> list[QWidget]:
        return [frame.target for frame in self.frames]

    @Slot()
    def _follow(self) -> None:
        for frame in self.frames:
            frame.follow()


def _scroll_to(widget: QWidget) -> None:
    """Scroll each scroll area around `widget` to show it: the left column on a short screen, then the window's
    body on a screen smaller than it."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget, 10, 10)
        parent = parent.parentWidget()
