"""Run inside a subprocess (offscreen Qt): the window's runs against the bare loop and the headless
core, interleaved, with a 10 ms GUI timer's gaps measured on window runs of their own. Prints one JSON object."""

import json
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from benchmarks.bare import bare_loop  # noqa: E402
from gpudemo.core.base.control import RunControl  # noqa: E402
from gpudemo.core.hardware.devices import list_devices  # noqa: E402
from gpudemo.core.settings.config import TrainingConfig  # noqa: E402
from gpudemo.core.training import TO_CPU, TRAINING, LoopOptions, train, warm_up  # noqa: E402
from gpudemo.core.training.landscape import PathHistory  # noqa: E402
from gpudemo.ui import MainWindow  # noqa: E402


def shown_window() -> tuple[QApplication, MainWindow]:
    """The app and its window, shown at a desktop's size, torch's training code loaded."""
    app = QApplication([])
    warm_up()
    window = MainWindow(devices=list_devices())  # torch is here already: no loading after the first paint
    window.resize(1760, 860)
    window.show()
    app.processEvents()
    return app, window


def main(epochs: int, repeats: int) -> dict:
    app, window = shown_window()
    results, gaps, last = [], [], [0.0]

    def tick():
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1e3)
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    window.job.controller.succeeded.connect(lambda result: results.append(result.epochs_per_second))
    bares, cores, windows, ratios, core_ratios, shares = [], [], [], [], [], []
    same_work, same_ratios = [], []
    window.epochsSpin.setValue(epochs)

    marks: dict[str, tuple[float, float]] = {}  # the timed loop's ends: (wall, the GUI thread's CPU time)

    def mark(phase: str) -> None:
        if phase in (TRAINING, TO_CPU):
            marks[phase] = (time.perf_counter(), time.thread_time())

    window.job.phaseChanged.connect(mark)  # emitted on the GUI thread: thread_time is the GUI thread's
    loop_shares = []

    def window_run(probe: bool) -> float:
        marks.clear()
        loop = QEventLoop()
        window.runFinished.connect(loop.quit)
        last[0] = time.perf_counter()
        if probe:
            timer.start()
        began, busy = time.perf_counter(), time.thread_time()  # this is the GUI thread: its own CPU time
        window.start_training()
        loop.exec()
        shares.append((time.thread_time() - busy) / (time.perf_counter() - began))
        (wall, cpu), (wall_end, cpu_end) = marks[TRAINING], marks[TO_CPU]
        loop_shares.append((cpu_end - cpu) / (wall_end - wall))
        timer.stop()
        window.runFinished.disconnect(loop.quit)
        return results[-1]

    for _ in range(repeats):
        bare = bare_loop(epochs)
        core = train(TrainingConfig(epochs=epochs)).epochs_per_second
        # The core doing what it does for the window (the path through the landscape, the fit, a pause's
        # checks), with no window: what the window's run costs beyond it is the GUI's.
        watched = LoopOptions(control=RunControl(), path=PathHistory(epochs), fit=True)
        same = train(TrainingConfig(epochs=epochs), watched).epochs_per_second
        # The speed is measured without the probe timer: its 100 wake-ups a second take the GIL too.
        shown = window_run(probe=False)
        bares.append(bare)
        cores.append(core)
        windows.append(shown)
        ratios.append(shown / bare)
        core_ratios.append(shown / core)
        same_work.append(same)
        same_ratios.append(shown / same)
    gui_shares = shares[:]  # the window's share of the runs timed (not of those with the probe timer)
    gui_loop_shares = loop_shares[:]
    for _ in range(max(1, repeats // 2)):  # the GUI's responsiveness, on runs of their own
        window_run(probe=True)
    window.close()
    return {
        "bare": bares,
        "core": cores,
        "window": windows,
        "ratios": ratios,
        "core_ratios": core_ratios,
        "same_work": same_work,
        "same_ratios": same_ratios,
        "gaps_ms": gaps,
        "gui_shares": gui_shares,
        "gui_loop_shares": gui_loop_shares,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
