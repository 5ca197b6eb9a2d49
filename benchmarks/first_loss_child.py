"""Run as a subprocess: the real program through main(). Start is pressed the moment the window
shows (while PyTorch still loads: the run waits for it), then again for later runs; prints one JSON
object with the seconds from each press of Start to the first loss drawn into the curve, and from the
process's launch to the first one."""

import json
import os
import sys
import time

from PySide6.QtCore import QTimer

from gpudemo.cli.window import run_window
from gpudemo.ui.jobs.training_job import TrainingJob
from gpudemo.ui.main_window import MainWindow

LATER_RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
pressed: list[float] = []
launched: list[float] = []
drawn: list[float] = []
original_start, original_redraw = MainWindow.start_training, TrainingJob.redraw


def start_training(self):
    pressed.append(time.perf_counter())
    original_start(self)


def redraw(self, final=False):
    original_redraw(self, final)
    if self.session.current is not None and self.session.current.count > 0 and len(drawn) < len(pressed):
        drawn.append(time.perf_counter())
        if len(drawn) == 1:  # from the process's launch (the parent's clock, GPUDEMO_LAUNCHED_AT)
            launched.append(time.time() - float(os.environ.get("GPUDEMO_LAUNCHED_AT", "nan")))
        self.stop()  # one point is all this measures


def next_run(self):
    if len(pressed) <= LATER_RUNS:
        QTimer.singleShot(100, self.start_training)
    else:
        print(
            json.dumps(
                {
                    "first": drawn[0] - pressed[0],
                    "launch": launched[0],
                    "later": [d - p for d, p in zip(drawn[1:], pressed[1:], strict=True)],
                }
            ),
            flush=True,
        )
        self.close()


def on_shown(self):
    self.epochsSpin.setValue(10_000_000)
    self.runFinished.connect(lambda: next_run(self))
    QTimer.singleShot(0, self.start_training)


MainWindow.start_training, TrainingJob.redraw = start_training, redraw
sys.exit(run_window(on_shown=on_shown))
