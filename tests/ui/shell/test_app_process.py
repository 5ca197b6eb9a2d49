"""The whole program in a subprocess: main(), closing while training, Ctrl-C.

Only one QApplication may live in a process, so these run the real `main()` in a
child Python that schedules a person's actions once the window is up.
"""

import os
import subprocess
import sys
import textwrap

import pytest

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


@pytest.mark.linux
def test_ctrl_c_closes_the_window_cleanly():
    assert_clean_exit(run_app("lambda: os.kill(os.getpid(), __import__('signal').SIGINT)"))


def test_quitting_the_application_while_training_exits_cleanly():
    assert_clean_exit(run_app("__import__('PySide6.QtWidgets').QtWidgets.QApplication.quit"))


@pytest.mark.linux
def test_a_second_signal_ends_the_process_when_pytorch_hangs_in_its_import(tmp_path):
    """A torch on a stalled disk: its import never ends. The first Ctrl-C closes the window (the loader thread
    still waits in the import); the next signal ends the process, not only SIGKILL."""
    import signal
    import time

    fake = tmp_path / "torch"
    fake.mkdir()
    started = tmp_path / "import-started"
    (fake / "__init__.py").write_text(
        f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(600)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": f"{tmp_path}{os.pathsep}{root}"}
    child = subprocess.Popen([sys.executable, "-m", "gpudemo"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the window is painted: PyTorch loads after its first paint
        assert started.exists() and child.poll() is None
        child.send_signal(signal.SIGINT)  # closes the window; the import goes on
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                child.wait(timeout=20 if signum == signal.SIGTERM else 3)
                break
            except subprocess.TimeoutExpired:
                child.send_signal(signum)
        returncode = child.wait(timeout=20)
    finally:
        child.kill()
        child.wait()
        stderr = child.stderr.read()
        child.stderr.close()
    assert returncode in (128 + signal.SIGINT, 128 + signal.SIGTERM), stderr
    assert "gpudemo: ended at once" in stderr and "Traceback" not in stderr
