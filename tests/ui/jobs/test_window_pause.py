"""Pause, resume and step in the window."""

import numpy as np

from gpudemo.ui.base.i18n import epochs_text
from tests.ui.windows import first_curve, open_window, run_to_end


def pause_and_wait(qtbot, window):
    with qtbot.waitSignal(window.job.pausedAt, timeout=60_000):
        window.pauseButton.click()


def test_pause_holds_the_run_predicts_with_the_model_as_it_stands_and_steps_one_epoch(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    assert not window.pauseButton.isEnabled() and not window.stepButton.isEnabled()
    window.startButton.click()
    assert window.pauseButton.isEnabled() and not window.stepButton.isEnabled()
    qtbot.waitUntil(lambda: window.progressBar.value() > 0, timeout=60_000)
    pause_and_wait(qtbot, window)
    held = window.session.current.count
    assert window.pauseButton.text() == "Resume" and window.stepButton.isEnabled()
    assert window.progressBar.value() == held and len(first_curve(window).xData) == held
    assert window.statusLabel.text().startswith(f"Paused at epoch {held:,} of 10,000,000")
    assert "Paused in the training loop" in window.codePanel.stepLabel.text()
    window.predictInput.setText("4")
    window.predictButton.click()
    assert window.predictionTable.rowCount() == 1 and f"({epochs_text(held)})" in window.predictMessage.text()
    for n in (1, 2):  # each press: one epoch, then held again
        with qtbot.waitSignal(window.job.pausedAt, timeout=60_000):
            window.stepButton.click()
        assert window.session.current.count == held + n and window.progressBar.value() == held + n
    window.pauseButton.click()  # Resume
    assert window.pauseButton.text() == "Pause" and not window.stepButton.isEnabled()
    qtbot.waitUntil(lambda: window.progressBar.value() > held + 2, timeout=60_000)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert window.statusLabel.text().startswith("Stopped at epoch")
    assert not window.pauseButton.isEnabled() and window.pauseButton.text() == "Pause"


def test_stop_while_paused_ends_the_run(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    qtbot.waitUntil(lambda: window.progressBar.value() > 0, timeout=60_000)
    pause_and_wait(qtbot, window)
    held = window.session.current.count
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert window.statusLabel.text().startswith(f"Stopped at epoch {held:,}")
    assert window.startButton.isEnabled()


def test_a_paused_and_resumed_run_in_the_window_matches_one_that_was_not(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(3000)
    run_to_end(qtbot, window)
    plain = first_curve(window).yData.copy()
    window.startButton.click()
    pause_and_wait(qtbot, window)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.pauseButton.click()  # Resume
    assert window.statusLabel.text().startswith("Completed")
    np.testing.assert_array_equal(first_curve(window).yData, plain)


def test_compare_cannot_be_paused(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.compareButton.click()
    assert not window.pauseButton.isEnabled()
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()


def test_the_progress_bar_is_painted_with_the_next_frame_not_inside_the_calls_that_set_it(qtbot, window):
    """QProgressBar repaints inside setValue, holding the GIL the training thread needs: the counters ask for
    an ordinary update instead, painted by the event loop."""
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        count = 0

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                Paints.count += 1
            return False

    run_to_end(qtbot, window)
    bar, paints = window.progressBar, Paints()
    # QProgressBar skips the repaint when the new value is the one it last painted: on a busy machine the run
    # can end before the bar's last update is painted, so 0 may still be the painted value. Paint it now.
    bar.repaint()
    bar.installEventFilter(paints)
    bar.setValue(0)  # a bare setValue: painted inside the call
    assert Paints.count == 1
    run = window.session.current
    window.runStatus.training(run.config, began=True)  # as the clock starts: the range and 0
    assert Paints.count == 1 and (bar.maximum(), bar.value()) == (run.config.epochs, 0)
    window.runStatus.counters(run)
    assert Paints.count == 1 and bar.value() == run.count
    qtbot.waitUntil(lambda: Paints.count >= 2)  # painted by the event loop, after the calls
    bar.removeEventFilter(paints)


def test_one_epoch_reads_in_the_singular(qtbot, window):
    window.epochsSpin.setValue(1)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed: 1 epoch on cpu in ")
    window.predictButton.click()
    assert window.predictMessage.text().endswith("trained on cpu (1 epoch).")
    assert (epochs_text(1), epochs_text(2), epochs_text(12345)) == ("1 epoch", "2 epochs", "12,345 epochs")
