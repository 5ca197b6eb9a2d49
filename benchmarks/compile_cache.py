"""The next day's compile: torch.compile's caches kept in the user's cache folder (core/step/compile_cache.py).

Each figure is a `gpudemo train --step compiled --json` of its own (a new process, as a learner opens the
app), its `compile_seconds`: cold (an empty cache folder, an empty temporary folder), then the next day
(the same cache folder, a new empty temporary folder: what a reboot leaves), then the next day as torch
alone would have it (the caches in the temporary folder, which a reboot empties: cold again).
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.stats import median

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.5  # the next day's compile at most this share of the first


def _compile_seconds(cache: str, temporary: str, epochs: int) -> float:
    env = {**os.environ, "TMPDIR": temporary}
    for variable in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
        env.pop(variable, None)
    env["XDG_CACHE_HOME"] = cache
    command = [sys.executable, "-m", "gpudemo", "train", "--device", "cpu", "--step", "compiled"]
    done = subprocess.run(
        [*command, "--epochs", str(epochs), "--json"], capture_output=True, text=True, timeout=600, env=env, cwd=ROOT
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout)["compile_seconds"]


def run(repeats: int = 2, epochs: int = 20) -> list[dict]:
    cold, next_day = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as day1:
            cold.append(_compile_seconds(cache, day1, epochs))
            with tempfile.TemporaryDirectory() as day2:
                next_day.append(_compile_seconds(cache, day2, epochs))
    ratio = median(next_day) / median(cold)
    return [
        {"figure": "compile: the tutorial's step, cold (cpu)", "value": median(cold), "unit": "s"},
        {"figure": "compile: the next day, temporary folder emptied (cpu)", "value": median(next_day), "unit": "s"},
        {
            "figure": "compile: next day / cold",
            "value": ratio,
            "unit": "x",
            "target": f"<= {TARGET}",
            "ok": ratio <= TARGET,
        },
    ]
