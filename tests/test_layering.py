"""The core never imports Qt: checked on the source and on a real import."""

import ast
import subprocess
import sys
from pathlib import Path

import gpudemo

QT = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6", "gpudemo.ui")
CORE = Path(gpudemo.__file__).parent / "core"


def test_no_core_module_names_qt():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {name}" for name in names if name.startswith(QT)]
    assert offenders == []


def test_importing_the_core_and_cli_loads_no_qt():
    code = (
        "import sys, gpudemo.cli, gpudemo.display, gpudemo.measure_cli, gpudemo.core.compare, gpudemo.core.sweep, gpudemo.core.training, gpudemo.core.devices, gpudemo.core.prediction;"
        f"print([m for m in sys.modules if m.startswith({QT!r})])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
