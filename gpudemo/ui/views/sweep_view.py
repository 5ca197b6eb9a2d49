"""Sweep: throughput against size on each device, log-log, with the crossover marked."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.settings.rules import SWEEP_KINDS
from gpudemo.ui.base import theme
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.plot_style import colour, new_plot

if TYPE_CHECKING:
    from gpudemo.core.measure.requests import SweepRequest
    from gpudemo.core.measure.sweep import SweepResult, SweepRow

STEP = SWEEP_KINDS[0]  # core/measure/sweep.py's


class SweepView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.kindCombo = QComboBox(objectName="sweepKindCombo")
        self.kindCombo.setAccessibleName(self.tr("What to sweep"))
        self.kindCombo.addItem(self.tr("a training step of the form's problem, 10 to 10,000,000 samples"), "step")
        self.kindCombo.addItem(self.tr("an n × n matrix product, n from 16"), "matmul")
        self.dtypeCombo = QComboBox(objectName="sweepDtypeCombo")
        self.dtypeCombo.setAccessibleName(self.tr("Precision of the sweep"))
        self.dtypeCombo.addItem(self.tr("float32 (TF32 off)"), "float32")
        self.dtypeCombo.addItem(self.tr("TF32"), "tf32")
        self.dtypeCombo.addItem(self.tr("bfloat16"), "bfloat16")
        self.dtypeCombo.setToolTip(
            self.tr(
                "float32: full float32 arithmetic (PyTorch's default; a GPU's tensor cores are not used). TF32: float32"
                " data, but a GPU's matrix products round to 10-bit mantissas on its tensor cores, several"
                " times faster."
                " bfloat16: numbers of 16 bits, the tensor cores' fastest. On the CPU, TF32 is float32."
            )
        )
        self.button = QPushButton(objectName="sweepButton")  # bound to the window's sweep action
        self.button.setToolTip(self.tr("Time one step at growing sizes on every device; the CPU is the baseline"))
        self.plot = new_plot("sweepPlot", self.tr("size"), self.tr("throughput"), self.tr("GPU vs CPU plot"))
        self.plot.getPlotItem().setLogMode(x=True, y=True)
        self.legend = self.plot.getPlotItem().addLegend(
            offset=(10, 10), labelTextColor=theme.current().text, brush=pg.mkBrush(*theme.current().legend_fill)
        )
        self.rooflineCheck = QCheckBox(self.tr("Roofline"), objectName="rooflineCheck")
        self.rooflineCheck.setToolTip(
            self.tr(
                "Also count each size's arithmetic and memory traffic, and draw them against the device's limits: its"
                " peak FLOP/s and its memory's bandwidth (a known GPU's published figures, else measured here)."
            )
        )
        self.roofline_plot = new_plot(
            "rooflinePlot", self.tr("FLOP per byte moved"), self.tr("GFLOP/s achieved"), self.tr("Roofline plot")
        )
        self.roofline_plot.getPlotItem().setLogMode(x=True, y=True)
        self.roofline_plot.setVisible(False)
        self._roof_items: list[pg.GraphicsObject] = []
        self.energyCheck = QCheckBox(self.tr("J/epoch"), objectName="sweepEnergyCheck")
        self.energyCheck.setToolTip(
            self.tr(
                "A step sweep: also meter each size's joules per epoch with the device's energy counter (NVML on an"
                " NVIDIA GPU, RAPL on the CPU; 5 s more a size), drawn beside the speed, and find where the GPU"
                " uses less energy per epoch than the CPU. Where a device has no counter, the reason is said"
            )
        )
        self.energy_plot = new_plot(
            "sweepEnergyPlot", self.tr("samples"), self.tr("joules per epoch"), self.tr("Energy per epoch plot")
        )
        self.energy_plot.getPlotItem().setLogMode(x=True, y=True)
        self.energy_plot.setVisible(False)
        self._energy: dict[str, tuple[pg.PlotDataItem, list[int], list[float]]] = {}
        self._energy_marks: list[pg.GraphicsObject] = []
        self._plots = plots = QSplitter()
        plots.addWidget(self.plot)
        plots.addWidget(self.energy_plot)
        plots.addWidget(self.roofline_plot)
        plots.setChildrenCollapsible(False)
        self.summary = QLabel(objectName="sweepSummary")
        self.summary.setWordWrap(True)
        # The long item texts must not set the window's width: the combo shrinks, its list shows them whole.
        self.kindCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.kindCombo.setMinimumContentsLength(16)
        # Two rows: one would ask ~640 px, more than the view has beside the form on a 1024-wide screen.
        what = QHBoxLayout()
        what.addWidget(self.kindCombo, 1)
        how = QHBoxLayout()
        how.addWidget(self.dtypeCombo)
        how.addWidget(self.rooflineCheck)
        how.addWidget(self.energyCheck)
        how.addStretch(1)
        how.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(what)
        layout.addLayout(how)
        layout.addWidget(plots, 1)
        layout.addWidget(self.summary)
        self._series: dict[str, tuple[pg.PlotDataItem, list[int], list[float]]] = {}
        self._marks: list[pg.GraphicsObject] = []

    def kind(self) -> str:
        return self.kindCombo.currentData()

    def dtype(self) -> str:
        return self.dtypeCombo.currentData()

    def roofline(self) -> bool:
        return self.rooflineCheck.isChecked()

    def energy(self) -> bool:
        """Whether each size's energy is to be metered (a step sweep's)."""
        return self.energyCheck.isChecked() and self.kind() == STEP

    def begin(self, request: SweepRequest) -> None:
        """A new sweep: what was there cleared, the axes named for what `request` times."""
        kind, plot = request.kind, self.plot.getPlotItem()
        for curve, _, _ in self._series.values():
            plot.removeItem(curve)
        for mark in self._marks:
            plot.removeItem(mark)
        self._series.clear()
        self._marks.clear()
        energy = self.energy_plot.getPlotItem()
        for curve, _, _ in self._energy.values():
            energy.removeItem(curve)
        for mark in self._energy_marks:
            energy.removeItem(mark)
        self._energy.clear()
        self._energy_marks.clear()
        self.energy_plot.setVisible(False)
        for item in self._roof_items:
            self.roofline_plot.getPlotItem().removeItem(item)
        self._roof_items.clear()
        self.roofline_plot.setVisible(False)
        self.legend.clear()
        self.summary.setText("")
        plot.setLabel("bottom", self.tr("samples") if kind == STEP else self.tr("n (an n × n product)"))
        plot.setLabel("left", self.tr("samples per second") if kind == STEP else self.tr("GFLOP/s"))

    def add(self, row: SweepRow) -> None:
        if row.device not in self._series:
            colour_ = colour(len(self._series))
            curve = pg.PlotDataItem(
                pen=pg.mkPen(colour_, width=2),
                symbol="o",
                symbolSize=7,
                symbolBrush=colour_,
                symbolPen=None,
                name=row.device,
            )
            self.plot.getPlotItem().addItem(curve)
            self._series[row.device] = (curve, [], [])
        curve, sizes, throughputs = self._series[row.device]
        sizes.append(row.size)
        throughputs.append(row.throughput)
        curve.setData(np.array(sizes, dtype=np.float64), np.array(throughputs, dtype=np.float64))
        if row.energy is not None:
            self._add_joules(row)

    def _add_joules(self, row: SweepRow) -> None:
        """The row's joules per epoch on the energy plot, in its device's colour."""
        if row.device not in self._energy:
            colour_ = colour(list(self._series).index(row.device))
            curve = pg.PlotDataItem(
                pen=pg.mkPen(colour_, width=2), symbol="s", symbolSize=7, symbolBrush=colour_, symbolPen=None
            )
            self.energy_plot.getPlotItem().addItem(curve)
            self._energy[row.device] = (curve, [], [])
        curve, sizes, joules = self._energy[row.device]
        sizes.append(row.size)
        joules.append(row.energy.joules_per_epoch)
        curve.setData(np.array(sizes, dtype=np.float64), np.array(joules, dtype=np.float64))
        if not self.energy_plot.isVisibleTo(self):
            self._show_plot(self.energy_plot)

    def end(self, result: SweepResult, step: str) -> str:
        """Mark and name each device's crossover (in time, and in energy where metered), draw the roofs; say what
        the sweep found (core/measure/readings.py) under the plots. Where each one wins, for the status line."""
        from gpudemo.core.measure.readings import sweep_reading  # a sweep has run: PyTorch has loaded

        for device, size in result.crossover.items():
            if size is not None:
                label = self.tr("{device} wins from {size}").format(device=device, size=f"{size:,}")
                self._marks.append(self._mark(self.plot, device, size, label))
        for device, size in result.energy_crossover.items():
            if size is not None:
                label = self.tr("{device} uses less from {size}").format(device=device, size=f"{size:,}")
                self._energy_marks.append(self._mark(self.energy_plot, device, size, label))
        self._draw_roofline(result)
        reading = sweep_reading(result, step)
        said = " ".join(say(sentence) for sentence in reading.all)
        self.summary.setText(said)
        for plot in (self.plot, self.roofline_plot, self.energy_plot):
            describe(plot, said)
        return " ".join(say(sentence) for sentence in reading.wins)

    def _show_plot(self, plot: pg.PlotWidget) -> None:
        """Show `plot` beside the others, the splitter's width shared evenly (a plot shown late would otherwise
        get no room)."""
        plot.setVisible(True)
        shown = [not self._plots.widget(i).isHidden() for i in range(self._plots.count())]
        each = max(self._plots.width(), len(shown)) // max(sum(shown), 1)
        self._plots.setSizes([each if visible else 0 for visible in shown])

    def _mark(self, plot: pg.PlotWidget, device: str, size: int, label: str) -> pg.InfiniteLine:
        """A dashed line at `size` on `plot`, in `device`'s colour, named `label`."""
        index = list(self._series).index(device) if device in self._series else 0
        mark = pg.InfiniteLine(
            pos=math.log10(size),
            angle=90,
            pen=pg.mkPen(colour(index), width=1, style=pg.QtCore.Qt.PenStyle.DashLine),
            label=label,
            labelOpts={"position": 0.9, "color": colour(index), "fill": (255, 255, 255, 200)},
        )
        plot.getPlotItem().addItem(mark, ignoreBounds=True)
        return mark

    def _draw_roofline(self, result: SweepResult) -> None:
        """Each device's roofs and each size's point under them."""
        plot = self.roofline_plot.getPlotItem()
        devices = list(self._series)
        for device, peak in result.peaks.items():
            rows = [row for row in result.rows if row.device == device and row.work is not None and row.work.bytes]
            if not rows:
                continue
            colour_ = colour(devices.index(device) if device in devices else 0)
            intensities = [row.work.intensity for row in rows]
            low, high = min(intensities + [peak.ridge]) / 4, max(intensities + [peak.ridge]) * 4
            roof = pg.PlotDataItem(
                np.array([low, peak.ridge, high]),
                np.array([peak.roof(low), peak.flops_per_second, peak.flops_per_second]) / 1e9,
                pen=pg.mkPen(colour_, width=1, style=pg.QtCore.Qt.PenStyle.DashLine),
            )
            points = pg.PlotDataItem(
                np.array(intensities, dtype=np.float64),
                np.array([row.flops_per_second for row in rows]) / 1e9,
                pen=None,
                symbol="o",
                symbolSize=7,
                symbolBrush=colour_,
                symbolPen=None,
            )
            items = [roof, points]
            for row in (rows[0], rows[-1]):  # name the ends: the sizes between lie in order
                label = pg.TextItem(f"{row.size:,}", color=colour_, anchor=(0, 1))
                label.setPos(math.log10(row.work.intensity), math.log10(max(row.flops_per_second / 1e9, 1e-12)))
                items.append(label)
            for item in items:
                plot.addItem(item)
            self._roof_items += items
        if self._roof_items and not self.roofline_plot.isVisibleTo(self):
            self._show_plot(self.roofline_plot)
