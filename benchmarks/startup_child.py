"""Run as a subprocess: the real program through main(); prints SHOWN once the window has painted."""

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from gpudemo.cli import main
from gpudemo.ui.main_window import MainWindow

shown = MainWindow.show


def show(self):
    shown(self)
    QApplication.processEvents()  # the first paint
    print("SHOWN", flush=True)
    QTimer.singleShot(0, self.close)


MainWindow.show = show
sys.exit(main([]))
