"""The window owns every thread: quick starts and stops, double clicks, closing in every state, predicting
during a run. Afterwards no thread or timer is left (conftest checks after every test) and memory does
not grow from run to run."""

import gc

import pytest
import torch

from gpudemo.core.hardware.machine import process_resident_bytes
from tests.conftest import running_qthreads
from tests.ui.windows import open_window, run_to_end


@pytest.mark.slow
def test_start_and_stop_a_hundred_times_in_quick_succession(qtbot, window):
    window.epochsSpin.setValue(10_000_000)
    for _ in range(100):
        with qtbot.waitSignal(window.runFinished, timeout=60_000):
            window.startButton.click()
            window.stopButton.click()
        assert not window.is_busy() and window.startButton.isEnabled()
    # A run stopped before its first epoch is not kept; each kept one ran at least an epoch.
    assert len(window.session.runs) <= window.session.max_runs
    assert {run.status for run in window.session.runs} <= {"stopped", "completed"}
    assert all(run.count > 0 for run in window.session.runs)
    window.epochsSpin.setValue(50)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")


def test_a_double_click_on_start_starts_one_run(qtbot, window):
    window.epochsSpin.setValue(2000)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.startButton.click()
        window.startButton.click()
        window.actions.start.trigger()  # Ctrl+Return as well
    assert len(window.session.runs) == 1


def test_predicting_during_a_run_says_to_wait_or_pause_and_works_when_paused(qtbot, window):
    window.epochsSpin.setValue(10_000_000)
    window.predictInput.setText("4")
    window.startButton.click()
    qtbot.waitUntil(lambda: window.session.current.count > 0, timeout=60_000)
    window.predictButton.click()
    assert "pause it, or wait for it to end" in window.predictMessage.text()
    window.pauseButton.click()
    qtbot.waitUntil(window.is_paused, timeout=60_000)
    window.predictButton.click()
    assert window.predictionTable.rowCount() == 1
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()


def _close_while(qtbot, window, start, condition):
    """Start something, wait until `condition`, close the window: it must close with its thread ended."""
    start()
    qtbot.waitUntil(condition, timeout=60_000)
    window.close()
    assert not window.isVisible() and not window.is_busy()
    assert running_qthreads() == []


def test_closing_while_the_run_is_being_prepared(qtbot, window):
    window.epochsSpin.setValue(10_000_000)
    _close_while(qtbot, window, window.startButton.click, lambda: True)


def test_closing_while_training(qtbot, window):
    window.epochsSpin.setValue(10_000_000)
    _close_while(qtbot, window, window.startButton.click, lambda: window.session.current.count > 0)


def test_closing_while_stopping(qtbot, window):
    window.epochsSpin.setValue(10_000_000)

    def start_and_stop():
        window.startButton.click()
        window.stopButton.click()

    _close_while(qtbot, window, start_and_stop, lambda: True)


def test_closing_while_paused(qtbot, window):
    window.epochsSpin.setValue(10_000_000)

    def start_and_pause():
        window.startButton.click()
        window.pauseButton.click()

    _close_while(qtbot, window, start_and_pause, window.is_paused)


def test_closing_while_comparing(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    _close_while(qtbot, window, window.compareButton.click, lambda: window.progressBar.value() > 0)


def test_closing_while_sweeping(qtbot, window):
    _close_while(qtbot, window, window.sweepButton.click, lambda: window.progressBar.value() > 0)


def test_closing_while_profiling(qtbot, window):
    _close_while(qtbot, window, window.profileButton.click, window.is_busy)


@pytest.mark.slow
def test_memory_does_not_grow_from_run_to_run(qtbot, window):
    """50 runs: past the first ones (torch's lazy set-up, the session filling to its 20 runs) the
    process's memory stays flat. The session keeps 20 runs: what the oldest held goes with them."""
    window.epochsSpin.setValue(200)
    readings = []
    for index in range(50):
        run_to_end(qtbot, window)
        if index in (24, 49):
            gc.collect()
            readings.append(process_resident_bytes())
    assert len(window.session.runs) == 20
    growth = readings[1] - readings[0]
    print(f"resident memory after run 25: {readings[0] / 2**20:.1f} MiB, after run 50: {readings[1] / 2**20:.1f} MiB")
    assert growth < 16 * 2**20, f"memory grew by {growth / 2**20:.1f} MiB over 25 runs"


def test_closing_during_a_compile_hides_the_window_at_once(qtbot, window, monkeypatch):
    # A compile cannot be stopped: the fake one below ends only once it sees the window gone (or after 30 s,
    # which is how long the close would have frozen the window before it hid first).
    import threading
    import time

    from gpudemo.core import training

    compiling, hidden = threading.Event(), threading.Event()

    def slow_compile(run, with_path):
        compiling.set()
        deadline = time.monotonic() + 30
        while not hidden.is_set() and time.monotonic() < deadline:
            hidden.wait(0.01)
        return 0.0

    def watch():  # from another thread: the GUI thread is busy closing
        compiling.wait(60)
        while window.isVisible() and not hidden.is_set():
            time.sleep(0.01)
        hidden.set()

    monkeypatch.setattr(training.PreparedRun, "prepare_step", slow_compile)
    monkeypatch.setattr(torch, "compile", lambda step, **options: step)  # the compiler stays out of this process
    window.stepCombo.setCurrentIndex(window.stepCombo.findData("compiled"))
    window.epochsSpin.setValue(10_000_000)
    watcher = threading.Thread(target=watch)
    watcher.start()
    window.startButton.click()
    qtbot.waitUntil(compiling.is_set, timeout=60_000)
    began = time.monotonic()
    window.close()
    watcher.join(timeout=60)
    assert time.monotonic() - began < 15 and not window.isVisible() and not window.is_busy()
    assert running_qthreads() == []


def test_a_compile_is_said_stop_waits_for_it_in_words_and_a_run_stopped_before_its_first_epoch_is_not_kept(
    qtbot, window, monkeypatch
):
    import threading

    from gpudemo.core import training

    compiling, release = threading.Event(), threading.Event()

    def slow_compile(run, with_path):
        compiling.set()
        release.wait(60)
        return 0.5

    monkeypatch.setattr(training.PreparedRun, "prepare_step", slow_compile)
    monkeypatch.setattr(torch, "compile", lambda step, **options: step)  # the compiler stays out of this process
    window.stepCombo.setCurrentIndex(window.stepCombo.findData("compiled"))
    window.epochsSpin.setValue(1000)
    runs_before = len(window.session.runs)
    window.startButton.click()
    qtbot.waitUntil(lambda: "Compiling the step (torch.compile)" in window.statusLabel.text(), timeout=60_000)
    assert compiling.is_set()
    window.stopButton.click()
    assert window.statusLabel.text() == "Stopping after the compile (torch.compile cannot be interrupted)…"
    release.set()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    assert window.statusLabel.text() == "Stopped before the first epoch: no run to keep."
    assert len(window.session.runs) == runs_before


def test_a_jobs_thread_has_a_main_threads_stack_for_a_compile(qtbot, window):
    """macOS gives a secondary thread 512 KiB (Windows 1 MiB): torch.compile's tracing recurses deep."""
    from gpudemo.core.base.oscalls import THREAD_STACK_BYTES

    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    assert window.job.controller._thread.stackSize() == THREAD_STACK_BYTES == 8 * 2**20
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()


def test_a_job_runs_unthrottled_on_its_thread_and_lets_go_when_it_ends(qtbot, window, monkeypatch):
    """App Nap (macOS) and power throttling (Windows) slow a hidden window's work: each job holds the seam's
    `unthrottled` on its own thread from its start to its end (tests/core/base/test_oscalls.py emulates both)."""
    import threading
    from contextlib import contextmanager

    from gpudemo.core.base import power

    held = []

    @contextmanager
    def unthrottled(reason="gpudemo is training"):
        held.append(("begin", threading.current_thread() is threading.main_thread()))
        yield
        held.append(("end", threading.current_thread() is threading.main_thread()))

    monkeypatch.setattr(power, "unthrottled", unthrottled)
    run_to_end(qtbot, window)
    assert held == [("begin", False), ("end", False)]
