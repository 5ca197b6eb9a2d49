"""An exception nobody caught, in a slot or a thread: logged, and told to the person; the window goes on.

PySide6 hands an exception raised in a slot to `sys.excepthook` and goes on; a Python
thread hands its own to `threading.excepthook`. Both go to the log file with their
traceback, and the reporter's signal (queued to the GUI thread when raised elsewhere)
puts one line in the window's status line that names the log file.
"""

from __future__ import annotations

import logging
import sys
import threading

from PySide6.QtCore import QObject, Signal

log = logging.getLogger("gpudemo.faults")


class FaultReporter(QObject):
    reported = Signal(str)  # the error in one line, for the person

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._previous = None

    def install(self) -> None:
        self._previous = (sys.excepthook, threading.excepthook)
        sys.excepthook = self.excepthook
        threading.excepthook = self.thread_excepthook

    def uninstall(self) -> None:
        if self._previous is not None:
            sys.excepthook, threading.excepthook = self._previous
            self._previous = None

    def excepthook(self, kind, error, trace) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, trace)
            return
        log.error("unexpected error", exc_info=(kind, error, trace))
        self.reported.emit(_one_line(kind, error))

    def thread_excepthook(self, args) -> None:
        if args.exc_type is SystemExit:
            return
        log.error(
            "unexpected error in thread %s",
            getattr(args.thread, "name", "?"),
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )
        self.reported.emit(_one_line(args.exc_type, args.exc_value))


def _one_line(kind, error) -> str:
    text = str(error).strip().splitlines()
    return f"{kind.__name__}: {text[0]}" if text else kind.__name__
