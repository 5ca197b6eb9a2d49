"""Windows' 150 % on a 1366 x 768 laptop, emulated: Qt scaled by QT_SCALE_FACTOR=1.5 (read once, when the
application starts, so in a child process of its own), on a screen of 911 x 485 logical pixels (1366 x 728
device pixels: the screen less a 40-px taskbar). The child runs the small-screen walks at that size: every
view reached, both lessons walked step by step with their buttons on the screen (test_window_desktop.py,
test_lesson_layout.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_emulated_windows_150_percent_on_1366_by_768_every_view_and_both_lessons_fit():
    walks = [
        "tests/ui/shell/test_window_desktop.py::test_every_view_is_reachable_on_a_small_screen",
        "tests/ui/shell/test_lesson_layout.py::test_every_step_of_both_lessons_fits_the_screen",
        "tests/ui/shell/test_window_desktop.py::test_the_window_is_drawn_at_the_scale_qt_is_given",
    ]
    env = {**os.environ, "QT_SCALE_FACTOR": "1.5", "QT_QPA_PLATFORM": "offscreen"}
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    done = subprocess.run(
        [*pytest, "-k", "911 or scale_qt", *walks], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "4 passed" in done.stdout, done.stdout[-2000:]  # the scale, the views, both lessons (fresh, laid out)
