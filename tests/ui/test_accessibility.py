"""A window for everyone: what a screen reader is told (every control named, every plot described, what
happens announced), the keyboard (Tab reaches every control, in the order the eye reads), and WCAG AA's
contrast, in both themes and both languages. tests/ui/accessibility.py reads the window through Qt's
accessibility interface, which AT-SPI (Orca), UI Automation (NVDA) and NSAccessibility (VoiceOver) are fed from.
"""

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from gpudemo.ui.base import i18n, spoken, style, theme
from gpudemo.ui.shell.menus import fit_to_screen
from tests.ui.accessibility import accessible_text, contrast, controls, unnamed
from tests.ui.windows import every_view, open_window, run_to_end


def _every_part_built(window) -> None:
    """Every view laid out, both lessons opened and left: every control the window has, made."""
    fit_to_screen(window, QRect(0, 0, 1366, 768))
    every_view(window)
    for index in range(window.viewTabs.count()):
        window.viewTabs.setCurrentIndex(index)
        QApplication.processEvents()
    window.viewTabs.setCurrentIndex(0)
    for trigger, panel in ((window.actions.lesson, window.lessonPanel), (window.actions.gpu_lesson, window.guessPanel)):
        trigger.trigger()
        QApplication.processEvents()
        panel.leaveButton.click()


@pytest.mark.parametrize("language", [i18n.ENGLISH, i18n.CHINESE])
def test_every_control_of_every_view_and_both_lessons_has_a_name(qtbot, language):
    assert i18n.install(language)
    try:
        window = open_window(qtbot)
        _every_part_built(window)
        found = controls(window)
        assert len(found) > 75  # the whole window, every view built (82 at the time of writing)
        assert unnamed(window) == []
        plots = window.findChildren(pg.PlotWidget)  # those shown only when they apply too (roofline, energy, ...)
        assert len(plots) == 11 and all(accessible_text(plot).strip() for plot in plots)
        if language == i18n.CHINESE:
            assert window.lossPlot.accessibleName() == "损失图"
    finally:
        i18n.install(i18n.ENGLISH)


def test_every_plot_says_what_it_shows_and_the_loss_plot_follows_the_run(qtbot):
    from PySide6.QtGui import QAccessible

    window = open_window(qtbot)
    _every_part_built(window)
    plots = window.findChildren(pg.PlotWidget)
    described = {plot.objectName(): accessible_text(plot, QAccessible.Text.Description) for plot in plots}
    assert all(described.values()), described
    assert described["lossPlot"] == "No run yet: press Start training to see the loss fall."
    window.epochsSpin.setValue(150)
    run_to_end(qtbot, window)
    words = window.lossPlot.accessibleDescription()
    assert words.startswith("Run 1 on cpu: loss ") and "at epoch 150 of 150, falling." in words, words
    assert "run 1's model after 150 epochs" in window.fitPlot.accessibleDescription()


def test_a_runs_start_end_and_a_lessons_step_are_announced(qtbot):
    window = open_window(qtbot)
    spoken.announced.clear()
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    assert spoken.announced[0].startswith("Preparing the run on cpu")
    assert spoken.announced[-1].startswith("Completed: 20 epochs on cpu")
    window.actions.lesson.trigger()
    window.lessonPanel.nextButton.click()
    assert spoken.announced[-1].startswith("Step 2 of ")
    window.lessonPanel.leaveButton.click()


def test_tab_reaches_every_control_shown_in_the_order_the_eye_reads(qtbot):
    window = open_window(qtbot)
    _every_part_built(window)
    for index in range(window.viewTabs.count()):
        window.viewTabs.setCurrentIndex(index)
        QApplication.processEvents()
        shown = [w for w in controls(window) if w.isVisible() and w.isEnabled() and w.objectName()[:3] != "qt_"]
        chain, widget = [], window.trainingPanel.problemCombo
        for _ in range(2000):  # Tab, as far as it goes
            chain.append(widget)
            widget = widget.nextInFocusChain()
            if widget is window.trainingPanel.problemCombo:
                break
        reached = {w for w in chain if w.focusPolicy().value & 0x1 and w.isVisible() and w.isEnabled()}
        missed = [f"{type(w).__name__} {w.objectName()}" for w in shown if w not in reached]
        assert missed == [], (window.viewTabs.tabText(index), missed)
    order = [w.objectName() for w in chain if w.objectName() in ("problemCombo", "epochsSpin", "startButton")]
    assert order == ["problemCombo", "epochsSpin", "startButton"]  # the form from its top, then its buttons


@pytest.mark.parametrize("choice", [theme.LIGHT_KEY, theme.DARK_KEY])
def test_every_text_and_every_runs_colour_reads_at_aa_contrast_in_both_themes(qtbot, choice):
    window = open_window(qtbot)
    window.set_theme(choice)
    try:
        palette = QApplication.instance().palette()
        pairs = {
            "window text": (QPalette.ColorRole.WindowText, QPalette.ColorRole.Window),
            "text in a field": (QPalette.ColorRole.Text, QPalette.ColorRole.Base),
            "button text": (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Button),
            "selected text": (QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight),
            "a tooltip": (QPalette.ColorRole.ToolTipText, QPalette.ColorRole.ToolTipBase),
        }
        ratios = {name: contrast(palette.color(fg), palette.color(bg)) for name, (fg, bg) in pairs.items()}
        inactive = palette.color(QPalette.ColorGroup.Inactive, QPalette.ColorRole.Highlight)
        ratios["selected text, window inactive"] = contrast(palette.color(QPalette.ColorRole.HighlightedText), inactive)
        current = theme.current()
        plot = QColor(current.background)
        ratios["a plot's text"] = contrast(QColor(current.text), plot)
        ratios.update({f"run colour {i + 1}": contrast(QColor(c), plot) for i, c in enumerate(current.runs)})
        sheet = style.DARK_COLOURS if current.dark else style.LIGHT_COLOURS
        ratios["an error"] = contrast(QColor(sheet["error"]), palette.color(QPalette.ColorRole.Window))
        ratios["a device note"] = contrast(QColor(sheet["note_text"]), QColor(sheet["note_bg"]))
        from gpudemo.ui.views.digits_view import wrong_colour

        ratios["a digit read wrong"] = contrast(QColor(wrong_colour()), palette.color(QPalette.ColorRole.Window))
        low = {name: round(ratio, 2) for name, ratio in ratios.items() if ratio < 4.5}
        assert low == {}, low
    finally:
        window.set_theme(theme.LIGHT_KEY)


def test_a_theme_change_recolours_the_runs_already_drawn(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    before = {item.opts["pen"].color().name() for item in window.lossPlot.getPlotItem().listDataItems()}
    assert theme.LIGHT_RUNS[0] in before
    window.set_theme(theme.DARK_KEY)
    try:
        colours = {item.opts["pen"].color().name() for item in window.lossPlot.getPlotItem().listDataItems()}
        assert theme.DARK_RUNS[0] in colours and theme.LIGHT_RUNS[0] not in colours, colours
    finally:
        window.set_theme(theme.LIGHT_KEY)


def test_on_system_the_window_follows_the_systems_scheme_and_contrast_as_they_change(qtbot, monkeypatch):
    from PySide6.QtCore import Qt

    window = open_window(qtbot)
    window.set_theme(theme.SYSTEM)
    try:
        monkeypatch.setattr(theme, "system_is_dark", lambda app: True)
        QApplication.instance().styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert theme.current().dark and window.actions.theme_system.isChecked()
        monkeypatch.setattr(theme, "high_contrast", lambda app: True)
        window.actions.system_theme_changed()  # what the contrast preference's signal calls
        assert theme.current().text == "#ffffff" and theme.current().background == "#000000"
        window.set_theme(theme.LIGHT_KEY)  # a theme of the person's choice: the system is not followed
        QApplication.instance().styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert not theme.current().dark
    finally:
        window.set_theme(theme.LIGHT_KEY)
