"""A guard against PySide6 releases that drop references to None, True or False.

PySide6 6.12.0 on Python 3.11 loses one reference to None in many void Qt calls
(QPainter.setPen, QLabel.setText, QWidget.update, ...). A live plot makes
thousands of them a second, frees None and kills the process ("none_dealloc")
within a minute. Python 3.12 made None immortal, where the count cannot fall.
This catches such a release in seconds.
"""

import gc
import sys

import numpy as np
from PySide6.QtWidgets import QLabel

from gpudemo.core.training.history import LossHistory
from gpudemo.ui.views.loss_plot import LossCurve
from gpudemo.ui.views.plot_style import new_plot

CALLS = 300


def counts():
    gc.collect()
    return {name: sys.getrefcount(value) for name, value in (("None", None), ("True", True), ("False", False))}


def test_plot_refreshes_and_label_updates_keep_none_alive(qtbot):
    widget = new_plot("lossPlot", "epoch", "loss")
    curve = LossCurve()
    widget.getPlotItem().addItem(curve)
    qtbot.addWidget(widget)
    label = QLabel()
    qtbot.addWidget(label)
    widget.resize(800, 500)
    widget.show()
    label.show()
    history = LossHistory(CALLS * 50)
    rng = np.random.default_rng(0)
    widget.grab()
    before = counts()
    for step in range(CALLS):
        history.extend(rng.random(50).astype(np.float32))
        curve.show_history(history, history.count)
        widget.grab()  # paints: hundreds of void QPainter calls
        label.setText(f"epoch {step}")
        label.update()
        # Look at every step, so that a leaking release fails here before None is freed
        # and the whole process dies. The bug loses hundreds a step; allow a little for
        # objects that come and go.
        now = {name: sys.getrefcount(value) for name, value in (("None", None), ("True", True), ("False", False))}
        for name in before:
            assert now[name] >= before[name] - 50, f"{name} lost {before[name] - now[name]} references by step {step}"
