"""Start the window: Qt is imported here, not before, so `gpudemo --help` stays quick."""

from __future__ import annotations

import sys


def run_app(argv: list[str] | None = None) -> int:
    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from gpudemo.ui.main_window import MainWindow
    from gpudemo.ui.resources import icon_path

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("gpudemo")
    app.setApplicationDisplayName("gpudemo")
    app.setWindowIcon(QIcon(str(icon_path())))
    font = app.font()
    font.setPointSizeF(max(font.pointSizeF(), 11.0))  # readable on a projector
    app.setFont(font)
    window = MainWindow()
    app.aboutToQuit.connect(window.close)
    window.show()
    return app.exec()
