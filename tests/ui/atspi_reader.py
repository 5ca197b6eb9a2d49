"""Read gpudemo's window through AT-SPI, the accessibility bus Orca reads on Linux (tests/ui/test_atspi.py).

Run inside a D-Bus session with a display (`dbus-run-session -- xvfb-run -a python -m tests.ui.atspi_reader`):
starts the accessibility bus, opens the window in a process of its own with Qt's AT-SPI bridge forced on
(QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1), walks the tree the registry hands out as a screen reader does, and
prints it as JSON: [role, name, description, the names of the labels it is labelled by, showing] for every node
(Qt on Linux names a combo box by its current text, as AT-SPI asks, and its label by the relation; Orca
reads both: "Optimizer, combo box, SGD").
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from jeepney import DBusAddress, Properties, new_method_call
from jeepney.io.blocking import open_dbus_connection

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
WINDOW = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from gpudemo.ui.app import readable_font
from gpudemo.ui import MainWindow
from tests.devices import CPU_ONLY

app = QApplication([])
app.setFont(readable_font(app.font()))
window = MainWindow(devices=CPU_ONLY)
window.show()
QTimer.singleShot(120_000, app.quit)  # a reader that never comes: the window ends anyway
app.exec()
"""
ACCESSIBLE = "org.a11y.atspi.Accessible"
LABELLED_BY = 2  # AtspiRelationType
SHOWING = 25  # AtspiStateType: on the screen (a hidden lesson's buttons are in the tree, not showing)


class Reader:
    def __init__(self, address: str):
        self.bus = open_dbus_connection(bus=address)

    def call(self, name: str, path: str, method: str) -> tuple:
        return self.bus.send_and_get_reply(new_method_call(DBusAddress(path, name, ACCESSIBLE), method)).body

    def get(self, name: str, path: str, prop: str) -> str:
        return self.bus.send_and_get_reply(Properties(DBusAddress(path, name, ACCESSIBLE)).get(prop)).body[0][1]

    def apps(self) -> list:
        return self.call("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "GetChildren")[0]

    def walk(self, name: str, path: str, found: list, depth: int = 0) -> None:
        if depth > 60:
            return
        role = self.call(name, path, "GetRoleName")[0]
        labels = [
            self.get(target_name, target_path, "Name")
            for kind, targets in self.call(name, path, "GetRelationSet")[0]
            if kind == LABELLED_BY
            for target_name, target_path in targets
        ]
        states = self.call(name, path, "GetState")[0]
        showing = bool(states[SHOWING // 32] & (1 << SHOWING % 32))
        found.append([role, self.get(name, path, "Name"), self.get(name, path, "Description"), labels, showing])
        for child_name, child_path in self.call(name, path, "GetChildren")[0]:
            self.walk(child_name, child_path, found, depth + 1)


def main() -> int:
    # Its own group, out of our output: the bus it starts (a dbus-daemon, the registry) would hold our stdout
    # open after we end, and the test waiting for its end with it.
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    launcher = subprocess.Popen([LAUNCHER, "--launch-immediately"], **quiet)
    env = {**os.environ, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_QPA_PLATFORM": "xcb", "PYTHONPATH": str(ROOT)}
    window = subprocess.Popen([sys.executable, "-c", WINDOW], env=env, cwd=ROOT, **quiet)
    try:
        session = open_dbus_connection(bus="SESSION")
        deadline = time.monotonic() + 60
        found: list = []
        while time.monotonic() < deadline and window.poll() is None:
            time.sleep(0.5)
            try:
                bus = DBusAddress("/org/a11y/bus", "org.a11y.Bus", "org.a11y.Bus")
                reader = Reader(session.send_and_get_reply(new_method_call(bus, "GetAddress")).body[0])
                found = []
                for name, path in reader.apps():
                    reader.walk(name, path, found)
            except Exception:  # the bus or the window not up yet: look again
                continue
            if any(node[1] == "Start training" for node in found):  # the window is there, whole
                break
        print(json.dumps(found))
        return 0 if found else 1
    finally:
        for process in (window, launcher):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:  # it ended already (a window whose platform would not start)
                pass


if __name__ == "__main__":
    sys.exit(main())
