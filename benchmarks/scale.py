"""3. Ten million epochs in the window: bytes per epoch of the history, cost of a plot refresh,
with smoothing on, and of moving the smoothing slider."""

import json
import subprocess
import sys


def run(epochs: int = 10_000_000) -> list[dict]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.scale_child", str(epochs)], capture_output=True, text=True, check=True
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    per_epoch = data["history_bytes"] / epochs
    beyond = data["rss_growth_bytes"] - data["session_bytes"]
    return [
        {
            "figure": "scale: loss history",
            "value": per_epoch,
            "unit": "bytes/epoch",
            "target": "<= 8",
            "ok": per_epoch <= 8,
        },
        {"figure": "scale: plot refresh at 100,000 epochs", "value": data["refresh_early_ms"], "unit": "ms"},
        {
            "figure": f"scale: plot refresh at {epochs:,} epochs",
            "value": data["refresh_end_ms"],
            "unit": "ms",
            "target": "<= 10",
            "ok": data["refresh_end_ms"] <= 10,
        },
        {
            "figure": f"scale: plot refresh at {epochs:,} epochs, log axis",
            "value": data["refresh_end_log_ms"],
            "unit": "ms",
            "target": "<= 10",
            "ok": data["refresh_end_log_ms"] <= 10,
        },
        {
            "figure": f"scale: plot refresh at {epochs:,} epochs, smoothing 0.6",
            "value": data["refresh_end_smoothed_ms"],
            "unit": "ms",
            "target": "<= 10",
            "ok": data["refresh_end_smoothed_ms"] <= 10,
        },
        {
            "figure": f"scale: smoothing slider moved at {epochs:,} epochs",
            "value": data["slider_ms"],
            "unit": "ms",
            "target": "<= 200",
            "ok": data["slider_ms"] <= 200,
        },
        {
            "figure": f"scale: Loss landscape frame at {epochs:,} epochs (path, marker, paint)",
            "value": data["landscape_ms"],
            "unit": "ms",
            "target": "<= 10",
            "ok": data["landscape_ms"] <= 10,
        },
        {
            "figure": "scale: the path through the landscape",
            "value": data["path_bytes"] / epochs,
            "unit": "bytes/epoch",
            "target": "<= 16",
            "ok": data["path_bytes"] / epochs <= 16,
        },
        {
            "figure": "scale: the run's memory, smoothed curve and path included",
            "value": data["session_bytes"] / epochs,
            "unit": "bytes/epoch",
        },
        {"figure": "scale: process growth beyond the run", "value": beyond / 2**20, "unit": "MiB"},
    ]
