"""A damaged settings file never stops the window from opening."""

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ui.windows import open_window


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    content=st.one_of(
        st.binary(max_size=2000),
        st.text(max_size=2000).map(str.encode),
        st.sampled_from(
            [
                b"[General]\nversion=1\nform/epochs=\xff\xfe\n",
                b"[General]\nversion=1\n[form]\nepochs=-1\nlr=nan\nseed=x\n",
                b"[General]\nversion=1\n[window]\ngeometry=@ByteArray(\\0\\0garbage)\n",
                b"\x00" * 1000,
            ]
        ),
    )
)
def test_a_damaged_settings_file_opens_the_window_with_defaults(qtbot, content):
    from PySide6.QtCore import QSettings

    from gpudemo.core import rules
    from gpudemo.ui.shell.preferences import Preferences

    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "fuzzed"
    folder.mkdir(exist_ok=True)
    path = folder / "gpudemo.ini"
    path.write_bytes(content)
    window = open_window(qtbot, preferences=Preferences(QSettings(str(path), QSettings.Format.IniFormat)))
    rules.parse_epochs(window.epochsSpin.value())
    rules.parse_learning_rate(window.lrInput.text())
    rules.parse_seed(window.seedInput.text())
    window.close()
