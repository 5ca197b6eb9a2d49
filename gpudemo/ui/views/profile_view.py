"""The Step profile tab: where one training step's time goes, on the chosen device (see core.profile)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.spoken import describe
from gpudemo.ui.views.timeline_plot import TimelinePlot

if TYPE_CHECKING:
    from gpudemo.core.measure.profile import StepProfile


class ProfileView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.summary = QLabel(objectName="profileSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, 4, objectName="profileTable")
        self.table.setAccessibleName(self.tr("Where a step's time goes, operator by operator"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("operation"), self.tr("calls / step"), self.tr("CPU µs / step"), self.tr("device µs / step")]
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.timeline = TimelinePlot()
        self.timeline_note = QLabel(objectName="timelineNote")
        self.timeline_note.setWordWrap(True)
        layout.addWidget(self.summary)
        layout.addWidget(self.timeline_note)
        layout.addWidget(self.timeline, 3)
        layout.addWidget(self.table, 2)
        self.begin()

    def begin(self) -> None:
        self.summary.setText(
            self.tr(
                "Press Profile a step to run a few steps of these settings under torch.profiler on the chosen"
                " device and"
                " see where a step's time goes: on the CPU side issuing work, or on the device computing it."
            )
        )
        self.table.setRowCount(0)
        self.timeline.clear()
        self.timeline_note.setText("")

    def end(self, profile: StepProfile, problem: str) -> None:
        from gpudemo.core.measure.readings import profile_reading  # a profile has run: PyTorch has loaded

        said = [say(sentence) for sentence in profile_reading(profile, problem)]
        self.summary.setText("\n".join(said))
        describe(self.timeline.plot, " ".join(said))
        self._show_timeline(profile)
        self.table.setRowCount(len(profile.ops))
        for row, op in enumerate(profile.ops):
            for column, text in enumerate((op.name, f"{op.calls:g}", f"{op.cpu_us:,.1f}", f"{op.device_us:,.1f}")):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)

    def _show_timeline(self, profile: StepProfile) -> None:
        timeline = profile.timeline
        if timeline is None:
            self.timeline.clear()
            self.timeline_note.setText("")
            return
        from gpudemo.core.measure.readings import timeline_reading

        self.timeline.show_timeline(timeline)
        self.timeline_note.setText(say(timeline_reading(timeline)))
