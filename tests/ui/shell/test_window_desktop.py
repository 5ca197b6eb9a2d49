"""The window as a desktop app: actions and menus, any screen, export, models in files, remembered settings."""

import csv
import os

import pytest
import torch
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtGui import QGuiApplication, QImage, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QTextBrowser

from gpudemo.core.training.prediction import predict
from gpudemo.ui import MainWindow
from gpudemo.ui.shell.actions import (
    IDLE,
    MEASURING,
    PAUSED,
    TRAINING,
    State,
    tooltip,
    update_actions,
)
from gpudemo.ui.shell.menus import fit_to_screen
from gpudemo.ui.shell.preferences import Preferences
from tests.ui.windows import CPU_ONLY, SCALED_150, open_window, run_to_end


def choose(combo, key):
    combo.setCurrentIndex(combo.findData(key))


def test_one_function_sets_every_actions_state_without_a_thread(qtbot):
    window = open_window(qtbot)
    actions = window.actions
    update_actions(actions, State(IDLE))
    assert actions.start.isEnabled() and not actions.stop.isEnabled() and not actions.pause.isEnabled()
    assert not actions.save_model.isEnabled() and not actions.export_losses.isEnabled()
    update_actions(actions, State(TRAINING, has_runs=True))
    assert not actions.start.isEnabled() and actions.stop.isEnabled() and actions.pause.isEnabled()
    assert not actions.step.isEnabled() and not actions.load_model.isEnabled() and actions.export_losses.isEnabled()
    assert window.startButton.isEnabled() is False and window.stopButton.isEnabled()  # the buttons follow
    update_actions(actions, State(PAUSED, has_model=True, has_runs=True, held=True))
    assert actions.step.isEnabled() and actions.save_model.isEnabled()
    assert window.pauseButton.text() == "Resume" and window.stepButton.isEnabled()
    update_actions(actions, State(MEASURING))
    assert not actions.pause.isEnabled() and actions.stop.isEnabled() and not actions.sweep.isEnabled()
    assert not window.sweepButton.isEnabled() and not window.profileButton.isEnabled()


def test_menus_hold_every_command_with_its_shortcut_also_in_the_tooltips(qtbot):
    window = open_window(qtbot)
    menus = {action.text().replace("&", ""): action.menu() for action in window.menuBar().actions()}
    assert {"File", "Run", "View", "Help"} <= set(menus)
    actions = window.actions
    expected = {
        actions.start: "Ctrl+Return",
        actions.stop: "Esc",
        actions.pause: "Space",
        actions.export_losses: "Ctrl+E",
        actions.quit: "Ctrl+Q",
        actions.help: "F1",
    }
    for action, keys in expected.items():
        assert action.shortcut().toString(QKeySequence.SequenceFormat.PortableText) == keys
    assert window.startButton.toolTip() == tooltip(actions.start) and "Ctrl+Return" in window.startButton.toolTip()
    run_menu = [action.text() for action in menus["Run"].actions() if action.text()]
    assert [text.replace("&", "") for text in run_menu] == [
        "Start training",
        "Stop",
        "Pause",
        "Step one epoch",
        "Compare every device",
        "Sweep every device",
        "Data parallel",
        "Time moving data",
        "Profile a step",
    ]
    window.tabActions[1].trigger()
    assert window.viewTabs.currentWidget() is window.landscapeView


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1366, 768), SCALED_150], ids="{0[0]}x{0[1]}".format)
def test_every_view_is_reachable_on_a_small_screen(qtbot, size, app_font):
    # From 1024 x 768 up every view is whole with no scroll bar around the window's body; below it (150 % on
    # a 1366 x 768 laptop) the body scrolls, and each view shown is scrolled to whole.
    window = open_window(qtbot)
    fit_to_screen(window, QRect(0, 0, *size))
    hint = window.minimumSizeHint()
    assert window.width() <= size[0] and window.height() <= size[1]
    assert hint.width() <= size[0] and hint.height() <= size[1]
    body = window.centralWidget()
    for index in range(window.viewTabs.count()):
        window.viewTabs.setCurrentIndex(index)
        page = window.viewTabs.currentWidget()
        assert page.isVisible() and page.width() > 300 and page.height() > 200
        QApplication.processEvents()
        body.ensureWidgetVisible(page, 0, 0)
        QApplication.processEvents()
        seen = body.viewport().rect()
        corner = page.mapTo(body.viewport(), QPoint(0, 0))
        if size == SCALED_150:  # as much of the view as the viewport holds, from its top left corner (a view
            assert seen.adjusted(-4, -4, 0, 0).contains(corner), (index, corner, seen)  # taller: its frame's px)
        else:
            assert seen.contains(QRect(corner, page.size())), (index, corner, page.size(), seen)
    QApplication.processEvents()
    hint = window.minimumSizeHint()  # every view built now (six are built when first shown)
    assert window.width() <= size[0] and window.height() <= size[1]
    assert hint.width() <= size[0] and hint.height() <= size[1]
    scrolls = body.horizontalScrollBar().isVisible() or body.verticalScrollBar().isVisible()
    assert scrolls == (size == SCALED_150), size
    toggle = window.codePanel.toggleViewAction()
    assert not window.codePanel.isVisible() and not toggle.isChecked()  # narrow: the Code panel starts closed
    toggle.trigger()  # View → Code panel
    assert window.codePanel.isVisible()


def test_the_window_is_drawn_at_the_scale_qt_is_given(qtbot):
    # test_scaled_screen.py runs the walks above at QT_SCALE_FACTOR=1.5: they lay out in logical pixels,
    # each 1.5 device pixels there (and 1 here).
    window = open_window(qtbot)
    assert window.devicePixelRatioF() == float(os.environ.get("QT_SCALE_FACTOR", "1"))


@pytest.mark.parametrize("size", [(1024, 768), (1366, 768)])
def test_every_view_is_named_in_full_and_no_row_of_tabs_scrolls(qtbot, size, app_font):
    # Three places (Train, Look inside, Measure), each a short row of its views: with each view shown in
    # turn, every place's name and every view's name fits whole, and no tab bar shows its scroll arrows.
    from PySide6.QtWidgets import QTabBar, QToolButton

    window = open_window(qtbot)
    fit_to_screen(window, QRect(0, 0, *size))
    QApplication.processEvents()
    assert window.viewTabs.count() == 7
    seen = set()
    for index in range(window.viewTabs.count()):
        window.viewTabs.setCurrentIndex(index)
        QApplication.processEvents()
        assert window.viewTabs.currentIndex() == index and window.viewTabs.currentWidget().isVisible()
        for bar in window.viewTabs.findChildren(QTabBar):
            if not bar.isVisible():
                continue  # a place of one view shows no row
            assert not any(button.isVisible() for button in bar.findChildren(QToolButton)), bar.parent().objectName()
            for tab in range(bar.count()):
                rect, text = bar.tabRect(tab), bar.tabText(tab)
                assert bar.rect().contains(rect), (size, text)
                assert rect.width() >= bar.fontMetrics().horizontalAdvance(text), (size, text)  # not elided
                seen.add(text)
    titles = {window.viewTabs.tabText(index) for index in range(window.viewTabs.count())}
    assert titles <= seen and {"Train", "Look inside", "Measure"} <= seen


def test_the_view_menu_s_shortcuts_still_name_each_view(qtbot):
    window = open_window(qtbot)
    names = ["trainingView", "landscapeView", "compareView", "sweepView", "profileView", "parallelView",
             "transferView"]  # fmt: skip
    assert [action.shortcut().toString() for action in window.tabActions] == [f"Ctrl+{n}" for n in range(1, 8)]
    shown = []
    window.viewTabs.currentChanged.connect(lambda index: shown.append(index))
    for action, name in zip(reversed(window.tabActions), reversed(names), strict=True):
        action.trigger()
        assert window.viewTabs.currentWidget().objectName() == name
    assert shown == [6, 5, 4, 3, 2, 1, 0]  # one signal per view shown, whichever row moved


def test_losses_export_as_csv_one_row_per_run_and_epoch(qtbot, tmp_path):
    window = open_window(qtbot)
    window.epochsSpin.setValue(30)
    for lr in ("0.1", "0.05"):
        window.lrInput.setText(lr)
        run_to_end(qtbot, window)
    path = tmp_path / "losses.csv"
    assert window.files.export_losses(str(path))
    with path.open() as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 60 and {row["run"] for row in rows} == {"1", "2"}
    first = window.session.runs[0]
    assert [float(row["loss"]) for row in rows if row["run"] == "1"] == first.history.values.tolist()
    assert "Exported 60 losses of 2 runs" in window.statusLabel.text()


def test_plots_export_as_png_and_svg(qtbot, tmp_path):
    window = open_window(qtbot)
    run_to_end(qtbot, window)
    assert window.files.export_plot(window.lossPlot, str(tmp_path / "loss.png"))
    image = QImage(str(tmp_path / "loss.png"))
    assert not image.isNull() and image.width() >= 1200
    assert window.files.export_plot(window.landscapePlot, str(tmp_path / "landscape.svg"))
    assert "<svg" in (tmp_path / "landscape.svg").read_text()
    assert not window.files.export_plot(window.lossPlot, str(tmp_path / "loss.jpg"))
    assert "not loss.jpg" in window.statusLabel.text()


def test_a_model_saved_from_the_window_loads_back_with_its_settings(qtbot, tmp_path):
    window = open_window(qtbot)
    choose(window.problemCombo, "sine")
    window.samplesSpin.setValue(40)
    window.epochsSpin.setValue(7)
    window.lrInput.setText("0.05")
    run_to_end(qtbot, window)
    trained = window.session.current
    path = tmp_path / "sine.pt"
    assert window.files.save_model(str(path))
    choose(window.problemCombo, "tutorial")
    window.lrInput.setText("0.1")
    assert window.files.load_model(str(path))
    loaded = window.session.current
    assert loaded.status == "loaded" and loaded.config == trained.config and loaded.model_epochs == 7
    assert window.trainingPanel.problem() == "sine" and window.lrInput.text() == "0.05"
    assert predict(loaded.model, [0.5]) == predict(trained.model, [0.5])
    window.predictInput.setText("0.5")
    window.predictButton.click()
    assert f"run #{loaded.number}'s model" in window.predictMessage.text()
    assert window.runsTable.item(0, window.runsTable.COLUMNS.index("status")).text() == "loaded"


def test_a_damaged_model_file_is_refused_with_a_reason(qtbot, tmp_path):
    window = open_window(qtbot)
    path = tmp_path / "broken.pt"
    path.write_bytes(b"\x80\x02 not really a checkpoint")
    assert not window.files.load_model(str(path))
    assert window.statusLabel.text().startswith("Not loaded:") and "damaged" in window.statusLabel.text()
    assert window.session.runs == []


def test_settings_are_remembered_between_sessions(qtbot, tmp_path):
    store = QSettings(str(tmp_path / "gpudemo.conf"), QSettings.Format.IniFormat)
    first = open_window(qtbot, preferences=Preferences(store))
    choose(first.problemCombo, "line")
    first.samplesSpin.setValue(1234)
    first.lrInput.setText("0.02")
    first.smoothingSlider.setValue(70)
    first.actions.log_scale.setChecked(True)
    first.energyCheck.setChecked(True)
    first.actions.theme_dark.trigger()
    first.close()
    second = open_window(
        qtbot, preferences=Preferences(QSettings(str(tmp_path / "gpudemo.conf"), QSettings.Format.IniFormat))
    )
    assert second.trainingPanel.problem() == "line" and second.samplesSpin.value() == 1234
    assert second.lrInput.text() == "0.02" and second.smoothingSlider.value() == 70
    assert second.logScaleCheck.isChecked() and second.energyCheck.isChecked()
    assert second.theme_choice == "dark" and second.actions.theme_dark.isChecked()
    second.set_theme("system")


def test_bad_remembered_values_keep_their_defaults_with_a_note(qtbot, tmp_path):
    path = tmp_path / "gpudemo.conf"
    path.write_text("[General]\nversion=1\n[form]\nepochs=-5\nlr=banana\nseed=7\n[view]\nsmoothing=500\n")
    window = open_window(qtbot, preferences=Preferences(QSettings(str(path), QSettings.Format.IniFormat)))
    assert window.epochsSpin.value() == 100 and window.lrInput.text() == "0.1" and window.seedInput.text() == "7"
    assert "epochs, lr, smoothing" in window.statusLabel.text()


def test_help_and_about_open_and_about_copies_the_versions(qtbot):
    window = open_window(qtbot)
    window.actions.help.trigger()
    window.actions.about.trigger()
    dialog = window.aboutDialog
    text = dialog.findChild(QLabel, "aboutVersions").text()
    assert f"torch {torch.__version__}" in text and "PySide6" in text and "Python" in text
    dialog.findChild(QPushButton, "aboutCopyButton").click()
    assert QGuiApplication.clipboard().text() == text
    guide = window.helpDialog.findChild(QTextBrowser, "helpText").toPlainText()
    assert "Start training" in guide and "Learning rate" in guide


def test_the_dark_theme_reaches_the_widgets_and_every_plot(qtbot):
    from PySide6.QtGui import QPalette

    from gpudemo.ui.base import theme

    window = open_window(qtbot)
    run_to_end(qtbot, window)
    window.actions.theme_dark.trigger()
    app = QApplication.instance()
    assert app.palette().color(QPalette.ColorRole.Window).lightness() < 80
    for plot in (window.lossPlot, window.fitPlot, window.landscapePlot, window.comparePlot, window.sweepPlot):
        assert plot.backgroundBrush().color().lightness() < 60
        assert plot.getPlotItem().getAxis("left").textPen().color().lightness() > 180
    assert window.lossView.legend.labelTextColor().lightness() > 180
    assert "#ff7b72" in window.styleSheet()
    window.actions.theme_light.trigger()
    assert window.lossPlot.backgroundBrush().color().lightness() > 240
    assert theme.current() is theme.LIGHT and window.actions.theme_light.isChecked()


@pytest.mark.parametrize("size, beside", [((1024, 768), False), ((1366, 768), True)])
def test_the_lesson_fits_a_small_screen(qtbot, size, beside, app_font):
    from PySide6.QtCore import Qt

    window = open_window(qtbot)
    fit_to_screen(window, QRect(0, 0, *size))
    window.lessonButton.click()
    QApplication.processEvents()
    # Beside the tabs, above the Code panel, where there is room for a dock; else under the tabs, the Code panel
    # beside it: the lesson marks the script's lines at every size.
    area = Qt.DockWidgetArea.RightDockWidgetArea if beside else Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.lessonPanel.isVisible() and window.codePanel.isVisible()
    assert window.dockWidgetArea(window.lessonPanel) == window.dockWidgetArea(window.codePanel) == area
    assert window.codePanel.view.viewport().width() > (250 if beside else 400)  # its marked lines readable
    hint = window.minimumSizeHint()
    assert window.width() <= size[0] and hint.width() <= size[0] and hint.height() <= size[1]
    assert window.viewTabs.currentWidget().height() > 150
    window.lessonPanel.leaveButton.click()
    assert not window.lessonPanel.isVisible() and window.codePanel.isVisible() == beside  # as it was before
    assert window.dockWidgetArea(window.codePanel) == Qt.DockWidgetArea.RightDockWidgetArea


@pytest.mark.linux
def test_an_export_on_a_full_disk_keeps_the_good_pictures_and_says_why(qtbot, small_disk):
    from tests.disks import fill

    window = open_window(qtbot)
    run_to_end(qtbot, window)
    png, svg = small_disk / "good.png", small_disk / "good.svg"
    assert window.files.export_plot(window.lossPlot, str(png)) and window.files.export_plot(window.lossPlot, str(svg))
    before = png.read_bytes(), svg.read_bytes()
    fill(small_disk, leave=8192)
    for path in (png, svg):
        assert not window.files.export_plot(window.lossPlot, str(path))
        assert window.statusLabel.text() == (
            f"Could not write {path}: No space left on device; what was there is as it was."
        )
    assert (png.read_bytes(), svg.read_bytes()) == before and not QImage(str(png)).isNull()


def test_a_plot_with_nothing_drawn_is_not_exported_as_an_empty_picture(qtbot, tmp_path):
    window = open_window(qtbot)
    assert not window.files.export_plot(window.sweepPlot, str(tmp_path / "sweep.png"))
    assert window.statusLabel.text() == "This plot has nothing drawn yet: nothing exported."
    assert not (tmp_path / "sweep.png").exists()


def test_a_hard_linked_picture_is_replaced_and_the_status_says_its_link_keeps_the_old_one(qtbot, tmp_path):
    window = open_window(qtbot)
    run_to_end(qtbot, window)
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    first.write_bytes(b"old")
    os.link(first, second)
    assert window.files.export_plot(window.lossPlot, str(first))
    assert second.read_bytes() == b"old" and not QImage(str(first)).isNull()
    assert window.statusLabel.text() == (
        f"Exported the plot to {first}. {first} had 1 other hard link(s): they keep the old content, and {first} is"
        " now a file of its own"
    )


def test_a_window_saved_on_a_wider_screen_reopens_inside_a_smaller_one(qtbot, tmp_path, monkeypatch):
    from functools import partial

    from gpudemo.ui.shell import menus, preferences

    store = QSettings(str(tmp_path / "gpudemo.conf"), QSettings.Format.IniFormat)
    first = open_window(qtbot, preferences=Preferences(store))
    first.codePanel.setVisible(True)  # a 1366 x 768 laptop where the lesson opened the Code panel
    first.resize(1347, 740)
    first.close()
    projector = QRect(0, 0, 1024, 768)
    monkeypatch.setattr(preferences, "keep_on_screen", partial(menus.keep_on_screen, available=projector))
    second = MainWindow(devices=CPU_ONLY, preferences=Preferences(QSettings(str(tmp_path / "gpudemo.conf"),
                                                                             QSettings.Format.IniFormat)))  # fmt: skip
    qtbot.addWidget(second, before_close_func=lambda w: w.close())
    # It opened 1,350 px wide (the docks' minimum with the Code panel), its right end off the projector.
    assert projector.contains(second.frameGeometry()) and not second.codePanel.isVisibleTo(second)


def test_about_says_the_compile_caches_size_and_clears_it(qtbot, monkeypatch, tmp_path):
    from gpudemo.core.step import compile_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kernels = compile_cache.folder() / "inductor" / "ab"
    kernels.mkdir(parents=True)
    (kernels / "kernel.so").write_bytes(b"k" * 2048)
    window = open_window(qtbot)
    window.actions.about.trigger()
    dialog = window.aboutDialog
    said = dialog.findChild(QLabel, "aboutCompileCache")
    assert "2.0 KiB" in said.text() and str(compile_cache.folder()) in said.text()
    dialog.findChild(QPushButton, "aboutClearCache").click()
    assert not compile_cache.folder().exists() and said.text().startswith("Cleared 2.0 KiB")
    assert not dialog.findChild(QPushButton, "aboutClearCache").isEnabled()
