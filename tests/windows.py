"""Helpers for the window tests."""

from gpudemo.core.devices import DeviceInfo, DeviceList
from gpudemo.core.messages import Message

GIB = 2**30

TWO_GPUS = DeviceList(
    (
        DeviceInfo("cuda:0", "cuda", "NVIDIA H200", 141 * GIB, 139 * GIB, (9, 0), 132),
        DeviceInfo("cuda:1", "cuda", "NVIDIA GeForce RTX 4090", 24 * GIB, 23 * GIB, (8, 9), 128),
        DeviceInfo("cpu", "cpu", "AMD EPYC 9654", 503 * GIB, 400 * GIB, threads=192),
    )
)

CPU_ONLY = DeviceList(
    (DeviceInfo("cpu", "cpu", "Test CPU", 16 * GIB, 8 * GIB, threads=8),),
    note=Message("No GPU listed: this PyTorch ({version}) is a CPU-only build.", {"version": "2.13.0+cpu"}),
)


def open_window(qtbot, devices=CPU_ONLY, session=None, preferences=None):
    """A shown MainWindow on these devices, closed (its run stopped) at the end of the test."""
    from PySide6.QtCore import QRect

    from gpudemo.ui import MainWindow
    from gpudemo.ui.menus import fit_to_screen

    window = MainWindow(devices=devices, session=session, preferences=preferences)
    fit_to_screen(window, QRect(0, 0, 1800, 950))  # the offscreen screen is 800 x 600: size it as a desktop
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    window.show()
    qtbot.waitExposed(window)
    return window


def run_to_end(qtbot, window, timeout=60_000):
    with qtbot.waitSignal(window.runFinished, timeout=timeout):
        window.startButton.click()


def first_curve(window):
    """The newest run's front curve: its raw loss while smoothing is off."""
    return window.lossView.front(window.session.current)
