"""Run inside a subprocess (offscreen Qt): the plot at ten million epochs. Prints one JSON object.

A run of the window's session is filled batch by batch, as the training loop fills it
(a real 10,000,000-epoch run takes about half an hour here), with a loss-like curve plus
noise; each frame then shows 1,000 new epochs (a fast run at 20 frames a second).
"""

import json
import os
import resource
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gpudemo.core.hardware.devices import list_devices  # noqa: E402
from gpudemo.core.settings.config import TrainingConfig  # noqa: E402
from gpudemo.core.training import LossBatch  # noqa: E402
from gpudemo.core.training.landscape import bounds_around  # noqa: E402
from gpudemo.core.training.loss_grid import evaluate  # noqa: E402
from gpudemo.ui import MainWindow  # noqa: E402

PER_FRAME = 1000  # new epochs a frame shows


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def add(run, losses: np.ndarray) -> None:
    """What the training thread and the window do with a batch: into the histories, then to the run."""
    first = run.history.count + 1
    run.history.extend(losses)
    if run.path.count == 0:
        run.path.extend(np.array([[0.0, 0.5]], dtype=np.float32))
    # a path that spirals into (2, 0), as SGD with momentum does
    angle = np.arange(first, first + len(losses)) / 5e4
    radius = np.exp(-angle / 20)
    run.path.extend(np.stack([2 + radius * np.cos(angle), radius * np.sin(angle)], axis=1).astype(np.float32))
    run.add(LossBatch(first, losses, seconds=run.history.count * 1e-4))


def frame_ms(window, run, pending: np.ndarray, view="loss", frames=15) -> float:
    """Median cost of a frame that shows PER_FRAME new epochs: on the loss plot (envelope, smoothing,
    curve update and paint) or on the Loss landscape tab (the path's new points, the marker, the paint)."""
    refresh, plot = (
        (window.trainingView.refresh, window.lossPlot)
        if view == "loss"
        else (window.landscapeView.refresh, window.landscapePlot)
    )
    times = []
    for frame in range(frames):
        add(run, pending[frame * PER_FRAME : (frame + 1) * PER_FRAME])
        start = time.perf_counter()
        refresh(run)
        plot.grab()  # paint the plot as the screen would
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def slider_ms(window, weights=(0.6, 0.9, 0.3, 0.99)) -> float:
    """Median cost of moving the smoothing slider: every epoch smoothed again, then painted."""
    times = []
    for weight in weights:
        start = time.perf_counter()
        window.smoothingSlider.setValue(round(weight * 100))
        window.lossPlot.grab()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main(epochs: int) -> dict:
    app = QApplication([])
    window = MainWindow(devices=list_devices())  # what it measures is drawing, not the start-up
    window.resize(1760, 860)
    window.show()
    app.processEvents()
    before = rss_bytes()
    run = window.session.start(TrainingConfig(epochs=epochs))
    history_bytes = run.history.nbytes
    rng = np.random.default_rng(0)
    epoch = np.arange(1, epochs + 1, dtype=np.float64)
    losses = (10 * np.exp(-epoch / 3e5) + 1e-3 * rng.random(epochs)).astype(np.float32)
    del epoch
    frames = 15 * PER_FRAME  # the epochs each measurement's frames show
    early = None
    for start in range(0, epochs - 5 * frames, 50_000):
        add(run, losses[start : min(start + 50_000, epochs - 5 * frames)])
        if early is None and run.count >= 100_000:
            early = frame_ms(window, run, losses[run.count :])
    end = frame_ms(window, run, losses[run.count :])
    window.logScaleCheck.setChecked(True)
    end_log = frame_ms(window, run, losses[run.count :])
    window.logScaleCheck.setChecked(False)
    window.smoothingSlider.setValue(60)
    smoothed = frame_ms(window, run, losses[run.count :])
    slider = slider_ms(window)
    window.viewTabs.setCurrentWidget(window.landscapeView)
    run.landscape = evaluate(
        torch.tensor([[1.0], [2.0], [3.0]]),
        torch.tensor([[2.0], [4.0], [6.0]]),
        bounds_around(run.path.low, run.path.high, (2.0, 0.0)),
        (2.0, 0.0),
    )
    window.landscapeView.show_run(run)
    landscape = frame_ms(window, run, losses[run.count :], view="landscape")
    add(run, losses[run.count :])
    after = rss_bytes()
    window.smoothingSlider.setValue(60)
    session_bytes = window.session.nbytes
    window.close()
    return {
        "epochs": run.count,
        "history_bytes": history_bytes,
        "session_bytes": session_bytes,
        "refresh_early_ms": early,
        "refresh_end_ms": end,
        "refresh_end_log_ms": end_log,
        "refresh_end_smoothed_ms": smoothed,
        "slider_ms": slider,
        "landscape_ms": landscape,
        "path_bytes": run.path.nbytes,
        "rss_growth_bytes": after - before - losses.nbytes,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
