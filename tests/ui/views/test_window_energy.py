"""Energy in the window: the form's box says whether the chosen device has a counter; a run metered after it
(the Training tab's status line), Compare's J/epoch columns; where there is no counter, the reason."""

from gpudemo.core.measure.requests import SweepRequest
from tests.meters import metered_quickly, without_counters
from tests.ui.views.test_window_compare import table_rows
from tests.ui.windows import open_window, run_to_end


def test_the_energy_box_says_why_the_cpu_cannot_be_metered_here(qtbot, monkeypatch):
    without_counters(monkeypatch)
    window = open_window(qtbot)
    tip = window.energyCheck.toolTip()
    assert "Never estimated" in tip and "Not on the chosen device: the CPU has no energy counter here" in tip
    window.energyCheck.setChecked(True)
    run_to_end(qtbot, window)
    status = window.statusLabel.text()
    assert status.startswith("Completed") and "energy not metered: the CPU has no energy counter here" in status


def test_a_run_is_metered_after_it_completes_and_the_status_line_says_its_joules(qtbot, monkeypatch):
    metered_quickly(monkeypatch)
    window = open_window(qtbot)
    window.energyCheck.setChecked(True)
    said = []
    window.job.phaseChanged.connect(lambda phase: said.append(window.statusLabel.text()))
    run_to_end(qtbot, window)
    assert any(text.startswith("Metering the step's energy on cpu") for text in said)
    status = window.statusLabel.text()
    assert status.startswith("Completed") and " J/epoch, " in status and "above the idle 5 W (fake: the step" in status
    window.energyCheck.setChecked(False)
    run_to_end(qtbot, window)
    assert "J/epoch" not in window.statusLabel.text()  # not asked: nothing metered, no 5 s more


def test_compare_shows_the_joules_columns_only_when_energy_was_asked(qtbot, monkeypatch):
    metered_quickly(monkeypatch)
    window = open_window(qtbot)
    window.epochsSpin.setValue(200)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.compareButton.click()
    assert window.compareTable.isColumnHidden(6) and window.compareTable.isColumnHidden(7)
    window.energyCheck.setChecked(True)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.compareButton.click()
    (row,) = table_rows(window.compareTable)
    assert not window.compareTable.isColumnHidden(6) and float(row[6]) > 0 and row[7] != "-"
    assert "fake: the step" in window.compareTable.item(0, 6).toolTip()


def test_a_sweep_meters_each_size_and_draws_joules_beside_the_speed(qtbot, monkeypatch):
    from tests.ui.views.test_window_compare import curves

    metered_quickly(monkeypatch)
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.measurements.start_sweep(SweepRequest(devices=("cpu",), sizes=(10, 1000), energy=True))
    (joules,) = curves(window.sweepView.energy_plot)
    assert list(joules.xData) == [10, 1000] and all(joules.yData > 0)
    assert window.sweepView.energy_plot.isVisibleTo(window.sweepView)
    assert window.sweepView.energy_plot.width() >= window.sweepPlot.width() // 2  # beside the speed
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.measurements.start_sweep(SweepRequest(devices=("cpu",), sizes=(10,)))
    assert not window.sweepView.energy_plot.isVisibleTo(window.sweepView)  # not asked: not drawn


def test_the_sweep_names_the_energy_crossover_beside_the_time_crossover(qtbot):
    from gpudemo.core.base.messages import Message
    from gpudemo.core.hardware.energy import EnergyPerEpoch
    from gpudemo.core.measure.sweep import SweepResult, SweepRow

    def row(device, size, seconds, joules):
        return SweepRow(
            device, size, seconds, size / seconds, energy=EnergyPerEpoch(device, "fake", joules, 0, 1, 4, 9, 2)
        )

    window = open_window(qtbot)
    view = window.sweepView
    view.begin(SweepRequest())
    rows = [row("cuda:0", 10, 1e-3, 0.1), row("cpu", 10, 1e-5, 0.001), row("cuda:0", 10**6, 2e-3, 0.2)]
    rows.append(row("cpu", 10**6, 1e-1, 5.0))
    for each in rows:
        view.add(each)
    result = SweepResult("step", "float32", rows, metered=True, not_metered={"cuda:1": Message("no counter, say")})
    headline = view.end(result, "eager")
    assert "cuda:0 beats the CPU from 1,000,000 on." in headline
    assert "cuda:0 uses less energy per epoch than the CPU from 1,000,000 on." in headline
    assert "cuda:1's energy not metered: no counter, say." in headline
    assert len(view._energy_marks) == 1
