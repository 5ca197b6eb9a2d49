"""4. Process start to window shown, against `python -c "import torch"` on the same machine."""

import os
import subprocess
import sys
import time

from benchmarks.stats import median


def _time_to_shown() -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.startup_child"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    for line in child.stdout:
        if line.startswith("SHOWN"):
            elapsed = time.perf_counter() - start
            break
    else:
        raise RuntimeError("the window never showed")
    child.wait(timeout=60)
    return elapsed


def _time_import_torch() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import torch"], check=True)
    return time.perf_counter() - start


def run(repeats: int = 5) -> list[dict]:
    _time_import_torch()  # warm the file cache for both
    _time_to_shown()
    shown, torch_only, ratios = [], [], []
    for _ in range(repeats):
        a, b = _time_to_shown(), _time_import_torch()
        shown.append(a)
        torch_only.append(b)
        ratios.append(a / b)
    return [
        {"figure": 'start-up: python -c "import torch"', "value": median(torch_only), "unit": "s"},
        {"figure": "start-up: process start to window shown", "value": median(shown), "unit": "s"},
        {
            "figure": "start-up: window / import torch",
            "value": median(ratios),
            "unit": "x",
            "target": "<= 1.5",
            "ok": median(ratios) <= 1.5,
        },
    ]
