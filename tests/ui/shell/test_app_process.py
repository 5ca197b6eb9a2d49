"""The whole program in a subprocess: main(), closing while training, Ctrl-C.

Only one QApplication may live in a process, so these run the real `main()` in a
child Python that schedules a person's actions once the window is up.
"""

import os
import subprocess
import sys
import textwrap

DRIVER = textwrap.dedent(
    """
    import os, sys, time
    from PySide6.QtCore import QTimer
    from gpudemo.cli.window import run_window

    DEADLINE_S = 60  # generous: the first run after launch waits for torch's warm-up

    def act(self):
        self.epochsSpin.setValue(10_000_000)
        # Pressed at once, as a person might, before torch's warm-up has finished.
        QTimer.singleShot(0, self.start_training)
        started = time.monotonic()
        poll = QTimer(self)

        def check():
            if self.progressBar.value() > 0 or time.monotonic() - started > DEADLINE_S:
                poll.stop()
                print("TRAINING", self.is_training(), self.progressBar.value() > 0, self.statusLabel.text(), flush=True)
                QTimer.singleShot(0, ACTION(self))

        poll.timeout.connect(check)
        poll.start(20)

    sys.exit(run_window(on_shown=act))
    """
)


def run_app(action: str, timeout=90):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = DRIVER.replace("ACTION(self)", action)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)


def assert_clean_exit(out):
    assert out.returncode == 0, out.stderr
    assert "TRAINING True True" in out.stdout
    assert "QThread: Destroyed while thread is still running" not in out.stderr
    assert "Traceback" not in out.stderr and "Error" not in out.stderr


def test_closing_the_window_while_training_stops_and_exits_cleanly():
    assert_clean_exit(run_app("self.close"))


def test_ctrl_c_closes_the_window_cleanly():
    assert_clean_exit(run_app("lambda: os.kill(os.getpid(), __import__('signal').SIGINT)"))


def test_quitting_the_application_while_training_exits_cleanly():
    assert_clean_exit(run_app("__import__('PySide6.QtWidgets').QtWidgets.QApplication.quit"))
