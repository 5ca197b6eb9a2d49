"""2. A run driven from the window (offscreen) against the bare loop, and the GUI timer's gaps."""

import json
import subprocess
import sys

from benchmarks.stats import median, percentile


def run(epochs: int = 20_000, repeats: int = 7) -> list[dict]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.window_child", str(epochs), str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    ratio, gaps = median(data["ratios"]), data["gaps_ms"]
    core_ratio, share = median(data["core_ratios"]), median(data["gui_shares"])
    p50, p95, worst = percentile(gaps, 50), percentile(gaps, 95), max(gaps)
    return [
        {"figure": "window: bare tutorial loop, same process", "value": median(data["bare"]), "unit": "epochs/s"},
        {"figure": "window: run from the window", "value": median(data["window"]), "unit": "epochs/s"},
        {"figure": "window: headless core, same process", "value": median(data["core"]), "unit": "epochs/s"},
        {  # the path through the landscape, the fit and a pause's checks, as the window asks, with no window
            "figure": "window: headless core doing the window's work",
            "value": median(data["same_work"]),
            "unit": "epochs/s",
        },
        {"figure": "window: window / bare", "value": ratio, "unit": "x", "target": ">= 0.95", "ok": ratio >= 0.95},
        {
            "figure": "window: window / headless core",
            "value": core_ratio,
            "unit": "x",
            "target": ">= 0.95",
            "ok": core_ratio >= 0.95,
        },
        {  # what the GUI itself costs: the window's run against the core doing the same work headless
            "figure": "window: window / headless core doing its work",
            "value": median(data["same_ratios"]),
            "unit": "x",
        },
        {  # the GUI thread's own CPU time over the run's: the window's take of the machine (ui/jobs/frame_budget.py)
            "figure": "window: GUI thread's CPU share of a run",
            "value": share * 100,
            "unit": "%",
            "target": "<= 5",
            "ok": share <= 0.05,
        },
        {  # the same over the timed loop alone (its clock's start to its end), what the run's epochs/s feel
            "figure": "window: GUI thread's CPU share of the timed loop",
            "value": median(data["gui_loop_shares"]) * 100,
            "unit": "%",
        },
        {"figure": "window: 10 ms timer gap p50", "value": p50, "unit": "ms"},
        {"figure": "window: 10 ms timer gap p95", "value": p95, "unit": "ms", "target": "< 20", "ok": p95 < 20},
        {"figure": "window: 10 ms timer gap max", "value": worst, "unit": "ms", "target": "< 50", "ok": worst < 50},
    ]
