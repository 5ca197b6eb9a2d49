"""Moving data: copy bandwidth against size, to the GPU and back, from pageable and from pinned memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QWidget

from gpudemo.core.settings.rules import TRANSFER_DIRECTIONS
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.measurement_tab import MeasurementTab
from gpudemo.ui.views.plot_style import colour

if TYPE_CHECKING:
    from gpudemo.core.measure.transfer import TransferResult, TransferRow

HOST_TO_DEVICE, DEVICE_TO_HOST = TRANSFER_DIRECTIONS

SERIES = (
    (HOST_TO_DEVICE, True, 0, Qt.PenStyle.SolidLine),
    (HOST_TO_DEVICE, False, 0, Qt.PenStyle.DashLine),
    (DEVICE_TO_HOST, True, 1, Qt.PenStyle.SolidLine),
    (DEVICE_TO_HOST, False, 1, Qt.PenStyle.DashLine),
)


class TransferView(MeasurementTab):
    def __init__(self, parent: QWidget | None = None):
        super().__init__("transfer", QCoreApplication.translate("TransferView", "Moving data plot"), parent)
        self.set_axes(self.tr("bytes per copy"), self.tr("GB/s"))
        item = self.plot.getPlotItem()
        item.setLogMode(x=True, y=True)
        names = {
            (HOST_TO_DEVICE, True): self.tr("to the GPU, pinned"),
            (HOST_TO_DEVICE, False): self.tr("to the GPU, pageable"),
            (DEVICE_TO_HOST, True): self.tr("back to the host, pinned"),
            (DEVICE_TO_HOST, False): self.tr("back to the host, pageable"),
        }
        self._curves = {}
        for direction, pinned, index, style in SERIES:
            curve = pg.PlotDataItem(
                pen=pg.mkPen(colour(index), width=2, style=style),
                symbol="o",
                symbolSize=5,
                symbolBrush=colour(index),
                name=names[(direction, pinned)],
            )
            item.addItem(curve)
            self._curves[(direction, pinned)] = curve
        self._rows: list[TransferRow] = []
        self.begin(None)

    def begin(self, device: str | None) -> None:
        self._rows = []
        for curve in self._curves.values():
            curve.setData([], [])
        if device is None:
            self.note.setText(
                self.tr(
                    "What .to(device) and .cpu() cost: every copy pays a fixed cost, then the link's bandwidth."
                    " Press the"
                    " button to time copies of 1 KiB to 1 GiB to the GPU and back, from ordinary (pageable) and from"
                    " pinned memory."
                )
            )
        else:
            self.note.setText(
                self.tr("Timing copies between this machine's memory and {device}…").format(device=device)
            )

    def add(self, row: TransferRow) -> None:
        self._rows.append(row)
        rows = [r for r in self._rows if (r.direction, r.pinned) == (row.direction, row.pinned)]
        self._curves[(row.direction, row.pinned)].setData(
            np.array([r.bytes for r in rows], dtype=np.float64), np.array([r.gb_per_second for r in rows])
        )

    def end(self, result: TransferResult) -> str:
        """Say what the copies showed under the plot; that sentence, for the status line."""
        if result.note:
            self.note.setText(
                self.tr(
                    "Nothing to move: torch sees no GPU here, so a tensor already lives where it is"
                    " computed (and pin_memory() needs CUDA)."
                )
            )
            return self.note.text()
        fixed, peak = result.fixed_cost(), result.peak()
        text = self.tr(
            "A copy costs at least {us} µs whatever its size: a thousand copies of 1 KiB take {ms} ms,"
            " while the bandwidth levels off near {peak} GB/s for large ones."
        ).format(us=f"{(fixed or 0) * 1e6:,.1f}", ms=f"{(fixed or 0) * 1e3:,.1f}", peak=f"{peak or 0:,.1f}")
        overlap = result.overlap
        if overlap is not None:
            sentence = (
                self.tr(
                    "With non_blocking=True from pinned memory, {hidden} of a copy hid behind compute"
                    " ({serial} ms one after the other, {together} ms at once)."
                )
                if overlap.hidden_part == "copy"
                else self.tr(
                    "With non_blocking=True from pinned memory, {hidden} of the compute hid behind a longer copy"
                    " ({serial} ms one after the other, {together} ms at once)."
                )
            )
            text += " " + sentence.format(
                hidden=f"{overlap.hidden:.0%}",
                serial=f"{overlap.serial_seconds * 1e3:,.2f}",
                together=f"{overlap.overlapped_seconds * 1e3:,.2f}",
            )
        if not result.complete:
            text = self.tr("Stopped. ") + text
        self.note.setText(text)
        describe(self.plot, text)
        return text
