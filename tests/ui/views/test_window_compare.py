"""Compare, the sweep and the memory line in the window (the CPU here; a fake device list for GPUs)."""

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QTableWidget

from gpudemo.core.measure.requests import SweepRequest
from gpudemo.core.measure.sweep import SweepResult, SweepRow
from tests.ui.windows import TWO_GPUS, open_window


def table_rows(table: QTableWidget) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def curves(plot: pg.PlotWidget) -> list[pg.PlotDataItem]:
    return [item for item in plot.getPlotItem().listDataItems() if item.xData is not None and len(item.xData)]


def test_compare_on_the_cpu_fills_the_plot_and_the_table(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(500)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.compareButton.click()
        assert not window.startButton.isEnabled() and not window.sweepButton.isEnabled()
    assert window.viewTabs.currentWidget() is window.compareView
    (row,) = table_rows(window.compareTable)
    assert row[0] == "cpu" and row[1] == "completed" and row[5] == "1.00×"
    assert len(curves(window.comparePlot)) == 1
    assert window.statusLabel.text().startswith("Compared: the CPU alone")
    assert window.startButton.isEnabled() and window.compareButton.isEnabled()


def test_compare_names_devices_that_fail_and_the_window_goes_on(qtbot):
    window = open_window(qtbot, TWO_GPUS)  # listed, but torch here has no CUDA: both fail
    window.epochsSpin.setValue(200)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.compareButton.click()
    rows = table_rows(window.compareTable)
    assert [r[0] for r in rows] == ["cuda:0", "cuda:1", "cpu"]
    assert [r[1] for r in rows] == ["failed", "failed", "completed"]
    assert window.compareTable.item(0, 1).toolTip()  # the reason, on hover
    assert "Failed on cuda:0, cuda:1" in window.statusLabel.text()
    assert window.statusLabel.property("error") is True
    window.deviceList.setCurrentIndex(window.deviceList.model().index(2, 0))


def test_stop_cancels_a_comparison(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.compareButton.click()
    qtbot.waitUntil(lambda: window.progressBar.value() > 0, timeout=60_000)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert table_rows(window.compareTable)[0][1] == "stopped"
    assert not window.is_busy()


def test_the_sweep_draws_throughput_by_size_and_says_there_is_no_gpu(qtbot):
    window = open_window(qtbot)
    window.sweepView.kindCombo.setCurrentIndex(window.sweepView.kindCombo.findData("matmul"))
    with qtbot.waitSignal(window.runFinished, timeout=180_000):
        window.sweepButton.click()
    assert window.viewTabs.currentWidget() is window.sweepView
    (series,) = curves(window.sweepPlot)
    assert list(series.xData[:3]) == [16, 32, 64]
    assert "Only the CPU was measured" in window.sweepView.summary.text()
    assert window.statusLabel.text().startswith("Sweep done")


def test_stop_ends_a_sweep(qtbot):
    window = open_window(qtbot)
    window.sweepButton.click()
    qtbot.waitUntil(lambda: len(curves(window.sweepPlot)) == 1, timeout=60_000)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.stopButton.click()
    assert "Stopped before the end" in window.sweepView.summary.text()


def test_the_crossover_is_marked_and_labelled(qtbot):
    window = open_window(qtbot)
    view = window.sweepView
    view.begin(SweepRequest())
    rows = [
        SweepRow("cuda:0", 100, 5e-5, 2e6),
        SweepRow("cpu", 100, 2e-5, 5e6),
        SweepRow("cuda:0", 1000, 5e-5, 2e7),
        SweepRow("cpu", 1000, 9e-5, 1.1e7),
    ]
    for row in rows:
        view.add(row)
    view.end(SweepResult("step", "float32", rows), "eager")
    marks = [item for item in view.plot.getPlotItem().items if isinstance(item, pg.InfiniteLine)]
    assert len(marks) == 1 and marks[0].value() == pytest.approx(3.0)  # log10(1000)
    assert marks[0].label.format == "cuda:0 wins from 1,000"
    assert "cuda:0 beats the CPU from 1,000 on." in view.summary.text()


def test_the_memory_line_follows_a_run(qtbot):
    window = open_window(qtbot)
    label = window.devicePanel.memoryLabel
    assert not label.isVisibleTo(window)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    qtbot.waitUntil(lambda: label.isVisibleTo(window) and "this process holds" in label.text(), timeout=60_000)
    assert label.text().startswith("Memory now · cpu:") and ("MiB" in label.text() or "GiB" in label.text())
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert label.text().startswith("Memory after the run")


def test_the_roofline_draws_each_size_under_the_devices_roofs(qtbot, monkeypatch):
    import dataclasses

    from gpudemo.core.measure import sweep as core_sweep
    from gpudemo.ui.jobs import measurement_jobs

    def to_1000(request, *args):  # 10 to 1,000
        return core_sweep.sweep(dataclasses.replace(request, max_size=1000), *args)

    monkeypatch.setattr(measurement_jobs, "sweep", to_1000)
    window = open_window(qtbot)
    assert not window.rooflinePlot.isVisible()
    window.sweepView.rooflineCheck.setChecked(True)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.sweepButton.click()
        assert not window.sweepView.rooflineCheck.isEnabled()
    assert window.sweepView.rooflineCheck.isEnabled()
    qtbot.waitUntil(window.rooflinePlot.isVisible)
    assert window.rooflinePlot.width() >= window.sweepPlot.width() // 2  # beside the sweep, not squeezed
    roof, points = [item for item in window.rooflinePlot.getPlotItem().listDataItems()]
    assert len(points.xData) == 3 and all(0.1 < x < 0.2 for x in points.xData)  # the line: ~0.17 FLOP per byte
    assert roof.yData[1] == roof.yData[2] and roof.yData[0] < roof.yData[1]  # the slanted roof meets the flat one
    text = window.sweepView.summary.text()
    assert "Roofline of cpu (measured here)" in text and "At 1,000 this step does 0.17 per byte" in text
    window.sweepView.begin(SweepRequest())
    assert not window.rooflinePlot.isVisible()


def test_compare_runs_fp32_and_bf16_side_by_side(qtbot):
    window = open_window(qtbot)
    window.problemCombo.setCurrentIndex(window.problemCombo.findData("line"))  # the tutorial's loss reaches 0 in bf16
    window.samplesSpin.setValue(1000)
    window.epochsSpin.setValue(200)
    window.precisionCombo.setCurrentIndex(window.precisionCombo.findData("bf16"))
    combo = window.compareView.precisionsCombo  # the view is built when first asked for
    combo.setCurrentIndex(combo.findData("beside-fp32"))
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.compareButton.click()
        assert not combo.isEnabled()
    rows = [window.compareTable.item(row, 0).text() for row in range(window.compareTable.rowCount())]
    assert rows == ["cpu", "cpu · bf16"]
    assert [curve.name() for curve in curves(window.comparePlot)] == ["cpu", "cpu · bf16"]
    losses = [float(window.compareTable.item(row, 4).text()) for row in range(2)]
    assert losses[1] == pytest.approx(losses[0], rel=0.05)  # the line's noise, in either precision
    assert combo.isEnabled()
