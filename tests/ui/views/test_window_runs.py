"""Many runs in the window: kept curves, the runs table, smoothing, the x axis, clearing."""

import numpy as np
import pytest
from PySide6.QtCore import Qt

from gpudemo.core.session.runs import Session
from gpudemo.ui.views.loss_view import SECONDS, TOP
from gpudemo.ui.views.plot_style import colour
from tests.core.session.test_runs import tensorboard_smoothing
from tests.ui.windows import every_view, open_window, run_to_end


def three_runs(qtbot, window):
    for lr in ("0.1", "0.05", "0.01"):
        window.lrInput.setText(lr)
        run_to_end(qtbot, window)
    return window.session.runs


def cell(window, row, name):
    return window.runsTable.item(row, window.runsTable.COLUMNS.index(name)).text()


@pytest.fixture
def window(window):
    window.epochsSpin.setValue(200)
    return window


def test_each_run_stays_on_the_plot_in_its_own_colour_the_newest_on_top(qtbot, window):
    runs = three_runs(qtbot, window)
    assert [run.number for run in runs] == [1, 2, 3]
    curves = [window.lossView.front(run) for run in runs]
    assert [curve.opts["pen"].color().name() for curve in curves] == [colour(0), colour(1), colour(2)]
    assert [len(curve.yData) for curve in curves] == [200, 200, 200]
    assert curves[0].zValue() < curves[1].zValue() < curves[2].zValue()
    np.testing.assert_array_equal(curves[0].yData, runs[0].history.values)
    labels = [label.text for _, label in window.lossView.legend.items]
    assert labels == [
        "#1 cpu · tutorial · sgd · lr 0.1",
        "#2 cpu · tutorial · sgd · lr 0.05",
        "#3 cpu · tutorial · sgd · lr 0.01",
    ]


def test_a_legend_click_or_the_runs_box_shows_and_hides_a_run(qtbot, window):
    first, _, _ = three_runs(qtbot, window)
    sample = window.lossView.legend.items[0][0]
    sample.item.setVisible(False)  # what a click on the legend's sample does
    assert not window.lossView.front(first).isVisible()
    row = window.runsTable.row_of(first)
    assert window.runsTable.item(row, 0).checkState() == Qt.CheckState.Unchecked
    window.runsTable.item(row, 0).setCheckState(Qt.CheckState.Checked)
    assert window.lossView.front(first).isVisible()


def test_the_runs_table_has_a_row_per_run_and_selecting_one_highlights_it_and_predicts_with_it(qtbot, window):
    window.batchSpin.setValue(2)
    runs = three_runs(qtbot, window)
    table = window.runsTable
    assert table.rowCount() == 3 and table.runs() == runs[::-1]  # the newest at the top
    first = runs[0]
    row = table.row_of(first)
    assert [
        cell(window, row, name)
        for name in ("run", "device", "problem", "optimizer", "lr", "batch", "epochs run", "status")
    ] == ["#1", "cpu", "tutorial", "sgd", "0.1", "2", "200 / 200", "completed"]
    assert cell(window, row, "final loss") == f"{first.final_loss:.6g}"
    assert cell(window, row, "epochs/s") != "-" and cell(window, row, "time") != "-"
    table.selectRow(row)
    assert window.lossView.highlighted() is first
    assert window.lossView.front(first).zValue() >= TOP and window.lossView.front(first).opts["pen"].width() == 2
    window.predictInput.setText("4")
    window.predictButton.click()
    assert "run #1's model" in window.predictMessage.text()
    assert "run #1's model" in window.fitPlot.getPlotItem().titleLabel.text
    table.clearSelection()
    assert window.lossView.highlighted() is None
    window.predictButton.click()
    assert "run #3's model" in window.predictMessage.text()


def test_smoothing_draws_tensorboards_average_over_a_faint_raw_curve(qtbot, window):
    window.batchSpin.setValue(1)  # minibatches of one point: a noisy loss
    run_to_end(qtbot, window)
    run = window.session.current
    raw = run.history.values.copy()
    window.smoothingSlider.setValue(60)
    assert window.trainingView.smoothingValue.text() == "0.60"
    front, faint = window.lossView.front(run), window.lossView.faint(run)
    np.testing.assert_allclose(front.yData, tensorboard_smoothing(raw.tolist(), 0.6), rtol=1e-5)
    np.testing.assert_array_equal(faint.yData, raw)
    assert faint.isVisible() and faint.opts["pen"].color().alpha() < 255
    window.smoothingSlider.setValue(0)
    np.testing.assert_array_equal(front.yData, raw)
    assert not faint.isVisible()


def test_smoothing_follows_a_run_as_it_goes(qtbot, window):
    window.smoothingSlider.setValue(90)
    window.batchSpin.setValue(1)
    run_to_end(qtbot, window)
    run = window.session.current
    np.testing.assert_allclose(
        window.lossView.front(run).yData, tensorboard_smoothing(run.history.values.tolist(), 0.9), rtol=1e-5
    )


def test_the_x_axis_shows_epochs_or_the_seconds_each_run_trained(qtbot, window):
    run_to_end(qtbot, window)
    run = window.session.current
    window.xAxisCombo.setCurrentIndex(window.xAxisCombo.findData(SECONDS))
    x = window.lossView.front(run).xData
    assert len(x) == 200 and (np.diff(x) >= 0).all() and x[-1] == pytest.approx(run.seconds)
    assert "seconds" in window.lossPlot.getPlotItem().getAxis("bottom").labelText
    window.xAxisCombo.setCurrentIndex(0)
    np.testing.assert_array_equal(window.lossView.front(run).xData, np.arange(1, 201))


def test_clear_removes_every_run_but_the_one_going(qtbot, window):
    three_runs(qtbot, window)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    going = window.session.current
    window.clearRunsButton.click()
    assert window.session.runs == [going] and window.runsTable.rowCount() == 1
    assert window.lossView.runs() == [going] and len(window.lossView.legend.items) == 1
    qtbot.waitUntil(lambda: going.count > 0, timeout=60_000)  # a run stopped before its first epoch is not kept
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert cell(window, 0, "status") == "stopped"
    window.clearRunsButton.click()
    assert window.session.runs == [] and window.runsTable.rowCount() == 0
    window.predictButton.click()
    assert "train one first" in window.predictMessage.text()


def test_the_log_axis_after_a_diverged_run_was_cleared_counts_powers_of_ten(qtbot, window):
    window.logScaleCheck.setChecked(False)  # from a linear axis (the default is log)
    window.lrInput.setText("1.5")  # diverges: its last finite losses reach 1e37
    window.epochsSpin.setValue(300)
    run_to_end(qtbot, window)
    view = window.lossView.plot.getViewBox()
    qtbot.waitUntil(lambda: view.viewRange()[1][1] > 1e30)  # auto-ranged as the plot paints
    window.clearRunsButton.click()
    assert view.viewRange()[1] == pytest.approx([-0.02, 1.02])  # the empty plot's range, not the run's
    window.logScaleCheck.setChecked(True)  # the linear range read as exponents overflowed the tick labels
    assert view.viewRange()[1] == pytest.approx([-3.06, 0.06])
    window.logScaleCheck.setChecked(False)
    assert view.viewRange()[1] == pytest.approx([-0.02, 1.02])
    window.lrInput.setText("0.1")
    run_to_end(qtbot, window)  # the runs shown range it again
    window.logScaleCheck.setChecked(True)
    # the tutorial's losses, from about 30 down to 1e-9, in powers of ten (auto-ranged as the plot paints)
    qtbot.waitUntil(lambda: -12 < view.viewRange()[1][0] < -3 and 0 < view.viewRange()[1][1] < 3)


def test_the_window_keeps_at_most_the_sessions_runs_and_says_what_they_hold(qtbot):
    window = open_window(qtbot, session=Session(max_runs=2))
    window.epochsSpin.setValue(50)
    runs = three_runs(qtbot, window)
    assert [run.number for run in runs] == [2, 3] and window.runsTable.rowCount() == 2
    assert len(window.lossView.legend.items) == 2
    text = window.trainingView.runsMemoryLabel.text()
    assert text.startswith("2 runs kept") and "at most 2 runs" in text


def test_a_failed_run_keeps_its_row_and_says_why(qtbot, window, monkeypatch):
    from gpudemo.core import training

    def broken(*args, **kwargs):
        raise RuntimeError("the device fell off the bus")

    monkeypatch.setattr(training.PreparedRun, "epoch", broken)
    run_to_end(qtbot, window)
    status = window.runsTable.item(0, window.runsTable.COLUMNS.index("status"))
    assert status.text() == "failed" and "fell off the bus" in status.toolTip()


def test_a_rate_taken_on_a_busy_machine_is_marked_and_shown_whole(qtbot, window, monkeypatch):
    from gpudemo.core import training

    class Busy:  # OtherLoad as on a machine where another process held a core all along
        busy, cores = True, 1.0

        def __init__(self, threads=None):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    monkeypatch.setattr(training.loop, "OtherLoad", Busy)
    window.epochsSpin.setValue(50)
    run_to_end(qtbot, window)
    label = window.rateLabel
    assert (
        "(other programs held the cores: this rate is too low)" in label.text()
        and "close them and train again" in label.toolTip()
    )
    # The whole text, not cut: on one line where it fits half as much again as the running rate, else on two
    # (on one, a compile's seconds widened the window past a 1024-px screen).
    qtbot.waitUntil(  # the row takes the label's second line with the next layout pass
        lambda: (
            label.width() >= label.fontMetrics().horizontalAdvance(label.text())
            or (label.wordWrap() and label.height() >= label.heightForWidth(label.width()))
        )
    )
    assert label.width() <= window.runStatus._rate_width * 3 // 2


def test_a_negative_intercept_reads_as_a_subtraction(qtbot, window):
    window.epochsSpin.setValue(100)  # the tutorial's: b ends a little below 0
    run_to_end(qtbot, window)
    text = window.resultLabel.text()
    assert "learned  y = " in text and "+ -" not in text
    assert (" − " in text) == (window.session.current.result.parameters["bias"] < 0)


def test_no_plot_has_pyqtgraphs_context_menu(window):
    """The window's commands export and scale the plots; pyqtgraph's own menus (built or not) never show."""
    import pyqtgraph as pg

    every_view(window)
    plots = window.findChildren(pg.PlotWidget)
    assert len(plots) >= 10
    for widget in plots:
        item = widget.getPlotItem()
        assert not item.menuEnabled() and item.getViewBox().menu is None, widget.objectName()
