"""Six views are built when first shown or asked for (views/deferred.py), not before the first paint."""

import pytest
from PySide6.QtCore import QObject, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from gpudemo.ui.shell.menus import fit_to_screen
from gpudemo.ui.views.catalog import DEFERRED, EXPOSED
from tests.ui.windows import every_view, open_window, run_to_end


def test_a_new_window_builds_none_of_them_and_shows_their_tabs(window):
    for name, (_build, widgets) in DEFERRED.items():
        assert window.built_view(name) is None, name
        for widget in (name, *widgets):
            assert window.findChild(QObject, widget) is None, widget
    titles = [window.viewTabs.tabText(index) for index in range(window.viewTabs.count())]
    assert titles == [
        "Training", "Loss landscape", "Compare devices", "GPU vs CPU by size", "Step profile", "Data parallel",
        "Moving data",
    ]  # fmt: skip


def test_showing_a_tab_builds_its_view_whole_and_shown_bound_to_the_windows_actions(qtbot, window):
    window.viewTabs.setCurrentIndex(3)  # GPU vs CPU by size
    view = window.built_view("sweepView")
    assert view is not None and view is window.sweepView and view.isVisible()
    assert [window.built_view(name) is not None for name in DEFERRED] == [False, False, True, False, False, False]
    assert window.viewTabs.currentWidget() is view and window.viewTabs.indexOf(view) == 3
    assert window.sweepPlot.isVisible() and window.sweepPlot is view.findChild(QObject, "sweepPlot")
    action = window.actions.sweep
    assert window.sweepButton.text() == action.text().replace("&", "") and window.sweepButton.isEnabled()
    action.setEnabled(False)  # the button shows its action, as the ones built with the window do
    assert not window.sweepButton.isEnabled()
    action.setEnabled(True)
    background = window.lossPlot.backgroundBrush().color().name()
    assert window.sweepPlot.backgroundBrush().color().name() == background  # in the window's theme


def test_asking_for_one_of_its_widgets_builds_that_view_alone(window):
    plot = window.timelinePlot
    assert plot is not None and plot is window.profileView.timeline.plot
    assert [window.built_view(name) is not None for name in DEFERRED] == [False, False, False, True, False, False]
    assert window.find("transferButton") is window.transferButton  # what a lesson names, found the same way


def test_each_view_holds_the_widgets_it_is_said_to_and_every_exposed_name_is_found(window):
    every_view(window)
    for name, (_build, widgets) in DEFERRED.items():
        view = window.built_view(name)
        assert view is not None and view.objectName() == name
        for widget in widgets:
            assert view.findChild(QObject, widget) is getattr(window, widget), widget
    assert [name for name in EXPOSED if not isinstance(getattr(window, name), QWidget)] == []


def test_a_view_built_while_a_job_goes_holds_its_settings_until_the_job_ends(qtbot, window):
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    qtbot.waitUntil(lambda: window.progressBar.value() > 0, timeout=60_000)
    sweep, compare = window.sweepView, window.compareView  # built now, mid-run
    held = (sweep.kindCombo, sweep.dtypeCombo, sweep.rooflineCheck, sweep.energyCheck, compare.precisionsCombo)
    assert not any(widget.isEnabled() for widget in held)
    assert not window.sweepButton.isEnabled() and not window.compareButton.isEnabled()
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert all(widget.isEnabled() for widget in held) and window.sweepButton.isEnabled()


@pytest.mark.parametrize("size", [(1024, 768), (1800, 950)])
def test_building_every_view_leaves_the_windows_size_as_it_was_and_on_the_screen(qtbot, size, app_font):
    window = open_window(qtbot)
    fit_to_screen(window, QRect(0, 0, *size))
    QApplication.processEvents()
    before = window.size()
    for index in range(window.viewTabs.count()):  # each shown once, as a person clicking through the tabs
        window.viewTabs.setCurrentIndex(index)
        QApplication.processEvents()
    hint = window.minimumSizeHint()
    assert window.size() == before and hint.width() <= size[0] and hint.height() <= size[1]


def test_a_new_language_builds_no_view_the_old_window_had_not(qtbot, window):
    from gpudemo.ui.base import i18n

    window.viewTabs.setCurrentIndex(2)  # Compare devices: built
    try:
        new = window.set_language(i18n.CHINESE)
        qtbot.addWidget(new, before_close_func=lambda w: w.close())
        assert new is not window
        assert [new.built_view(name) is not None for name in DEFERRED] == [False, True, False, False, False, False]
        assert new.viewTabs.currentIndex() == 2
    finally:
        i18n.install(i18n.ENGLISH)


def test_a_landscape_built_after_a_run_draws_the_chosen_runs_surface_and_path(qtbot, window):
    window.epochsSpin.setValue(300)
    run_to_end(qtbot, window)
    run = window.session.current
    assert window.built_view("landscapeView") is None  # the run trained with its tab never shown
    window.viewTabs.setCurrentIndex(1)  # Loss landscape
    view = window.landscapeView
    assert view.isVisible() and view.image.image is not None
    curve = view.path_curve(run)
    assert curve is not None and len(curve.xData) == min(run.count + 1, 4000)
    window.viewTabs.setCurrentIndex(0)
    run_to_end(qtbot, window)  # a run trained while the built landscape is hidden: drawn when shown again
    window.viewTabs.setCurrentIndex(1)
    newest = window.session.current
    curve = view.path_curve(newest)
    assert curve is not None and len(curve.xData) == min(newest.count + 1, 4000)  # every epoch, drawn on show


def focus_chain(window) -> list:
    """The widgets Tab reaches, in order, from the window's first."""
    chain, widget = [], window.nextInFocusChain()
    while widget is not window:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def test_tab_reaches_a_late_built_views_widgets_after_its_row_of_tabs_before_the_code_panel(window):
    """A widget built after the window joins the focus chain at its end (after the docks): the view's widgets
    are moved to where they were when every view was built with the window."""
    for index, (name, place) in enumerate(
        [("landscapeView", "trainPlace"), ("compareView", "measurePlace"), ("sweepView", "measurePlace"),
         ("profileView", "insidePlace"), ("parallelView", "measurePlace"), ("transferView", "insidePlace")],
        start=1,
    ):  # fmt: skip
        window.viewTabs.setCurrentIndex(index)
        view, chain = window.built_view(name), focus_chain(window)
        mine = [at for at, widget in enumerate(chain) if widget is view or view.isAncestorOf(widget)]
        assert mine == list(range(mine[0], mine[-1] + 1)), name  # together
        assert chain.index(window.findChild(QWidget, place)) < mine[0], name
        assert mine[-1] < chain.index(window.findChild(QWidget, "codeKindCombo")), name


def test_a_hidden_landscape_skips_the_runs_frames_and_draws_them_when_shown_not_at_every_tab_change(
    qtbot, window, monkeypatch
):
    run_to_end(qtbot, window)
    window.viewTabs.setCurrentIndex(1)
    view, run = window.landscapeView, window.session.current
    window.viewTabs.setCurrentIndex(0)
    drawn = []
    draw = view._draw_path
    monkeypatch.setattr(view, "_draw_path", lambda r: (drawn.append(r), draw(r)))
    view.refresh(run)  # a frame of the job while the tab is hidden: not drawn
    assert drawn == []
    window.viewTabs.setCurrentIndex(1)  # shown: what was skipped is drawn
    assert drawn == [run]
    window.viewTabs.setCurrentIndex(0)
    window.viewTabs.setCurrentIndex(1)  # nothing skipped meanwhile: nothing drawn again
    assert drawn == [run]
