"""4. Process start to window shown, and to the devices listed, against `python -c "import torch"` on the
same machine. The window paints before PyTorch has loaded (ui/jobs/loader.py imports it after the first
paint): shown <= 0.5x the import, listed <= 1.3x."""

import os
import subprocess
import sys
import time

from benchmarks.stats import median


def _times() -> tuple[float, float]:
    """Seconds from the process's start to its window shown, and to its devices listed."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.startup_child"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    seen = {}
    for line in child.stdout:
        word = line.strip()
        if word in ("SHOWN", "LISTED"):
            seen[word] = time.perf_counter() - start
        if word == "LISTED":
            break
    child.wait(timeout=60)
    if set(seen) != {"SHOWN", "LISTED"}:
        raise RuntimeError(f"the window never showed or never listed its devices: {sorted(seen)}")
    return seen["SHOWN"], seen["LISTED"]


def _time_import_torch() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import torch"], check=True)
    return time.perf_counter() - start


def run(repeats: int = 5) -> list[dict]:
    _time_import_torch()  # warm the file cache for both
    _times()
    shown, listed, torch_only, shown_ratios, listed_ratios = [], [], [], [], []
    for _ in range(repeats):
        (a, b), c = _times(), _time_import_torch()
        shown.append(a)
        listed.append(b)
        torch_only.append(c)
        shown_ratios.append(a / c)
        listed_ratios.append(b / c)
    return [
        {"figure": 'start-up: python -c "import torch"', "value": median(torch_only), "unit": "s"},
        {"figure": "start-up: process start to window shown", "value": median(shown), "unit": "s"},
        {"figure": "start-up: process start to devices listed", "value": median(listed), "unit": "s"},
        {
            "figure": "start-up: window shown / import torch",
            "value": median(shown_ratios),
            "unit": "x",
            "target": "<= 0.5",
            "ok": median(shown_ratios) <= 0.5,
        },
        {
            "figure": "start-up: devices listed / import torch",
            "value": median(listed_ratios),
            "unit": "x",
            "target": "<= 1.3",
            "ok": median(listed_ratios) <= 1.3,
        },
    ]
