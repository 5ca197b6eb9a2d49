"""Compare: the same run on every device, loss against wall-clock seconds, and a table of speeds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.base import units as fmt
from gpudemo.core.settings.rules import PRECISION_KEYS
from gpudemo.ui.base import theme
from gpudemo.ui.base.i18n import say, status_text
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.plot_style import colour, new_plot

if TYPE_CHECKING:
    from gpudemo.core.measure.compare import CompareProgress, DeviceTiming

FORM, BESIDE_FP32, EVERY = "form", "beside-fp32", "every"


class CompareView(QWidget):
    COLUMNS = ("device", "status", "epochs/s", "time", "final loss", "speedup vs CPU", "J/epoch", "above idle")
    ENERGY = (6, 7)  # shown when the comparison metered energy

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.plot = new_plot("comparePlot", self.tr("wall-clock seconds"), self.tr("loss"), self.tr("Compare plot"))
        self.plot.getPlotItem().setLogMode(y=True)
        self.plot.getPlotItem().getAxis("left").enableAutoSIPrefix(False)
        self.legend = self.plot.getPlotItem().addLegend(
            offset=(-10, 10), labelTextColor=theme.current().text, brush=pg.mkBrush(*theme.current().legend_fill)
        )
        self.table = QTableWidget(0, len(self.COLUMNS), objectName="compareTable")
        self.table.setAccessibleName(self.tr("The same run on each device, timed"))
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("device"),
                self.tr("status"),
                self.tr("epochs/s"),
                self.tr("time"),
                self.tr("final loss"),
                self.tr("speedup"),
                self.tr("J/epoch"),
                self.tr("above idle"),
            ]
        )
        # Short, so that six columns fit a narrow view whole; the tip says against what.
        self.table.horizontalHeaderItem(5).setToolTip(self.tr("How many times as fast as the CPU"))
        self.table.horizontalHeaderItem(6).setToolTip(
            self.tr("Joules an epoch of the step took, metered by the device's energy counter, idle power included")
        )
        self.table.horizontalHeaderItem(7).setToolTip(
            self.tr("The joules an epoch added above the device's idle power (metered for 1 s before)")
        )
        for column in self.ENERGY:
            self.table.setColumnHidden(column, True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMaximumHeight(170)
        self.precisionsCombo = QComboBox(objectName="comparePrecisionsCombo")
        self.precisionsCombo.setAccessibleName(self.tr("Precisions to compare"))
        for key, title in (
            (FORM, self.tr("in the form's precision")),
            (BESIDE_FP32, self.tr("fp32 and the form's precision, side by side")),
            (EVERY, self.tr("in fp32, tf32, bf16 and fp16, side by side")),
        ):
            self.precisionsCombo.addItem(title, key)
        self.precisionsCombo.setToolTip(
            self.tr(
                "Run the comparison in more than one precision: each device runs the same settings in each, its curves"
                " and rows side by side. A precision a device cannot do is a failed row with the reason"
            )
        )
        self.precisionsCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.precisionsCombo.setMinimumContentsLength(16)
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Compare every device")))
        controls.addWidget(self.precisionsCombo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(controls)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.table)
        self._curves: dict[str, tuple[pg.PlotDataItem, list[float], list[float]]] = {}

    def precisions(self, form: str) -> list[str] | None:
        """The precisions to compare in, given the form's: None for the form's alone."""
        choice = self.precisionsCombo.currentData()
        if choice == EVERY:
            return list(PRECISION_KEYS)
        if choice == BESIDE_FP32 and form != "fp32":
            return ["fp32", form]
        return None

    def begin(self) -> None:
        for curve, _, _ in self._curves.values():
            self.plot.getPlotItem().removeItem(curve)
        self._curves.clear()
        self.legend.clear()
        self.table.setRowCount(0)

    def add(self, progress: CompareProgress) -> None:
        if progress.label not in self._curves:
            pen = pg.mkPen(colour(len(self._curves)), width=2)
            curve = pg.PlotDataItem(pen=pen, antialias=False, connect="finite", name=progress.label)
            self.plot.getPlotItem().addItem(curve)
            self._curves[progress.label] = (curve, [], [])
        _curve, times, losses = self._curves[progress.label]
        times.append(progress.seconds)
        # the log axis has no place for 0 or a diverged loss: leave those points out
        losses.append(progress.loss if np.isfinite(progress.loss) and progress.loss > 0 else np.nan)

    def redraw(self) -> None:
        for curve, times, losses in self._curves.values():
            curve.setData(np.array(times, dtype=np.float64), np.array(losses, dtype=np.float64))

    def end(self, timings: list[DeviceTiming]) -> None:
        self.redraw()
        describe(
            self.plot,
            self.tr("Each run's loss against wall-clock seconds: {runs}.").format(
                runs="; ".join(
                    f"{timing.label} {status_text(timing.status)}"
                    + ("" if timing.seconds is None else f", {fmt.duration(timing.seconds)}")
                    for timing in timings
                )
            ),
        )
        self.table.setRowCount(len(timings))
        metered = any(timing.energy is not None for timing in timings)
        for column in self.ENERGY:
            self.table.setColumnHidden(column, not metered)
        for row, timing in enumerate(timings):
            speedup = "-" if timing.speedup_vs_cpu is None else f"{timing.speedup_vs_cpu:.2f}×"
            figures = timing.energy.figures if timing.energy is not None else None
            cells = (
                timing.label,
                status_text(timing.status),
                "-" if timing.epochs_per_second is None else fmt.rate(timing.epochs_per_second),
                "-" if timing.seconds is None else fmt.duration(timing.seconds),
                fmt.loss(timing.final_loss),
                speedup,
                "-" if figures is None else f"{figures.joules_per_epoch:.3g}",
                "-" if figures is None else f"{figures.above_idle_per_epoch:.3g}",
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if timing.message:
                    item.setToolTip(say(timing.message))
                elif column in self.ENERGY and timing.energy is not None and figures is None:
                    item.setToolTip(self.tr("Not metered: {reason}").format(reason=say(timing.energy.reason)))
                elif column in self.ENERGY and figures is not None:
                    item.setToolTip(
                        self.tr("{source}: the step {calls}× over {seconds} s, {watts} W idle").format(
                            source=figures.source,
                            calls=f"{figures.calls:,}",
                            seconds=f"{figures.seconds:.1f}",
                            watts=f"{figures.idle_watts:.3g}",
                        )
                    )
                elif timing.busy and column == 2:
                    item.setText(f"{text} *")
                    item.setToolTip(
                        self.tr(
                            "* Timed while other programs took the cores this device's threads needed: the"
                            " figure is too"
                            " slow. Close them and compare again."
                        )
                    )
                self.table.setItem(row, column, item)
