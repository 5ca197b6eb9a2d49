"""The window's tests: each is marked `gui`, so `-m "not gui"` leaves them out where Qt is missing; and the
windows they test."""

import pytest

from tests.ui.windows import CPU_ONLY, open_window


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.is_relative_to(config.rootpath / "tests" / "ui"):
            item.add_marker(pytest.mark.gui)


@pytest.fixture(autouse=True)
def cycles_between_events(qapp):
    """Python's cycles collected on the GUI thread between events, as the app has them (ui/base/cycles.py), and
    what is due at each test's end: left to Python, a collection inside a Qt call hung a window's construction
    for good (an old plot's menu destroyed under one of Qt's locks)."""
    from gpudemo.ui.base.cycles import collect_between_events

    collector = collect_between_events(qapp)
    yield
    collector.collect()


@pytest.fixture
def make_window(qtbot):
    """Opens a shown MainWindow on the devices given (the CPU alone by default); closed at the test's end."""
    return lambda devices=CPU_ONLY, **options: open_window(qtbot, devices, **options)


@pytest.fixture
def window(make_window):
    """A shown MainWindow on the CPU alone, closed (its jobs stopped) at the end of the test."""
    return make_window()


@pytest.fixture
def app_font():
    """The app's own font (11 points, as run_app sets it) for one test."""
    from PySide6.QtWidgets import QApplication

    from gpudemo.ui.app import readable_font

    app = QApplication.instance()
    default = app.font()
    app.setFont(readable_font(app.font()))
    yield
    app.setFont(default)
