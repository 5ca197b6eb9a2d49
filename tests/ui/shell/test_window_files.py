"""A damaged settings file never stops the window from opening."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ui.windows import open_window

DAMAGED = [
    b"[General]\nversion=1\nform/epochs=\xff\xfe\n",
    b"[General]\nversion=1\n[form]\nepochs=-1\nlr=nan\nseed=x\n",
    b"[General]\nversion=1\n[window]\ngeometry=@ByteArray(\\0\\0garbage)\n",
    b"\x00" * 1000,
]


def _store(content: bytes):
    from PySide6.QtCore import QSettings

    from gpudemo.ui.shell.preferences import Preferences

    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "fuzzed"
    folder.mkdir(exist_ok=True)
    path = folder / "gpudemo.ini"
    path.write_bytes(content)
    return Preferences(QSettings(str(path), QSettings.Format.IniFormat))


def _usable(window) -> bool:
    """Every value the form holds passes the rules a person's input passes (InvalidSetting otherwise)."""
    from gpudemo.core.settings import rules

    config = window.trainingPanel.config("cpu")
    return rules.EPOCHS_MIN <= config.epochs <= rules.EPOCHS_MAX and rules.LR_MIN <= config.lr <= rules.LR_MAX


@pytest.mark.parametrize("content", DAMAGED)
def test_a_damaged_settings_file_opens_the_window_with_defaults(qtbot, content):
    window = open_window(qtbot, preferences=_store(content))
    assert window.isVisible() and _usable(window)
    window.close()


# The restore on one window, example after example (a window each took 22 s for 25 examples).
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=2000), st.text(max_size=2000).map(str.encode), st.sampled_from(DAMAGED)))
def test_whatever_the_settings_file_holds_the_form_keeps_usable_values(window, content):
    note = _store(content).restore(window)
    assert isinstance(note, str) and _usable(window)


def test_a_file_dialog_opens_in_documents_then_where_the_person_chose_last(qtbot, monkeypatch, tmp_path):
    # Not the current folder: a Windows app started from a shortcut has System32 or the venv there.
    from PySide6.QtCore import QStandardPaths
    from PySide6.QtWidgets import QFileDialog

    from gpudemo.ui.base import places

    monkeypatch.setattr(places, "_last_folder", None)
    window = open_window(qtbot)
    asked = []

    def dialog(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "mine" / "script.py"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    window.codePanel.save_dialog()
    window.codePanel.save_dialog()
    assert asked == [os.path.join(documents, "gpudemo_run.py"), str(tmp_path / "mine" / "gpudemo_run.py")]
