"""No command: open the window, after checking that Qt can open one here (see gpudemo.display)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from gpudemo.cli.output import EXIT_FAILED
from gpudemo.core.base import oscalls


def run_window(on_shown: Callable[[object], None] | None = None) -> int:
    """Open the window, after checking that Qt can open one here (see gpudemo.display)."""
    from gpudemo import display

    try:
        chosen = display.choose_platform()
    except display.DisplayProblem as problem:
        print(problem, file=sys.stderr)
        return EXIT_FAILED
    if chosen.note:
        print(chosen.note, file=sys.stderr)
    if chosen.name:
        os.environ["QT_QPA_PLATFORM"] = chosen.name
    oscalls.preload_torch_libraries()  # Windows: PyTorch's runtime before Qt's (WinError 1114 otherwise)
    try:
        from gpudemo.ui.base.qt_import import narrow_source_scan

        narrow_source_scan()  # before pyqtgraph, numpy and torch: PySide6 would read each one's source
        from gpudemo.ui.app import run_app
        from gpudemo.ui.main_window import MainWindow  # noqa: F401  (loads QtGui and QtWidgets now)
    except ImportError as error:
        missing = display.missing_for_import_error(error)
        if not missing:
            raise
        print(display.missing_libraries_message("Qt", missing), file=sys.stderr)
        return EXIT_FAILED
    return run_app(on_shown=on_shown)
