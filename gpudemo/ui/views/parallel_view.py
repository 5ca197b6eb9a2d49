"""Data parallel: the form's run on 1, 2, ... workers in turn, epochs/s against workers beside ideal scaling.

Each worker is a process with its shard of the data; DistributedDataParallel all-reduces
the gradients at every step (core/distributed/launcher.py). The table says what each count gained and
what share of a step went to the all-reduce: the lesson is that more workers only pay when
each one's step is large beside that cost.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from gpudemo.core.base import units as fmt
from gpudemo.core.base.messages import Message
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.measurement_tab import MeasurementTab
from gpudemo.ui.views.plot_style import colour

if TYPE_CHECKING:
    from gpudemo.core.distributed.launcher import ParallelResult


class ParallelView(MeasurementTab):
    def __init__(self, parent: QWidget | None = None):
        super().__init__("parallel", QCoreApplication.translate("ParallelView", "Data parallel plot"), parent)
        self.set_axes(self.tr("workers"), self.tr("epochs per second"))
        item = self.plot.getPlotItem()
        self.measured = pg.PlotDataItem(
            pen=pg.mkPen(colour(0), width=2), symbol="o", symbolSize=8, symbolBrush=colour(0), name=self.tr("measured")
        )
        self.ideal = pg.PlotDataItem(
            pen=pg.mkPen(colour(6), width=1, style=Qt.PenStyle.DashLine),
            name=self.tr("ideal: one worker's rate × workers"),
        )
        item.addItem(self.ideal)
        item.addItem(self.measured)
        self.table = QTableWidget(0, 5, objectName="parallelTable")
        self.table.setAccessibleName(self.tr("The run on each number of workers"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("workers"), self.tr("epochs/s"), self.tr("speedup"), self.tr("all-reduce"), self.tr("final loss")]
        )
        self.table.horizontalHeaderItem(3).setToolTip(
            self.tr(
                "The share of a forward and backward spent all-reducing the gradients (and waiting for the slowest"
                " worker): the same steps timed with DDP's all-reduce and without it"
            )
        )
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMaximumHeight(170)
        self.button.setToolTip(
            self.tr(
                "Run the form's settings with DistributedDataParallel on 1, 2, ... workers in turn: each a process with"
                " its shard of the data, the gradients all-reduced at every step. On 3 samples more workers are slower"
                " (the all-reduce costs more than the step); on 1,000,000 they are faster"
            )
        )
        self.body.addWidget(self.table)
        self._results: list[ParallelResult] = []
        self.begin(None, 0)

    def begin(self, backend: str | None, most: int) -> None:
        """A new measurement with `backend` on 1 to `most` workers (None: nothing measured yet)."""
        self._results = []
        self.measured.setData([], [])
        self.ideal.setData([], [])
        self.table.setRowCount(0)
        if backend is None:
            self.note.setText(
                self.tr(
                    "One run split over several workers: each trains on its shard of the data and DDP averages the"
                    " gradients at every step, so all take the same step. Press the button to run the form's settings"
                    " on 1, 2, ... workers."
                )
            )
        else:
            where = self.tr("GPUs, one each (nccl)") if backend == "nccl" else self.tr("CPU processes (gloo)")
            self.note.setText(self.tr("Running on 1 to {most} workers: {where}…").format(most=most, where=where))
        self.plot.getPlotItem().setXRange(0.8, max(2, most) + 0.2, padding=0)

    def add(self, result: ParallelResult) -> None:
        self._results.append(result)
        one = self._results[0].epochs_per_second
        workers = np.array([r.workers for r in self._results], dtype=np.float64)
        rates = np.array([r.epochs_per_second for r in self._results], dtype=np.float64)
        self.measured.setData(workers, rates)
        self.ideal.setData(workers, one * workers)
        row = self.table.rowCount()
        self.table.insertRow(row)
        speedup = result.epochs_per_second / one if one > 0 else math.nan
        cells = (
            str(result.workers),
            fmt.rate(result.epochs_per_second),
            f"{speedup:.2f}×",
            f"{result.allreduce_share:.0%}" if result.workers > 1 else "-",
            fmt.loss(result.final_loss) if result.final_loss is not None else "-",
        )
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)

    def end(self, complete: bool, uneven: Message | None = None) -> str:
        """Say what the measurement shows; `uneven`: why the workers' loss is not one worker's (an uneven split).
        That sentence, for the status line."""
        if len(self._results) < 2:
            if not complete:
                self.note.setText(self.tr("Stopped before two worker counts were measured."))
            return self.note.text()
        one, best = self._results[0], max(self._results, key=lambda r: r.epochs_per_second)
        if best is one:
            text = self.tr(
                "More workers were slower: each step's all-reduce ({share} of a step with {workers}"
                " workers) costs more than splitting the step saves. Try more samples."
            ).format(share=f"{self._results[-1].allreduce_share:.0%}", workers=self._results[-1].workers)
        else:
            text = self.tr(
                "{workers} workers train {speedup}× as fast as one: the step is large beside its"
                " all-reduce ({share} of a step)."
            ).format(
                workers=best.workers,
                speedup=f"{best.epochs_per_second / one.epochs_per_second:.2f}",
                share=f"{best.allreduce_share:.0%}",
            )
        if not complete:
            text = self.tr("Stopped. ") + text
        if uneven is not None:
            text += " " + self.tr("Note: {why}.").format(why=say(uneven))
        self.note.setText(text)
        describe(self.plot, text)
        return text

    def results(self) -> list[ParallelResult]:
        return list(self._results)
