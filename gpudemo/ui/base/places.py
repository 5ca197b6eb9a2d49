"""Where a file dialog opens: the folder the person chose last in this session, else their Documents folder.

Not the current folder: a Windows app started from a shortcut has System32 or the virtual environment's
folder as its current one, where a dialog opened and a save went unnoticed.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget

_last_folder: str | None = None


def start_path(name: str = "") -> str:
    """The dialog's starting path: `name` in the folder above (the folder alone without a name)."""
    folder = _last_folder or QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = folder or os.getcwd()
    return os.path.join(folder, name) if name else folder


def chosen(path: str) -> str:
    """`path` as a dialog returned it (empty where the person cancelled), its folder remembered for the next."""
    global _last_folder
    if path:
        _last_folder = os.path.dirname(os.path.abspath(path))
    return path


def ask_save(parent: QWidget, title: str, name: str, filters: str) -> str:
    """The path the person chose to save to, the dialog opened on `name` in the folder above (empty: cancelled)."""
    path, _ = QFileDialog.getSaveFileName(parent, title, start_path(name), filters)
    return chosen(path)


def ask_open(parent: QWidget, title: str, filters: str) -> str:
    """The file the person chose to open, the dialog opened in the folder above (empty: cancelled)."""
    path, _ = QFileDialog.getOpenFileName(parent, title, start_path(), filters)
    return chosen(path)
