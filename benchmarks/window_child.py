"""Run inside a subprocess (offscreen Qt): the window's runs against the bare loop, interleaved,
with a 10 ms GUI timer's gaps measured during each window run. Prints one JSON object."""

import json
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks.bare import bare_loop  # noqa: E402
from gpudemo.core.training import warm_up  # noqa: E402
from gpudemo.ui import MainWindow  # noqa: E402


def main(epochs: int, repeats: int) -> dict:
    app = QApplication([])
    warm_up()
    window = MainWindow()
    window.resize(1760, 860)
    window.show()
    app.processEvents()
    results, gaps, last = [], [], [0.0]

    def tick():
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1e3)
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    window._controller.succeeded.connect(lambda result: results.append(result.epochs_per_second))
    bares, windows, ratios = [], [], []
    window.epochsSpin.setValue(epochs)
    for _ in range(repeats):
        bare = bare_loop(epochs)
        loop = QEventLoop()
        window.runFinished.connect(loop.quit)
        last[0] = time.perf_counter()
        timer.start()
        window.start_training()
        loop.exec()
        timer.stop()
        window.runFinished.disconnect(loop.quit)
        bares.append(bare)
        windows.append(results[-1])
        ratios.append(results[-1] / bare)
    window.close()
    return {"bare": bares, "window": windows, "ratios": ratios, "gaps_ms": gaps}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
