import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
import threading
import traceback
import weakref

# Qt runs headless in the tests; set before anything imports Qt. pytest-qt takes its binding
# from here rather than from a `qt_api` ini key, which pytest refuses where pytest-qt is missing.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTEST_QT_API", "pyside6")
# The app's remembered settings (QSettings) go to a folder of the tests' own, never the person's.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gpudemo-test-config-")
atexit.register(shutil.rmtree, os.environ["XDG_CONFIG_HOME"], ignore_errors=True)  # gone with the run

# Spread over the cores (pytest-xdist), each worker computes on one thread, and so do the children
# its tests start: torch's OpenMP threads wait for each other at every operator, and a thread whose
# core another worker holds made small operations a thousand times slower.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["OMP_NUM_THREADS"] = "1"

import pytest  # noqa: E402
import torch  # noqa: E402

if os.environ.get("PYTEST_XDIST_WORKER"):
    torch.set_num_threads(1)

from tests.leaks import cuda_bytes_left, settled_cuda_bytes  # noqa: E402


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None and __import__(name) is not None
    except ImportError:
        return False


# A machine with torch but no Qt (a GPU server) runs the core's, the CLI's and the cuda tests:
# the window's tests (tests/ui/, and any marked gui) are left out there, not failed.
HAS_QT = _importable("PySide6") and _importable("pytestqt")
collect_ignore = [] if HAS_QT else ["ui"]
if HAS_QT:  # as the window does: PySide6 reads no source of torch's lazy imports (gpudemo/ui/base/qt_import.py)
    from gpudemo.ui.base.qt_import import narrow_source_scan

    narrow_source_scan()


# No test waits forever: one that hangs (a deadlock, a dialog left open, a child that never answers) has every
# thread's stack printed at 240 s (faulthandler_timeout in pyproject.toml) and is ended at HANG_S (pytest-timeout's
# thread method: it ends the worker, and pytest-xdist starts another), so that the run ends and says where it hung.
# The longest test takes about 30 s on a busy 2-core machine. Not ended where pytest-timeout is missing (a GPU server).
HANG_S = 300


def pytest_collection_modifyitems(config, items):
    if config.pluginmanager.hasplugin("timeout"):
        hang = pytest.mark.timeout(HANG_S, method="thread")
        for item in items:
            if item.get_closest_marker("timeout") is None:
                item.add_marker(hang)
    # The long tests first: with the suite spread over the cores (pytest-xdist), a minute-long
    # soak that starts last would leave the other cores idle while it runs.
    items.sort(key=lambda item: "slow" not in item.keywords)
    skips = []
    if not torch.cuda.is_available():
        skips.append(("cuda", pytest.mark.skip(reason="needs a CUDA GPU; torch sees none here")))
    if not HAS_QT:
        skips.append(("gui", pytest.mark.skip(reason="needs PySide6 and pytest-qt, missing here")))
    if not sys.platform.startswith("linux"):
        skips.append(("linux", pytest.mark.skip(reason=f"needs Linux's files and signals; this is {sys.platform}")))
    for item in items:
        for keyword, skip in skips:
            if keyword in item.keywords:
                item.add_marker(skip)


STARTED_QTHREADS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # a QThread: where it started


def running_qthreads() -> list[str]:
    """Where each QThread started during this test and still running was started (napari's check)."""
    return [where for thread, where in list(STARTED_QTHREADS.items()) if _alive(thread) and thread.isRunning()]


@pytest.fixture(autouse=True)
def nothing_left_behind():
    """Fail a test that leaves a QThread or a Python thread running, a closed window's timer ticking,
    or CUDA memory held (and stop a window's job, for the next test)."""
    import sys

    if "PySide6.QtCore" in sys.modules:  # a test of the window: every QThread it starts is noted
        from PySide6.QtCore import QThread

        start = QThread.start

        def noted_start(thread, *args):
            STARTED_QTHREADS[thread] = "".join(traceback.format_stack(limit=4)[:-1]).strip()
            start(thread, *args)

        QThread.start = noted_start  # restored below, after the checks (a test's own patches are undone by then)
    before = set(threading.enumerate())
    cuda_baseline = settled_cuda_bytes(torch) if torch.cuda.is_available() else 0
    try:
        yield
    finally:
        if "PySide6.QtCore" in sys.modules and "noted_start" in locals():
            QThread.start = start

    problems = []
    running = running_qthreads()
    if running:
        problems.append(f"{len(running)} QThread(s) still running after the test, started at: {running}")
        _stop_every_job()
    # A QThread that ran Python shows as a "dummy" thread for good: those are checked above, by their owners.
    left = [
        t
        for t in threading.enumerate()
        if t not in before and t.is_alive() and not isinstance(t, threading._DummyThread)
    ]
    for thread in left:
        thread.join(timeout=30)  # a deadline: a thread the test started may be finishing its last step
    still = [t.name for t in left if t.is_alive()]
    if still:
        problems.append(f"thread(s) still running after the test: {still}")
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtCore import QEvent, QTimer
        from PySide6.QtWidgets import QApplication, QMainWindow

        app = QApplication.instance()
        if app is not None:
            # Objects a closed window asked to delete go first: walking a tree while one of its children
            # is half destroyed crashed a worker once (a segfault in findChildren, CI, 7 December).
            QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            ticking = [
                timer.objectName() or repr(timer)
                for widget in app.topLevelWidgets()
                if _alive(widget) and isinstance(widget, QMainWindow) and not widget.isVisible()
                for timer in widget.findChildren(QTimer)
                if timer.isActive()
            ]
            if ticking:
                problems.append(f"a closed window left {len(ticking)} timer(s) running: {ticking}")
    if torch.cuda.is_available():
        left = cuda_bytes_left(torch, cuda_baseline)
        if left:
            problems.append(f"{left:,} bytes of CUDA memory still held after the test")
    if problems:
        pytest.fail("; ".join(problems))


def _stop_every_job() -> None:
    """Close every window still open (closing stops its jobs and waits for their threads): the next test
    starts clean."""
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance()
    for widget in app.topLevelWidgets() if app is not None else []:
        if _alive(widget) and isinstance(widget, QMainWindow):
            widget.close()


def _alive(qobject) -> bool:
    import shiboken6

    return shiboken6.isValid(qobject)


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a disk of 200 KiB of its own (a tmpfs, unmounted after the test), to fill for real: where
    this user may not mount (not root, no mount namespace), the test is skipped and says why."""
    import shutil
    import subprocess

    folder = tmp_path / "small"
    folder.mkdir()
    mount = shutil.which("mount")
    if mount is None or os.name != "posix":
        pytest.skip("needs mount(8) to make a small disk")
    made = subprocess.run([mount, "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(folder)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
