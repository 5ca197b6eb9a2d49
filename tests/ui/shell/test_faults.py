"""Faults, simulated where there is no GPU: a device that fails mid-run, out of memory, a driver that
breaks while the devices are read, a bug in a slot or a thread. Each ends what it hit with a clear
message, keeps what was done, logs the details, and leaves the window usable."""

import csv
import logging
import threading

import pytest
import torch
from PySide6.QtCore import QTimer

from gpudemo import logfile
from gpudemo.core import training
from gpudemo.core.hardware.devices import list_devices
from gpudemo.ui.shell.faults import FaultReporter
from tests.ui.windows import open_window, run_to_end


@pytest.fixture
def log_file(tmp_path, monkeypatch):
    """The app's log file, in a folder of the test's own."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = logfile.start_logging()
    yield path
    logger = logging.getLogger(logfile.LOGGER)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()


def fail_at_epoch(monkeypatch, count, error):
    original = training.PreparedRun.epoch
    calls = []

    def epoch(self):
        calls.append(1)
        if len(calls) == count:
            raise error
        return original(self)

    monkeypatch.setattr(training.PreparedRun, "epoch", epoch)


@pytest.mark.parametrize(
    "error, said",
    [
        (
            RuntimeError("CUDA error: an illegal memory access was encountered"),
            "Training failed: training on cpu failed after 49 epochs: CUDA error: an illegal memory access was"
            " encountered",
        ),
        (
            torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"),
            "Training failed: cpu ran out of memory after 49 epochs; what the run held is freed.",
        ),
    ],
)
def test_a_device_that_fails_mid_run_ends_that_run_keeps_its_losses_and_the_next_run_works(
    qtbot, window, monkeypatch, tmp_path, error, said
):
    fail_at_epoch(monkeypatch, 50, error)
    window.epochsSpin.setValue(1000)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith(said) and window.statusLabel.property("error") is True
    failed = window.session.runs[0]
    assert failed.status == "failed" and failed.count == 49
    assert (
        window.runsTable.item(0, 7).text() == "failed"
        and said.split(": ", 1)[1][:30] in window.runsTable.item(0, 7).toolTip()
    )
    assert len(window.lossView.front(failed).xData) == 49  # the plot keeps what was done
    out = tmp_path / "losses.csv"
    assert window.files.export_losses(str(out))
    assert len(list(csv.reader(out.read_text().splitlines()))) == 1 + 49  # and so does the export
    monkeypatch.undo()
    window.epochsSpin.setValue(100)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed") and window.session.runs[-1].count == 100


def test_a_device_that_fails_while_the_run_is_prepared_says_so(qtbot, window, monkeypatch):
    fail_at_epoch(monkeypatch, 1, RuntimeError("CUDA error: unspecified launch failure"))
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith(
        "Training failed: training on cpu failed after 0 epochs"
    ) or window.statusLabel.text().startswith("Training failed: could not prepare cpu")
    assert window.startButton.isEnabled()


def test_a_bug_in_the_training_thread_is_shown_and_logged_with_its_traceback(qtbot, window, monkeypatch, log_file):
    fail_at_epoch(monkeypatch, 10, ZeroDivisionError("a bug"))
    run_to_end(qtbot, window)
    assert window.statusLabel.text() == "Training failed: unexpected error: ZeroDivisionError('a bug')"
    text = log_file.read_text()
    assert "Traceback" in text and "ZeroDivisionError: a bug" in text and "gpudemo-training failed" in text


@pytest.mark.parametrize("broken", ["is_available", "device_count", "get_device_properties"])
def test_a_driver_that_breaks_while_the_devices_are_read_leaves_the_cpu_and_a_note(qtbot, monkeypatch, broken):
    monkeypatch.setattr(torch.version, "cuda", "12.8")

    def fail(*args, **kwargs):
        raise RuntimeError("CUDA driver initialization failed, you might not have a CUDA gpu.")

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, broken, fail)
    found = list_devices()
    assert found.ids == ("cpu",) and "CUDA" in str(found.note) or "could not be read" in str(found.note)
    monkeypatch.undo()
    window = open_window(qtbot, devices=found)
    assert window.devicePanel.note.isVisibleTo(window) and window.devicePanel.note.text() == str(found.note)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")


def test_a_memory_reading_that_fails_during_a_run_only_blanks_the_memory_line(qtbot, window, monkeypatch):
    from gpudemo.core.hardware import devices

    def fail(device):
        raise RuntimeError("CUDA error: device lost")

    monkeypatch.setattr(devices, "read_memory", fail)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")
    assert not window.devicePanel.memoryLabel.isVisibleTo(window)


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_shown_and_logged_and_the_window_goes_on(qtbot, window, log_file):
    reporter = FaultReporter()
    reporter.reported.connect(window.show_fault)
    reporter.install()
    try:

        def broken_slot():
            raise KeyError("a bug in a slot")

        QTimer.singleShot(0, broken_slot)
        qtbot.waitUntil(lambda: "Something went wrong" in window.statusLabel.text(), timeout=10_000)
        thread = threading.Thread(target=lambda: 1 / 0, name="a-broken-thread")
        thread.start()
        thread.join()
        qtbot.waitUntil(lambda: "ZeroDivisionError" in window.statusLabel.text(), timeout=10_000)
    finally:
        reporter.uninstall()
    assert str(log_file) in window.statusLabel.text()
    text = log_file.read_text()
    assert "KeyError: 'a bug in a slot'" in text and "a-broken-thread" in text and text.count("Traceback") == 2
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")


def test_the_log_file_rotates_and_about_names_it(qtbot, window, log_file):
    from gpudemo.ui.shell.dialogs import versions

    assert f"log file {log_file}" in versions()
    logger = logging.getLogger("gpudemo.test")
    for _ in range(3000):
        logger.error("x" * 1000)
    files = sorted(log_file.parent.glob("gpudemo.log*"))
    assert len(files) == 1 + logfile.BACKUPS
    assert all(path.stat().st_size <= logfile.MAX_BYTES + 2000 for path in files)


def test_the_app_logs_an_uncaught_exception_and_tells_it_in_the_window(tmp_path):
    """The real start-up (build_app): its log file in the state directory, its hook on exceptions."""
    import os
    import subprocess
    import sys

    script = (
        "from PySide6.QtCore import QTimer\n"
        "from gpudemo.ui.app import build_app\n"
        "app, shown = build_app([])\n"
        "def broken(): raise LookupError('from a slot')\n"
        "QTimer.singleShot(0, broken)\n"
        "shown.faults.reported.connect(app.quit)\n"  # the condition: the fault was told
        "QTimer.singleShot(60_000, app.quit)\n"  # a deadline only
        "app.exec()\n"
        "print(shown.window.statusLabel.text())\n"
    )
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "LANG": "en_US.UTF-8",
    }
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    log = tmp_path / "state" / "gpudemo" / "gpudemo.log"
    assert done.stdout.strip() == (
        f"Something went wrong: LookupError: from a slot. The details are in {log}; the window goes on."
    )
    assert "LookupError: from a slot" in log.read_text() and "Traceback" in log.read_text()
