"""The benchmark suite runs (tiny sizes) and writes its table as JSON; the figures are not judged here."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.gui  # the window's benchmarks open the window
def test_the_benchmark_suite_runs(tmp_path):
    out_json = tmp_path / "bench.json"
    command = [
        sys.executable,
        "-m",
        "benchmarks",
        "--quick",
        "--only",
        "headless",
        "window",
        "first_loss",
        "large",
        "scale",
        "classes",
        "timeline",
        "gpu",
        "steps",
        "--json",
        str(out_json),
    ]
    # As a shell without a display starts it (the suite's offscreen setting not passed on: the benchmarks set their
    # own), in a session of its own: on a timeout the harness and the children it started all go.
    shell = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True, env=shell
    ) as child:
        try:
            stdout, stderr = child.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            raise
    assert child.returncode == 0, stderr
    rows = json.loads(out_json.read_text())["rows"]
    figures = {row["figure"] for row in rows}
    assert "headless: core / bare" in figures and "window: window / bare" in figures
    assert "scale: loss history" in figures
    assert "digits: gpudemo / bare" in figures and "boundary 128x128: whole frame, p95" in figures
    assert "timeline: 1,000 events shown and painted" in figures
    assert "steps: tutorial compiled / eager (cpu)" in figures  # the step modes, on the CPU: eager and compiled
    assert "first loss: Start to first point, later run" in figures
    assert "window: window / headless core" in figures and "large: core / bare" in figures
    assert all(isinstance(row["value"], (int, float)) or row["value"] is None for row in rows)
    assert "headless: core / bare" in stdout
