"""Run as a subprocess: the real program through main(); prints SHOWN once the window has painted."""

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from gpudemo.cli.window import run_window


def on_shown(self):
    QApplication.processEvents()  # the first paint
    print("SHOWN", flush=True)
    QTimer.singleShot(0, self.close)


sys.exit(run_window(on_shown=on_shown))
