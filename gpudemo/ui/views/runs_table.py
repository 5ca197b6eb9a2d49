"""The runs table: a row per kept run, the newest at the top; its box shows or hides the run's curves."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from gpudemo.core.base import units as fmt
from gpudemo.core.session.runs import LOADED, Run
from gpudemo.core.training import FAILED
from gpudemo.ui.base.i18n import name_text, say, status_text
from gpudemo.ui.views.plot_style import colour


def _swatch(hex_colour: str) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(QColor(hex_colour))
    return QIcon(pixmap)


class RunsTable(QTableWidget):
    COLUMNS = (
        "run",
        "device",
        "problem",
        "optimizer",
        "lr",
        "batch",
        "epochs run",
        "status",
        "final loss",
        "accuracy",
        "time",
        "epochs/s",
    )
    RIGHT = {"lr", "batch", "epochs run", "final loss", "accuracy", "time", "epochs/s"}

    runSelected = Signal(object)  # the Run whose row is selected, or None
    shownToggled = Signal(object, bool)  # a run's box was ticked or cleared

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, len(self.COLUMNS), parent)
        self.setObjectName("runsTable")
        self.setAccessibleName(self.tr("Runs: one row per run kept, its box shows it on the loss plot"))
        self.setHorizontalHeaderLabels(
            [
                self.tr("run"),
                self.tr("device"),
                self.tr("problem"),
                self.tr("optimizer"),
                self.tr("lr"),
                self.tr("batch"),
                self.tr("epochs run"),
                self.tr("status"),
                self.tr("final loss"),
                self.tr("accuracy"),
                self.tr("time"),
                self.tr("epochs/s"),
            ]
        )
        for name, tip in (
            ("lr", self.tr("learning rate")),
            ("batch", self.tr("samples per optimizer step (full: all of them)")),
            (
                "accuracy",
                self.tr(
                    "a classification's share of training samples right (the final model's"
                    " once it ended); for the digits also of the 360 test images"
                ),
            ),
            ("time", self.tr("seconds trained, pauses left out")),
        ):
            self.horizontalHeaderItem(self.COLUMNS.index(name)).setToolTip(tip)
        header = self.horizontalHeader()
        # Sized to the contents when a row comes or a run ends, not at every live update (a relayout each time).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(22)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self._runs: list[Run] = []  # in row order: the newest first
        self.itemSelectionChanged.connect(self._on_selection)
        self.itemChanged.connect(self._on_item_changed)

    def add(self, run: Run) -> None:
        self._runs.insert(0, run)
        self.blockSignals(True)  # filling the row is not a tick of its box
        self.insertRow(0)
        for column, name in enumerate(self.COLUMNS):
            item = QTableWidgetItem()
            if name in self.RIGHT:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.setItem(0, column, item)
        first = self.item(0, 0)
        first.setFlags(first.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        first.setCheckState(Qt.CheckState.Checked)
        first.setIcon(_swatch(colour(run.number - 1)))
        first.setToolTip(self.tr("Tick to show this run on the loss plot, clear to hide it"))
        self.blockSignals(False)
        self.update_run(run)
        self.resizeColumnsToContents()

    def remove(self, run: Run) -> None:
        if run in self._runs:
            row = self._runs.index(run)
            self._runs.pop(row)
            self.removeRow(row)

    def runs(self) -> list[Run]:
        return list(self._runs)

    def row_of(self, run: Run) -> int:
        return self._runs.index(run)

    def update_run(self, run: Run) -> None:
        """Write the run's figures into its row."""
        if run not in self._runs:
            return
        row = self._runs.index(run)
        config = run.config
        loss = run.final_loss
        cells = (
            f"#{run.number}",
            config.device,
            name_text(config.problem),
            name_text(config.optimizer),
            f"{config.lr:g}",
            self.tr("full") if config.batch_size == 0 else f"{config.batch_size:,}",
            f"{run.model_epochs:,}" if run.status == LOADED else f"{run.count:,} / {config.epochs:,}",
            status_text(run.status),
            fmt.loss(loss) if loss is not None else "-",
            self._accuracy(run),
            fmt.duration(run.seconds) if run.count else "-",
            fmt.rate(run.rate) if run.rate > 0 and math.isfinite(run.rate) else "-",
        )
        self.blockSignals(True)
        for column, text in enumerate(cells):
            item = self.item(row, column)
            if item.text() != text:
                item.setText(text)
        if run.status == FAILED:
            self.item(row, self.COLUMNS.index("status")).setToolTip(say(run.message))
        self.blockSignals(False)
        if not run.is_live:
            self.resizeColumnsToContents()

    def _accuracy(self, run: Run) -> str:
        accuracy = run.final_accuracy
        if accuracy is None:
            return "-"
        if run.test_accuracy is None:
            return f"{accuracy:.1%}"
        return self.tr("{train} · test {test}").format(train=f"{accuracy:.1%}", test=f"{run.test_accuracy:.1%}")

    def set_shown(self, run: Run, shown: bool) -> None:
        if run in self._runs:
            state = Qt.CheckState.Checked if shown else Qt.CheckState.Unchecked
            item = self.item(self._runs.index(run), 0)
            if item.checkState() != state:
                self.blockSignals(True)
                item.setCheckState(state)
                self.blockSignals(False)

    def is_shown(self, run: Run) -> bool:
        return self.item(self._runs.index(run), 0).checkState() == Qt.CheckState.Checked

    def selected_run(self) -> Run | None:
        rows = self.selectionModel().selectedRows()
        return self._runs[rows[0].row()] if rows else None

    def select(self, run: Run | None) -> None:
        if run is None:
            self.clearSelection()
        else:
            self.selectRow(self._runs.index(run))

    @Slot()
    def _on_selection(self) -> None:
        self.runSelected.emit(self.selected_run())

    @Slot(QTableWidgetItem)
    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() == 0:
            self.shownToggled.emit(self._runs[item.row()], item.checkState() == Qt.CheckState.Checked)
