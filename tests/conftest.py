import os
import tempfile
import threading

# Qt runs headless in the tests; set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app's remembered settings (QSettings) go to a folder of the tests' own, never the person's.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gpudemo-test-config-")

import pytest  # noqa: E402
import torch  # noqa: E402


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU; torch sees none here")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def nothing_left_behind():
    """Fail a test that leaves a training QThread or a Python thread running, a closed window's timer
    ticking, or CUDA memory held (and stop the QThread, for the next test)."""
    before = set(threading.enumerate())
    yield
    import sys

    problems = []
    worker = sys.modules.get("gpudemo.ui.worker")
    if worker is not None:
        running = [c for c in list(worker.LIVE_CONTROLLERS) if _alive(c) and c.is_running()]
        for controller in running:
            controller.shutdown()
        if running:
            problems.append(f"{len(running)} training thread(s) still running after the test")
    # A QThread that ran Python shows as a "dummy" thread for good: those are checked above, by their owners.
    left = [t for t in threading.enumerate()
            if t not in before and t.is_alive() and not isinstance(t, threading._DummyThread)]
    for thread in left:
        thread.join(timeout=30)  # a deadline: a thread the test started may be finishing its last step
    still = [t.name for t in left if t.is_alive()]
    if still:
        problems.append(f"thread(s) still running after the test: {still}")
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QMainWindow

        app = QApplication.instance()
        if app is not None:
            ticking = [timer.objectName() or repr(timer) for widget in app.topLevelWidgets()
                       if _alive(widget) and isinstance(widget, QMainWindow) and not widget.isVisible()
                       for timer in widget.findChildren(QTimer) if timer.isActive()]
            if ticking:
                problems.append(f"a closed window left {len(ticking)} timer(s) running: {ticking}")
    if torch.cuda.is_available():
        torch.cuda.synchronize()
        if torch.cuda.memory_allocated():
            problems.append("CUDA memory still held after the test")
    if problems:
        pytest.fail("; ".join(problems))


def _alive(qobject) -> bool:
    import shiboken6

    return shiboken6.isValid(qobject)
