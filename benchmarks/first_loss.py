"""6. From pressing Start to the first loss on the plot: the first run after launch (Start pressed
as the window shows, while PyTorch still loads: the run waits for it) and later runs in the same
process; and from the process's launch to that first point."""

import json
import os
import subprocess
import sys
import time

from benchmarks.stats import median


def _one_process(later_runs: int) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    env["GPUDEMO_LAUNCHED_AT"] = repr(time.time())
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.first_loss_child", str(later_runs)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(processes: int = 5, later_runs: int = 5) -> list[dict]:
    firsts, launches, laters = [], [], []
    for _ in range(processes):
        data = _one_process(later_runs)
        firsts.append(data["first"])
        launches.append(data["launch"])
        laters += data["later"]
    later = median(laters)
    return [
        {"figure": "first loss: Start to first point, first run", "value": median(firsts), "unit": "s"},
        {
            "figure": "first loss: launch to first point, Start pressed as the window shows",
            "value": median(launches),
            "unit": "s",
        },
        {
            "figure": "first loss: Start to first point, later run",
            "value": later,
            "unit": "s",
            "target": "<= 0.3",
            "ok": later <= 0.3,
        },
        {"figure": "first loss: later run, worst of all", "value": max(laters), "unit": "s"},
    ]
