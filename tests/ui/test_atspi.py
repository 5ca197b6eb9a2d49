"""The window as Orca reads it: through AT-SPI, over D-Bus, from another process (tests/ui/atspi_reader.py).

Needs a D-Bus session, Debian's at-spi2-core (the accessibility bus), Xvfb and the xcb libraries that
Qt's X11 platform loads (its AT-SPI bridge is that platform's); skipped with the reason where any is missing.
"""

import ctypes
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _xcb_platform_loads() -> bool | None:
    """Whether Qt's X11 platform plugin loads here (it needs Debian's libxcb-cursor0, libxcb-icccm4 and others)."""
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    try:
        ctypes.CDLL(str(plugin))
    except OSError:
        return None
    return True


NEEDS = {
    "dbus-run-session": shutil.which("dbus-run-session"),
    "xvfb-run": shutil.which("xvfb-run"),
    "at-spi2-core": os.path.exists("/usr/libexec/at-spi-bus-launcher") or None,
    "Qt's X11 platform and the xcb libraries it loads": _xcb_platform_loads(),
}
pytestmark = [
    pytest.mark.linux,
    pytest.mark.slow,
    pytest.mark.skipif(
        not all(NEEDS.values()), reason=f"needs {', '.join(name for name, found in NEEDS.items() if not found)}"
    ),
]


def test_orca_reads_every_control_by_name_and_the_loss_plot_by_what_it_shows():
    pytest.importorskip("jeepney")
    done = subprocess.run(
        ["dbus-run-session", "--", "xvfb-run", "-a", sys.executable, "-m", "tests.ui.atspi_reader"],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    nodes = json.loads(done.stdout.strip().splitlines()[-1])
    named = {(role, name): labels for role, name, _description, labels, _showing in nodes}
    assert ("push button", "Start training") in named
    assert ("spin box", "Samples") in named  # not "2. Train", the group's title it was read as before
    assert "Optimizer" in named[("combo box", "SGD")]  # Orca: "Optimizer, combo box, SGD"
    plots = [(name, description) for role, name, description, _labels, _showing in nodes if name == "Loss plot"]
    assert plots == [("Loss plot", "No run yet: press Start training to see the loss fall.")]
    controls = {"push button", "combo box", "spin box", "slider", "table", "check box", "text"}
    nameless = [
        (role, description[:60])
        for role, name, description, _labels, showing in nodes
        if role in controls and showing and not name
    ]
    assert nameless == []
