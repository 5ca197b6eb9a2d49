"""The benchmark suite runs (tiny sizes) and writes its table as JSON; the figures are not judged here."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_benchmark_suite_runs(tmp_path):
    out_json = tmp_path / "bench.json"
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--only", "headless", "window", "first_loss", "large", "scale", "gpu",
         "--json", str(out_json)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out_json.read_text())["rows"]
    figures = {row["figure"] for row in rows}
    assert "headless: core / bare" in figures and "window: window / bare" in figures
    assert "scale: loss history" in figures
    assert "first loss: Start to first point, later run" in figures
    assert "window: window / headless core" in figures and "large: core / bare" in figures
    assert all(isinstance(row["value"], (int, float)) or row["value"] is None for row in rows)
    assert "headless: core / bare" in out.stdout
