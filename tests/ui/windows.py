"""Helpers for the window tests."""

from tests.devices import CPU_ONLY, TWO_GPUS  # noqa: F401  (the window tests take them from here)

# A 1366 x 768 laptop at 150 % (Windows' usual setting there), less a 40-px taskbar: 911 x 485 logical pixels.
SCALED_150 = (round(1366 / 1.5), round((768 - 40) / 1.5))


def open_window(qtbot, devices=CPU_ONLY, session=None, preferences=None):
    """A shown MainWindow on these devices, closed (its run stopped) at the end of the test."""
    from PySide6.QtCore import QRect

    from gpudemo.ui import MainWindow
    from gpudemo.ui.shell.menus import fit_to_screen

    window = MainWindow(devices=devices, session=session, preferences=preferences)
    fit_to_screen(window, QRect(0, 0, 1800, 950))  # the offscreen screen is 800 x 600: size it as a desktop
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    window.show()
    qtbot.waitExposed(window)
    return window


def every_view(window) -> list:
    """Every view, each built now if it was not (six are built when first shown: views/deferred.py)."""
    return [window.viewTabs.widget(index) for index in range(window.viewTabs.count())]


def run_to_end(qtbot, window, timeout=60_000):
    with qtbot.waitSignal(window.runFinished, timeout=timeout):
        window.startButton.click()


def first_curve(window):
    """The newest run's front curve: its raw loss while smoothing is off."""
    return window.lossView.front(window.session.current)
