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
    window.transferView.show_result(TransferResult("cuda:0", rows, Overlap(1 << 26, 2e-3, 0.35e-3, 2.35e-3, 2e-3)))
    assert "100% of the compute hid behind a longer copy" in window.transferView.note.text()
    window.transferView.show_result(TransferResult("cuda:0", rows, Overlap(1 << 26, 2e-3, 2.2e-3, 4.2e-3, 3e-3)))
    assert "60% of a copy hid behind compute" in window.transferView.note.text()
