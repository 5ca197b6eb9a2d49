"""The lessons and every view fit 1024 x 768 and 1366 x 768 at the app's own 11 pt font: every step of both
lessons, in a fresh window and in one whose every view was laid out first, keeps the window within the
screen, the step's buttons on it, its words in a scroll area (never clipped), and the summary's numbers in
sight without scrolling."""

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication

from gpudemo.ui.shell.menus import fit_to_screen
from tests.ui.windows import SCALED_150, open_window

SIZES = [(1024, 768), (1366, 768), SCALED_150]


def _on_screen(window, widget, screen: QRect, what: str) -> None:
    top_left = widget.mapTo(window, QPoint(0, 0))
    inside = QRect(top_left, widget.size())
    assert window.rect().contains(inside), (what, widget.objectName(), inside, window.size())
    assert window.width() <= screen.width() and window.height() <= screen.height(), (what, window.size())


def _walk(window, panel, lesson, screen: QRect, name: str) -> None:
    hint = window.minimumSizeHint()
    for number in range(len(lesson.steps)):
        QApplication.processEvents()
        what = f"{name} step {number + 1} at {screen.width()}x{screen.height()}"
        assert hint.width() <= screen.width() and window.minimumSizeHint().height() <= screen.height(), what
        for button in (panel.backButton, panel.nextButton, panel.leaveButton):
            _on_screen(window, button, screen, what)
        if panel.actionButton.isVisible():
            _on_screen(window, panel.actionButton, screen, what)
        assert panel.scroll.isVisible() and panel.scroll.height() >= 2 * panel.fontMetrics().height(), what
        assert window.viewTabs.currentWidget().height() > 100, what
        table = getattr(panel, "guessTable", None)
        if table is not None and table.isVisible():
            _on_screen(window, table, screen, what)
            for column in (1, 2, 3):  # your guess, measured, off by: in sight without scrolling
                right = table.columnViewportPosition(column) + table.columnWidth(column)
                assert 0 <= table.columnViewportPosition(column) and right <= table.viewport().width(), (what, column)
        for frame in lesson.highlighter.frames:  # a frame never drawn over the panel for a widget scrolled away
            frame.follow()
            if frame.isVisible() and not panel.isAncestorOf(frame.target):
                on_panel = QRect(panel.mapTo(window, QPoint(0, 0)), panel.size())
                assert not frame.geometry().intersects(on_panel), (what, frame.target.objectName())
        if number + 1 < len(lesson.steps):
            panel.nextButton.click()


def _measured_everything(lesson) -> None:
    from gpudemo.core.lessons import guesses
    from gpudemo.core.lessons.lesson import RATIO, GuessSpec

    for step in lesson.steps:
        if step.guess is not None:
            off = guesses.off_by(GuessSpec(RATIO), 12.5, 2.06)
            lesson.outcomes[step.key] = guesses.Outcome(
                step.key, step.title_in("en"), 12.5, 2.06, off, "On one H200 (4 December) the GPU won from 10,000 on"
            )


def _walk_both_lessons(qtbot, screen: QRect, visited: bool) -> None:
    """Each lesson on a fresh window fitted to `screen` (every view laid out first where `visited`), walked
    step by step (_walk); the window within the screen before and after."""
    for trigger, panel_name, lesson_name in (
        ("gpu_lesson", "guessPanel", "gpu_lesson"),
        ("lesson", "lessonPanel", "lesson"),
    ):
        window = open_window(qtbot)
        fit_to_screen(window, screen)
        if visited:
            for index in range(window.viewTabs.count()):
                window.viewTabs.setCurrentIndex(index)
                QApplication.processEvents()
                assert window.viewTabs.currentWidget().isVisible()
            window.viewTabs.setCurrentIndex(0)
        QApplication.processEvents()
        assert window.width() <= screen.width() and window.minimumSizeHint().width() <= screen.width()
        getattr(window.actions, trigger).trigger()
        if lesson_name == "gpu_lesson":  # every step measured: the summary's table full, as a learner sees it
            _measured_everything(window.gpu_lesson)
        _walk(window, getattr(window, panel_name), getattr(window, lesson_name), screen, lesson_name)
        getattr(window, panel_name).leaveButton.click()
        QApplication.processEvents()
        assert window.width() <= screen.width() and window.minimumSizeHint().width() <= screen.width()
        window.close()


@pytest.mark.parametrize("size", SIZES, ids="{0[0]}x{0[1]}".format)
@pytest.mark.parametrize("visited", [False, True], ids=["fresh", "every-view-laid-out"])
def test_every_step_of_both_lessons_fits_the_screen(qtbot, size, visited, app_font):
    _walk_both_lessons(qtbot, QRect(0, 0, *size), visited)


@pytest.fixture
def font_14(qapp):
    """The app's font raised from 11 to 14 points, as a person who needs larger text sets it."""
    default = qapp.font()
    font = qapp.font()
    font.setPointSizeF(14.0)
    qapp.setFont(font)
    yield
    qapp.setFont(default)


def test_at_14_points_on_1366_by_768_every_step_of_both_lessons_and_every_view_is_reachable(qtbot, font_14):
    _walk_both_lessons(qtbot, QRect(0, 0, 1366, 768), visited=True)
