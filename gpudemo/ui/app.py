"""Start the window: the application, its language and log, then the window. Qt is imported here, not
before, so `gpudemo --help` stays quick. Above the window: only the command line imports this."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable


def readable_font(font):
    """The application's font, at least 11 points: readable on a projector."""
    font.setPointSizeF(max(font.pointSizeF(), 11.0))
    return font


def build_app(argv: list[str] | None = None):
    """The application and its window, not shown yet: the language from the saved choice, else the system's;
    the log file started, and an exception nobody catches logged and told in the window."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from gpudemo.logfile import start_logging
    from gpudemo.ui.base import i18n
    from gpudemo.ui.base.cycles import collect_between_events
    from gpudemo.ui.base.resources import icon_path
    from gpudemo.ui.main_window import MainWindow
    from gpudemo.ui.shell.preferences import Preferences, open_store
    from gpudemo.ui.shell.rebuild import ShownWindow

    start_logging()
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("gpudemo")
    app.setApplicationDisplayName("gpudemo")
    app.setWindowIcon(QIcon(str(icon_path())))
    app.setFont(readable_font(app.font()))
    collect_between_events(app)  # Python's cycles collected between events, on this thread
    preferences = Preferences(open_store())
    i18n.install(preferences.language() or i18n.system_language())
    return app, ShownWindow(MainWindow(preferences=preferences))


def _close_or_end(window, signum: int) -> None:
    """The first Ctrl-C or TERM closes the window; one after it has closed ends the process at once, as the
    command line's second Ctrl-C does: what it still waits for cannot be stopped (an import of PyTorch that
    hangs on a stalled disk, a compile), and a person who asks twice wants it gone."""
    try:
        open_ = window.isVisible()
    except RuntimeError:  # the window's C++ object is gone already
        open_ = False
    if open_:
        window.close()
        return
    sys.stderr.write("gpudemo: ended at once (the window had closed; something it waited for did not end)\n")
    sys.stderr.flush()
    os._exit(128 + signum)


def run_app(argv: list[str] | None = None, on_shown: Callable[[object], None] | None = None) -> int:
    """Run the program's window until it closes; its exit status. `on_shown(window)` is called once the
    window is shown (drivers of the real program: the tests, the benchmarks, the screenshots), before the
    event loop starts: it must return at once and act later through timers and signals. A driver that
    waits inside it (QTest.qWait) holds the GIL between events and starves PyTorch's loading and every run
    (the loader took 44-75 s instead of 2.5 s under one), so what it then times is not the app's."""
    from PySide6.QtCore import QTimer

    app, shown = build_app(argv)  # PyTorch loads once the window is shown (ui/jobs/loader.py)
    # Ctrl-C in the terminal, or a TERM signal, closes the window the way its close
    # button does: the run stops and its thread is waited for. Python runs signal
    # handlers only between bytecodes, so a slow timer lets it look in now and then.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda signum, _frame: _close_or_end(shown.window, signum))
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(250)
    shown.window.show()
    if on_shown is not None:
        on_shown(shown.window)
    return app.exec()
