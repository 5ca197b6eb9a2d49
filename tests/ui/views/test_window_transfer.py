"""The Moving data tab: without a GPU it says why there is nothing to move; with copies, it draws them."""

from gpudemo.core.measure import transfer
from gpudemo.core.measure.transfer import (
    DEVICE_TO_HOST,
    HOST_TO_DEVICE,
    TransferResult,
    TransferRow,
)
from tests.ui.windows import open_window


def test_without_a_gpu_the_tab_says_there_is_nothing_to_move(qtbot):
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=30_000):
        window.transferButton.click()
    assert window.viewTabs.currentWidget() is window.transferView
    assert "Nothing to move" in window.transferView.note.text()


def test_copies_are_drawn_as_they_come_and_explained(qtbot, monkeypatch):
    rows = [
        TransferRow(direction, pinned, size, size / (10e9 if pinned else 5e9) + 5e-6)
        for size in (1024, 1024**2, 1024**3)
        for direction in (HOST_TO_DEVICE, DEVICE_TO_HOST)
        for pinned in (False, True)
    ]

    def fake(device, max_bytes, should_stop, on_row):
        for row in rows:
            on_row(row)
        return TransferResult(device, rows)

    monkeypatch.setattr(transfer, "measure_transfers", fake)
    monkeypatch.setattr("gpudemo.ui.jobs.measurement_jobs.measure_transfers", fake)
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=30_000):
        window.transferButton.click()
    x, y = window.transferView._curves[(HOST_TO_DEVICE, True)].getOriginalDataset()
    assert list(x) == [1024, 1024**2, 1024**3] and y[-1] > 40 * y[0]
    note = window.transferView.note.text()
    assert "5.1 µs" in note and "GB/s" in note


def test_the_overlap_sentence_names_what_hid_behind_what(qtbot):
    from gpudemo.core.measure.transfer import Overlap

    window = open_window(qtbot)
    rows = [TransferRow(HOST_TO_DEVICE, True, 1024, 1e-5), TransferRow(HOST_TO_DEVICE, True, 1024**2, 1e-4)]
    window.transferView.end(TransferResult("cuda:0", rows, Overlap(1 << 26, 2e-3, 0.35e-3, 2.35e-3, 2e-3)))
    assert "100% of the compute hid behind a longer copy" in window.transferView.note.text()
    window.transferView.end(TransferResult("cuda:0", rows, Overlap(1 << 26, 2e-3, 2.2e-3, 4.2e-3, 3e-3)))
    assert "60% of a copy hid behind compute" in window.transferView.note.text()


def test_a_measurement_shown_comes_back_in_the_window_rebuilt_in_another_language(qtbot, monkeypatch):
    # The session keeps each view's latest measurement (core/session/measured.py): the window rebuilt in
    # Chinese shows the copies again, and the sweep's rows (Moving data and Data parallel were left empty by
    # the recorded calls this replaced, which covered Compare, Sweep and Profile only).
    from gpudemo.core.measure.requests import SweepRequest
    from gpudemo.ui.base import i18n

    rows = [TransferRow(HOST_TO_DEVICE, True, size, size / 10e9 + 5e-6) for size in (1024, 1024**2)]

    def fake(device, max_bytes, should_stop, on_row):
        for row in rows:
            on_row(row)
        return TransferResult(device, rows)

    monkeypatch.setattr("gpudemo.ui.jobs.measurement_jobs.measure_transfers", fake)
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=30_000):
        window.transferButton.click()
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.measurements.start_sweep(SweepRequest(sizes=(10, 100)))
    try:
        new = window.set_language(i18n.CHINESE)
        qtbot.addWidget(new, before_close_func=lambda w: w.close())
        x, _y = new.transferView._curves[(HOST_TO_DEVICE, True)].getOriginalDataset()
        assert list(x) == [1024, 1024**2] and "µs" in new.transferView.note.text()
        assert {device: sizes for device, (_curve, sizes, _rates) in new.sweepView._series.items()} == {
            "cpu": [10, 100]
        }
        assert new.sweepView.summary.text() and new.sweepView.summary.text() != window.sweepView.summary.text()
    finally:
        i18n.install(i18n.ENGLISH)
