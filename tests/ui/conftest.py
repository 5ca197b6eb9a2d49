"""The window's tests: each is marked `gui`, so `-m "not gui"` leaves them out where Qt is missing."""

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.is_relative_to(config.rootpath / "tests" / "ui"):
            item.add_marker(pytest.mark.gui)
