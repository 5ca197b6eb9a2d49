"""The core never imports Qt: checked on the source and on a real import."""

import ast
import subprocess
import sys
from pathlib import Path

import gpudemo

QT = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6", "gpudemo.ui")
PACKAGE = Path(gpudemo.__file__).parent
CORE = PACKAGE / "core"
UI = PACKAGE / "ui"

# The window's rooms, lowest first; a module may import its own room and the rooms below it.
# The window (main_window) composes the rooms; only the app and the rebuild sit above it.
ROOMS = ("base", "panels", "views", "jobs", "shell")
ALLOWED = {
    "base": {"base"},
    "panels": {"base", "panels"},
    "views": {"base", "views"},
    "jobs": {"base", "views", "jobs"},
    "shell": {"base", "panels", "views", "jobs", "shell"},
}
ABOVE_THE_WINDOW: set[str] = set()  # ui/app.py starts the window from above it, outside the rooms


def imported(path: Path) -> list[str]:
    """Every module `path` imports, at any depth of its code, `from a import b` as both a and a.b."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def test_no_core_module_names_qt():
    offenders = []
    for path in CORE.rglob("*.py"):
        offenders += [f"{path.name}: {name}" for name in imported(path) if name.startswith(QT)]
    assert offenders == []


def test_the_windows_rooms_import_only_down():
    offenders = []
    for room in ROOMS:
        for path in (UI / room).glob("*.py"):
            where = f"{room}/{path.name}"
            for name in imported(path):
                parts = name.split(".")
                if parts[:2] != ["gpudemo", "ui"] or len(parts) < 3:
                    continue
                target = parts[2]
                if target == "main_window" and where in ABOVE_THE_WINDOW:
                    continue
                if target not in ALLOWED[room]:
                    offenders.append(f"{where} imports {name}")
    assert offenders == []


def test_every_module_of_the_window_lives_in_a_room():
    loose = sorted(
        path.name for path in UI.glob("*.py") if path.name not in ("__init__.py", "main_window.py", "app.py")
    )
    assert loose == []
    assert {path.name for path in UI.iterdir() if path.is_dir() and path.name != "__pycache__"} == set(ROOMS)


def test_importing_the_core_and_cli_loads_no_qt():
    code = (
        "import sys, gpudemo.cli, gpudemo.display, gpudemo.cli.measure, gpudemo.core.measure.compare,"
        " gpudemo.core.measure.sweep, gpudemo.core.training, gpudemo.core.hardware.devices,"
        " gpudemo.core.training.prediction;"
        f"print([m for m in sys.modules if m.startswith({QT!r})])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
