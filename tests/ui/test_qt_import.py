"""PySide6's `__feature__` hook reads the source of every module imported after Qt; the window narrows that
reading to the packages that use Qt (gpudemo/ui/base/qt_import.py)."""

import subprocess
import sys
import types

from gpudemo.ui.base.qt_import import narrow_source_scan


def feature_scan():
    return sys.modules["shibokensupport.feature"]._mod_uses_pyside


def test_modules_outside_the_qt_users_are_not_read(monkeypatch):
    assert narrow_source_scan() and narrow_source_scan()  # found, and a second call keeps one narrowing
    read = []
    monkeypatch.setattr("inspect.getsource", lambda module: read.append(module.__name__) or "import PySide6")
    assert feature_scan()(types.ModuleType("torch._dynamo.eval_frame")) is False
    assert feature_scan()(types.ModuleType("numpy.linalg")) is False
    assert read == []


def test_the_qt_users_are_read_as_before():
    import gpudemo.core.settings.config
    import gpudemo.ui.main_window

    narrow_source_scan()
    assert feature_scan()(gpudemo.ui.main_window) is True  # it imports PySide6
    assert feature_scan()(gpudemo.core.settings.config) is False  # read, and it names no Qt


def _sources_kept(before_torch: str) -> set[str]:
    """The torch and numpy files whose text linecache holds after a child ran `before_torch`, then imported
    torch."""
    child = (
        f"{before_torch}\n"
        "import linecache, torch\n"
        "print('\\n'.join(name for name in linecache.cache if '/torch/' in name or '/numpy/' in name))\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_torch_imported_after_qt_has_only_the_sources_it_reads_itself_kept():
    alone = _sources_kept("")  # torch reads a dozen of its own (its config modules)
    narrowed = _sources_kept(
        "from gpudemo.ui.base.qt_import import narrow_source_scan\nnarrow_source_scan()\nimport pyqtgraph"
    )
    assert narrowed <= alone and len(alone) < 100  # PySide6's reading alone kept ~670 here
