"""Run as a subprocess: the real program through main(); prints SHOWN once the window has painted, then
LISTED once the devices are listed (PyTorch loads after the first paint)."""

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from gpudemo.cli.window import run_window


def listed(self):
    print("LISTED", flush=True)
    QTimer.singleShot(0, self.close)


def on_shown(self):
    QApplication.processEvents()  # the first paint
    print("SHOWN", flush=True)
    if getattr(self, "loading", False):
        self.devicesListed.connect(lambda: listed(self))  # emitted on the GUI thread
    else:  # a window that listed its devices before it painted
        listed(self)


sys.exit(run_window(on_shown=on_shown))
