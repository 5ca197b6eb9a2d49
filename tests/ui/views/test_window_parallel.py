"""The Data parallel tab: the form's run on 1 and 2 CPU worker processes, drawn and tabled; Stop and close end them."""

import os

import pytest
from PySide6.QtWidgets import QApplication

from gpudemo.core.distributed import launcher as parallel
from tests.ui.windows import open_window

# worker processes import torch (seconds each here), on local ports: in the group of the tests that start them
pytestmark = [pytest.mark.slow, pytest.mark.processes]


def started_pids(monkeypatch):
    pids = []
    real = parallel.run_parallel

    def recording(*args, **kwargs):
        return real(*args, **kwargs, on_start=pids.extend)

    monkeypatch.setattr(parallel, "run_parallel", recording)
    return pids


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_tab_runs_one_and_two_workers_and_says_what_they_gained(qtbot, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    window = open_window(qtbot)
    window.epochsSpin.setValue(200)
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.parallelButton.click()
    assert window.viewTabs.currentWidget() is window.parallelView
    table = window.parallelTable
    assert table.rowCount() == 2 and [table.item(r, 0).text() for r in range(2)] == ["1", "2"]
    assert table.item(0, 2).text() == "1.00×" and table.item(1, 3).text().endswith("%")
    x, y = window.parallelView.measured.getData()
    assert list(x) == [1, 2] and all(y > 0)
    ideal_x, ideal_y = window.parallelView.ideal.getData()
    assert ideal_y[1] == pytest.approx(2 * y[0])
    assert "workers" in window.parallelView.note.text() and "Data parallel done" in window.statusLabel.text()
    # the tutorial's 3 samples on 2 workers: one counted twice, said beside the figures
    assert "Note: 3 samples do not split evenly over 2 workers" in window.parallelView.note.text()
    assert window.startButton.isEnabled()


def test_stop_and_close_end_every_worker(qtbot, monkeypatch):
    pids = started_pids(monkeypatch)
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.parallelButton.click()
    qtbot.waitUntil(lambda: len(pids) >= 1, timeout=30_000)
    window.stopButton.click()
    qtbot.waitUntil(lambda: window.startButton.isEnabled(), timeout=30_000)
    assert all(gone(pid) for pid in pids)
    window.parallelButton.click()
    qtbot.waitUntil(lambda: len(pids) >= 2, timeout=30_000)
    window.close()  # waits for the job: its workers go with it
    QApplication.processEvents()
    assert all(gone(pid) for pid in pids)
