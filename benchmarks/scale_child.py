"""Run inside a subprocess (offscreen Qt): the plot at ten million epochs. Prints one JSON object.

The history is filled through LossHistory.extend in batches, as the training loop fills it
(a real 10,000,000-epoch run takes about half an hour here), with a loss-like curve plus noise.
"""

import json
import os
import resource
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gpudemo.core.history import LossHistory  # noqa: E402
from gpudemo.ui import MainWindow  # noqa: E402


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def refresh_ms(window, history, count, frames=15) -> float:
    """Median cost of a frame that shows new epochs: envelope, curve update and paint."""
    times = []
    for frame in range(frames):
        start = time.perf_counter()
        window.lossCurve.show_history(history, count - frames + 1 + frame)
        window.lossPlot.grab()  # paint the plot as the screen would
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main(epochs: int) -> dict:
    app = QApplication([])
    window = MainWindow()
    window.resize(1760, 860)
    window.show()
    app.processEvents()
    window.lossPlot.getPlotItem().getViewBox().setXRange(1, epochs, padding=0.02)
    before = rss_bytes()
    history = LossHistory(epochs)
    rng = np.random.default_rng(0)
    batch = 50_000
    early = None
    for start in range(0, epochs, batch):
        chunk = np.arange(start + 1, min(epochs, start + batch) + 1, dtype=np.float64)
        history.extend((10 * np.exp(-chunk / 3e5) + 1e-3 * rng.random(len(chunk))).astype(np.float32))
        if early is None and history.count >= 100_000:
            early = refresh_ms(window, history, history.count)
    end = refresh_ms(window, history, history.count)
    window.logScaleCheck.setChecked(True)
    end_log = refresh_ms(window, history, history.count)
    after = rss_bytes()
    window.close()
    return {
        "epochs": epochs,
        "history_bytes": history.nbytes,
        "refresh_early_ms": early,
        "refresh_end_ms": end,
        "refresh_end_log_ms": end_log,
        "rss_growth_bytes": after - before,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
