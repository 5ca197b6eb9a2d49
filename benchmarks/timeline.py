"""The step timeline's drawing: 10,000 events (host operators and kernels, each kernel linked) shown
and painted by the Step profile tab's plot (ui.views.timeline_plot), and a real profiled step.

- draw: `show_timeline` plus a paint of the widget (`grab`), median over repeats, at 600 x 300;
  the events are made up (a realistic mix: four lanes of operators, half as many kernels as
  operators, each linked), so the figure is the drawing alone.
- profile: the tutorial's step profiled on the CPU, its timeline's events and operator share.
"""

import random
import time

from benchmarks.stats import median
from gpudemo.core.measure.timeline import LANES, Span, Timeline

TARGET_S = 0.5


def synthetic(events: int, seed: int = 0) -> Timeline:
    """`events` spans: two thirds host operators in LANES lanes, one third kernels each launched by one."""
    rng = random.Random(seed)
    host, kernels, clock = [], [], 0.0
    for _ in range(events * 2 // 3):
        duration = rng.uniform(0.5, 20.0)
        host.append(Span("aten::op", clock, duration, lane=rng.randrange(LANES)))
        clock += duration * 0.6
    for _ in range(events - len(host)):
        launcher = rng.randrange(len(host))
        kernels.append(Span("kernel", host[launcher].start_us + 5, rng.uniform(1.0, 30.0), launched_by=launcher))
    kernels.sort(key=lambda s: s.start_us)
    return Timeline("cuda:0", clock + 50, tuple(host), tuple(kernels), on_gpu=True)


def _draw_seconds(events: int, repeats: int) -> list[float]:
    from PySide6.QtWidgets import QApplication

    from gpudemo.ui.views.timeline_plot import TimelinePlot

    app = QApplication.instance() or QApplication([])
    plot = TimelinePlot()
    plot.resize(600, 300)
    timeline = synthetic(events)
    seconds = []
    for _ in range(repeats + 1):
        plot.clear()
        began = time.perf_counter()
        plot.show_timeline(timeline)
        plot.grab()  # paint it
        seconds.append(time.perf_counter() - began)
    app.processEvents()
    return seconds[1:]  # the first builds pyqtgraph's caches


def run(events: int = 10_000, repeats: int = 5) -> list[dict]:
    from gpudemo.core.measure.profile import profile_steps
    from gpudemo.core.settings.config import TrainingConfig

    drawn = median(_draw_seconds(events, repeats))
    timeline = profile_steps(TrainingConfig(), steps=5).timeline
    return [
        {
            "figure": f"timeline: {events:,} events shown and painted",
            "value": drawn,
            "unit": "s",
            "target": f"< {TARGET_S}",
            "ok": drawn < TARGET_S,
        },
        {"figure": "timeline: tutorial step on the cpu, host events", "value": len(timeline.host), "unit": "events"},
        {
            "figure": "timeline: tutorial step on the cpu, inside operators",
            "value": timeline.operator_share * 100,
            "unit": "%",
        },
    ]
