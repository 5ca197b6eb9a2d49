#!/usr/bin/env python3
"""Random clicks and typing in the window, as a person who tries everything: any traceback or Qt warning.

    .venv/bin/python tools/monkey.py [--seconds 120] [--seed 1]

Opens the window offscreen and, until the time is up, picks a visible enabled control at random (three
times in four a widget: a button, a box, a field, a slider, a tab, a list's row; else any menu command
but Quit) and uses it: clicks it, picks an entry, types a value from a list of nonsense ("", "-1",
"1e308", "nan", 400 nines, a Chinese character…) and confirms it, triggers the command; then lets the
event loop run a little, now and then for up to two seconds so runs and measurements go on. File
dialogs answer at once with a name in a temporary folder (or a file that is not a model, or a missing
one); message boxes and dialogs close themselves. A language change rebuilds the window: the new one is
followed. It prints every uncaught exception and Qt warning as it happens, and ends with their count
(exit 1 if any). The same seed picks the same controls, not the same moments: the runs' timing differs.

Found so far: a log axis that overflowed its tick labels after a diverged run was cleared, and
"1 epochs" (6 December, both fixed). Since: 8,488 actions over four seeds (11.5 minutes), nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

NONSENSE = (
    "", "0", "-1", "-0", "1e308", "1e-9", "nan", "inf", "abc", "4", "0.5", "0.1", "2", "10", "1000",
    "  7 ", "1,2,3", "3.5, -2", "1;2", "x=4", "100000000000", "9" * 400, "\u4e00",
)  # fmt: skip


class Monkey:
    def __init__(self, app, window, seed: int):
        self.app, self.window, self.random = app, window, random.Random(seed)
        self.problems: list[str] = []
        self.actions = 0

    def note(self, text: str) -> None:
        self.problems.append(text)
        print(text, flush=True)

    def controls(self) -> list:
        from PySide6.QtGui import QAction
        from PySide6.QtWidgets import (
            QAbstractButton,
            QAbstractItemView,
            QAbstractSpinBox,
            QComboBox,
            QLineEdit,
            QSlider,
            QTabBar,
        )

        kinds = (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QSlider, QTabBar, QAbstractItemView)
        widgets = [w for kind in kinds for w in self.window.findChildren(kind) if w.isVisible() and w.isEnabled()]
        commands = [
            a
            for a in self.window.findChildren(QAction)
            if a.isEnabled() and a.text() and a.menu() is None and a is not self.window.actions.quit
            and a.text() != "Export..."  # pyqtgraph's own scene menu: only a right-click reaches it
        ]  # fmt: skip
        return widgets if widgets and self.random.random() < 0.75 else widgets + commands

    def act(self) -> None:
        from PySide6.QtGui import QAction
        from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QComboBox, QLineEdit, QSlider, QTabBar

        pick = self.random
        control = pick.choice(self.controls())
        if isinstance(control, QAction):
            control.trigger()
        elif isinstance(control, QComboBox):
            if control.count():
                control.setCurrentIndex(pick.randrange(control.count()))
            if control.isEditable() and pick.random() < 0.5:
                control.setEditText(pick.choice(NONSENSE))
        elif isinstance(control, QAbstractSpinBox):
            control.lineEdit().setText(pick.choice(NONSENSE))
            control.editingFinished.emit()
        elif isinstance(control, QLineEdit):
            if not control.isReadOnly():
                control.setText(pick.choice(NONSENSE))
                control.returnPressed.emit()
                control.editingFinished.emit()
        elif isinstance(control, QSlider):
            control.setValue(pick.randint(control.minimum(), control.maximum()))
        elif isinstance(control, (QTabBar,)):
            if control.count():
                control.setCurrentIndex(pick.randrange(control.count()))
        elif isinstance(control, QAbstractItemView):
            model = control.model()
            if model is not None and model.rowCount():
                control.setCurrentIndex(model.index(pick.randrange(model.rowCount()), 0))
        else:
            control.click()

    def wait(self) -> None:
        for _ in range(self.random.randint(1, 20)):
            self.app.processEvents()
        if self.random.random() < 0.05:  # a pause: let a run or a measurement go on
            until = time.monotonic() + self.random.random() * 2
            while time.monotonic() < until:
                self.app.processEvents()

    def follow(self) -> bool:
        """The window shown now (a language change rebuilds it); False if none is."""
        from gpudemo.ui import MainWindow

        if self.window.isVisible():
            return True
        shown = [w for w in self.app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        if shown:
            self.window = shown[0]
        return bool(shown)

    def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and self.follow():
            try:
                self.act()
            except Exception:
                self.note("".join(traceback.format_exc()))
            self.actions += 1
            self.wait()


def stand_in_dialogs(folder: str, pick: random.Random) -> None:
    """File dialogs answer at once; message boxes and dialogs close themselves."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QMessageBox

    names = ("losses.csv", "plot.png", "plot.svg", "model.pt", "no-suffix")
    opened = (os.path.join(folder, "model.pt"), os.path.join(folder, "losses.csv"), "/etc/hostname", "/missing", "")
    QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (os.path.join(folder, pick.choice(names)), ""))
    QFileDialog.getOpenFileName = staticmethod(lambda *a, **k: (pick.choice(opened), ""))
    QMessageBox.exec = lambda self: QMessageBox.StandardButton.Ok
    QDialog.exec = lambda self: (self.show(), QTimer.singleShot(300, self.close), 0)[-1]
    QMenu.exec = lambda self, *a, **k: None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from PySide6.QtCore import QRect, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from gpudemo.ui.base.qt_import import narrow_source_scan

    narrow_source_scan()
    from gpudemo.ui import MainWindow
    from gpudemo.ui.app import readable_font
    from gpudemo.ui.shell.menus import fit_to_screen

    app = QApplication([])
    app.setFont(readable_font(app.font()))
    window = MainWindow()
    fit_to_screen(window, QRect(0, 0, 1800, 950))
    window.show()
    monkey = Monkey(app, window, args.seed)
    stand_in_dialogs(tempfile.mkdtemp(prefix="gpudemo-monkey-"), monkey.random)
    sys.excepthook = lambda kind, value, tb: monkey.note("".join(traceback.format_exception(kind, value, tb)))
    quiet = ("propagateSizeHints", "This plugin does not support")  # the offscreen platform's own
    qInstallMessageHandler(
        lambda mode, context, message: None if message.startswith(quiet) else monkey.note(f"Qt: {message}")
    )
    monkey.run(args.seconds)
    monkey.window.close()
    app.processEvents()
    print(f"{monkey.actions:,} actions in {args.seconds:g} s (seed {args.seed}): {len(monkey.problems)} problems")
    return 1 if monkey.problems else 0


if __name__ == "__main__":
    sys.exit(main())
