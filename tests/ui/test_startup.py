"""The window at once: painted before PyTorch has loaded, the devices listed as soon as it has.

The window's modules import no torch; `ui/jobs/loader.py` imports it after the first paint, lists the
devices and warms the optimizer. A probe that fails or hangs leaves the CPU listed with the reason; a
Start pressed while loading runs once PyTorch is there; closing while loading is clean.
"""

import json
import os
import subprocess
import sys
import textwrap
import threading

import pytest
from PySide6.QtCore import QRect

from gpudemo.core.hardware.machine import DeviceInfo, DeviceList, cpu_device
from gpudemo.ui import MainWindow
from gpudemo.ui.jobs import loader
from gpudemo.ui.shell.menus import fit_to_screen

GPU = DeviceInfo("cuda:0", "cuda", "NVIDIA H100", 80 * 2**30, None, (9, 0), 132, pci_bus_id="0000:1b:00.0")

WITHOUT_TORCH = textwrap.dedent(
    """
    import json, sys
    from PySide6.QtWidgets import QApplication, QLabel

    import gpudemo.ui.main_window  # the first paint's modules, as run_app imports them
    imported = "torch" in sys.modules

    class NoTorch:  # from here on, PyTorch cannot be imported at all
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                raise ImportError("No module named 'torch' (blocked by the test)")

    sys.meta_path.insert(0, NoTorch())
    app = QApplication([])
    from gpudemo.ui.main_window import EXPOSED, MainWindow

    window = MainWindow()
    window.show()
    model = window.deviceList.model()
    painted = {
        "missing": [name for name in EXPOSED if getattr(window, name, None) is None],
        "devices": [model.index(row, 0).data() for row in range(model.rowCount())],
        "note": window.devicePanel.note.text(),
        "script": window.codePanel.text() or window.codePanel.view.toPlainText(),
        "start": window.startButton.isEnabled(),
        "compare": window.actions.compare.isEnabled(),
    }
    while not window.loader.is_started():  # it starts once the window is shown
        app.processEvents()
    window.loader.wait(30)  # its import fails (blocked): the window says so
    app.processEvents()
    window.startButton.click()
    after = {"note": window.devicePanel.note.text(), "status": window.statusLabel.text()}
    after["training"] = window.is_training()
    after["about"] = window.actions.about.isEnabled()
    from gpudemo.ui.shell.dialogs import show_about
    about = show_about(window)
    after["versions"] = about.findChild(QLabel, "aboutVersions").text()
    about.close()
    window.close()
    print(json.dumps({"imported": imported, "painted": painted, "after": after, "torch": "torch" in sys.modules}))
    """
)


def test_the_window_paints_whole_without_torch_and_says_so_when_torch_cannot_load():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", WITHOUT_TORCH], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["imported"] is False  # importing the window's modules imports no torch
    painted = seen["painted"]
    assert painted["missing"] == []  # the whole layout, every named control
    assert len(painted["devices"]) == 1 and painted["devices"][0].startswith("cpu")
    assert "PyTorch is loading" in painted["note"]
    assert "once PyTorch has loaded" in painted["script"]
    assert painted["start"] and not painted["compare"]  # Start is taken while loading; Compare waits
    after = seen["after"]
    assert "PyTorch could not be loaded" in after["note"] and "No module named 'torch'" in after["note"]
    assert "PyTorch could not be loaded" in after["status"] and after["training"] is False
    assert after["about"]  # the dialog a person with a broken install needs: open, and saying why
    assert (
        "torch: could not be imported (ImportError: No module named 'torch' (blocked by the test))" in after["versions"]
    )
    assert seen["torch"] is False


def _open(qtbot):
    window = MainWindow()  # no devices given: PyTorch loads after the first paint, as in the program
    fit_to_screen(window, QRect(0, 0, 1800, 950))
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    return window


def _texts(window):
    model = window.deviceList.model()
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_the_devices_appear_when_the_import_completes(qtbot, monkeypatch):
    from gpudemo.core.hardware import devices

    monkeypatch.setattr(loader, "_list_devices", lambda: DeviceList((GPU, cpu_device())))
    monkeypatch.setattr(devices, "with_free_memory", lambda device: device)  # no CUDA here to ask
    window = _open(qtbot)
    at_listing = []
    window.devicesListed.connect(lambda: at_listing.append(window.actions.gpu_lesson.isEnabled()))
    with qtbot.waitSignal(window.devicesListed, timeout=60_000):
        window.show()
        assert window.loading and not window.actions.compare.isEnabled()
    assert at_listing == [True]  # whoever hears the listing can use every command at once
    assert not window.loading
    assert [text.split()[0] for text in _texts(window)] == ["cuda:0", "cpu"]
    assert window.devicePanel.current().id == "cuda:0"  # the GPU picked, as at any start
    assert not window.devicePanel.note.isVisibleTo(window)
    assert window.actions.compare.isEnabled() and window.startButton.isEnabled()
    assert window.actions.about.isEnabled()  # greyed while loading (it asks torch its versions), not after
    assert "import torch" in window.codePanel.text()  # the script, written now that the problems can be made


def test_a_probe_that_raises_leaves_the_cpu_listed_with_the_reason(qtbot, monkeypatch):
    def broken():
        raise RuntimeError("CUDA driver initialization failed")

    monkeypatch.setattr(loader, "_list_devices", broken)
    window = _open(qtbot)
    with qtbot.waitSignal(window.devicesListed, timeout=60_000):
        window.show()
    assert [text.split()[0] for text in _texts(window)] == ["cpu"]
    note = window.devicePanel.note.text()
    assert window.devicePanel.note.isVisibleTo(window) and "CUDA driver initialization failed" in note
    assert window.startButton.isEnabled() and window.actions.compare.isEnabled()


def test_a_probe_that_hangs_leaves_the_cpu_listed_and_the_gpus_come_if_it_answers(qtbot, monkeypatch):
    from gpudemo.core.hardware import devices

    answer = threading.Event()

    def hanging():
        answer.wait(30)
        return DeviceList((GPU, cpu_device()))

    monkeypatch.setattr(loader, "_list_devices", hanging)
    monkeypatch.setattr(devices, "with_free_memory", lambda device: device)
    monkeypatch.setattr(loader, "PROBE_TIMEOUT_MS", 300)
    window = _open(qtbot)
    try:
        with qtbot.waitSignal(window.devicesListed, timeout=60_000):
            window.show()
        assert [text.split()[0] for text in _texts(window)] == ["cpu"]
        assert "has not answered for 0.3 s" in window.devicePanel.note.text() and window.startButton.isEnabled()
        with qtbot.waitSignal(window.devicesListed, timeout=10_000):
            answer.set()
        assert [text.split()[0] for text in _texts(window)] == ["cuda:0", "cpu"]
    finally:
        answer.set()


@pytest.fixture
def held_import(monkeypatch):
    """The loader's import of torch holds until the test sets this event (set at the end in any case)."""
    ready = threading.Event()
    monkeypatch.setattr(loader, "_import_torch", lambda: ready.wait(30))
    yield ready
    ready.set()


def test_start_pressed_while_loading_runs_once_torch_is_ready(qtbot, held_import):
    window = _open(qtbot)
    window.show()
    qtbot.waitUntil(window.loader.is_started)
    window.startButton.click()
    assert window.loading and not window.is_training()
    assert "begins as soon as PyTorch has loaded" in window.statusLabel.text()
    assert not window.startButton.isEnabled() and window.actions.stop.isEnabled()
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        held_import.set()
    assert window.statusLabel.text().startswith("Completed")
    assert len(window.session.runs) == 1  # taken once, not lost and not twice


def test_stop_cancels_a_start_waiting_for_torch(qtbot, held_import):
    window = _open(qtbot)
    window.show()
    window.startButton.click()
    window.actions.stop.trigger()
    assert "cancelled" in window.statusLabel.text() and window.startButton.isEnabled()
    with qtbot.waitSignal(window.devicesListed, timeout=60_000):
        held_import.set()
    assert not window.is_training() and window.session.runs == []


CLOSE_AT_ONCE = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from gpudemo.cli.window import run_window

    def close(window):
        QTimer.singleShot(0, window.close)  # while PyTorch loads
        print("LOADING", window.loading, flush=True)

    sys.exit(run_window(on_shown=close))
    """
)


@pytest.mark.slow
def test_closing_while_loading_is_clean():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", CLOSE_AT_ONCE], capture_output=True, text=True, timeout=90, env=env)
    assert done.returncode == 0, done.stderr
    assert "LOADING True" in done.stdout
    assert "Traceback" not in done.stderr and "QThread" not in done.stderr and "Error" not in done.stderr


def test_closing_while_a_probe_hangs_ends_the_loader_without_its_warm_up():
    hang, probing, warmed = threading.Event(), threading.Event(), []

    def probe():
        probing.set()
        hang.wait(30)

    found = loader.TorchLoader(load=lambda: None, probe=probe, warm=lambda: warmed.append(True))
    try:
        found.start()
        assert probing.wait(5)
        found.stop()  # the window closes while the driver does not answer
        found.wait(5)
        assert not found._thread.is_alive() and warmed == []  # no 15 s wait for the probe, no warm-up
    finally:
        hang.set()


def test_a_windows_dll_failure_names_the_visual_c_runtime_not_a_reinstall(qtbot):
    window = _open(qtbot)
    window.torch_loading._on_failed(
        "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading"
        ' "C:\\\\Python312\\\\Lib\\\\site-packages\\\\torch\\\\lib\\\\c10.dll" or one of its dependencies.'
    )
    note = window.devicePanel.note.text()
    assert "Microsoft Visual C++ Redistributable" in note and "reinstalling PyTorch does not help" in note
    window.loader.wait(30)
