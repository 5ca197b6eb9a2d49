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

from gpudemo.core.step.modes import MODES
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
        from gpudemo.core.measure.profile import HOST_BOUND, WARM_UP_STEPS  # PyTorch has loaded

        lines = [
            self.tr("{steps} steps of {problem} on {device}, after {warm} that were not profiled.").format(
                steps=profile.steps, problem=problem, device=profile.device, warm=WARM_UP_STEPS
            )
        ]
        if profile.device.startswith("mps"):
            lines.append(
                self.tr(
                    "On the Apple GPU (MPS), torch.profiler sees the CPU encoding Metal's commands, not the GPU's"
                    " own time: the figures below are the CPU's side of the step, and say nothing of how busy the"
                    " GPU was."
                )
            )
        if profile.on_gpu:
            lines.append(
                self.tr(
                    "Per step: {cpu} µs on the CPU side to issue it, {device} µs of GPU work in {kernels} kernels;"
                    " {wall} µs from start to the GPU done; {waiting} µs of it the CPU waited for the GPU (not work)."
                ).format(
                    cpu=f"{profile.cpu_us:,.1f}",
                    device=f"{profile.device_us:,.1f}",
                    kernels=f"{profile.kernels:,.0f}",
                    wall=f"{profile.wall_us:,.1f}",
                    waiting=f"{profile.waiting_us:,.1f}",
                )
            )
            lines.append(
                (
                    self.tr(
                        "The GPU computes {share} of the step and waits for the CPU the rest: the step is too"
                        " small to pay"
                        " for its launches; more samples per step (or a bigger model) would."
                    )
                    if profile.bound == HOST_BOUND
                    else self.tr("The GPU computes {share} of the step: the arithmetic dominates, as a GPU likes it.")
                ).format(share=f"{profile.busy_share:.0%}")
            )
            lines.append(
                self.tr(
                    "Honest timing: without torch.cuda.synchronize() a step seems to take {unsynced} µs, with"
                    " it {synced}"
                    " µs. Without it the clock stops when the CPU has queued the work, not when the GPU has done it:"
                    " {times}× too fast."
                ).format(
                    unsynced=f"{profile.cpu_us:,.1f}",
                    synced=f"{profile.wall_us:,.1f}",
                    times=f"{profile.overstated:,.1f}",
                )
            )
        else:
            lines.append(
                self.tr(
                    "Per step: {wall} µs on the CPU, timed alone; under the profiler, {device} µs inside {kernels}"
                    " PyTorch operator calls ({each} µs each, the profiler's own cost included)."
                ).format(
                    wall=f"{profile.wall_us:,.1f}",
                    device=f"{profile.device_us:,.1f}",
                    kernels=f"{profile.kernels:,.0f}",
                    each=f"{profile.per_kernel_us:,.1f}",
                )
            )
            lines.append(
                (
                    self.tr(
                        "An operator takes {each} µs: its fixed cost, not arithmetic. A GPU's kernel launch"
                        " costs about as"
                        " much, so a GPU cannot make this step faster."
                    )
                    if profile.bound == HOST_BOUND
                    else self.tr(
                        "An operator takes {each} µs: the arithmetic dominates, and a GPU, which does it in"
                        " parallel, would"
                        " make this step faster."
                    )
                ).format(each=f"{profile.per_kernel_us:,.1f}")
            )
        lines.append(self._launches(profile))
        self.summary.setText("\n".join(lines))
        describe(self.timeline.plot, " ".join(lines))
        self._show_timeline(profile)
        self.table.setRowCount(len(profile.ops))
        for row, op in enumerate(profile.ops):
            for column, text in enumerate((op.name, f"{op.calls:g}", f"{op.cpu_us:,.1f}", f"{op.device_us:,.1f}")):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)

    def _launches(self, profile: StepProfile) -> str:
        """The step mode profiled, and what the host paid per launch in it (a graph: one launch per replay)."""
        mode = say(MODES[profile.step].heading())
        if profile.on_gpu:
            text = self.tr("{mode}: {launches} launches a step, {each} µs of the host's time each.").format(
                mode=mode, launches=f"{profile.launches:,.2f}", each=f"{profile.host_us_per_launch:,.2f}"
            )
        else:  # a CPU launches nothing: it runs each operator itself
            text = self.tr("{mode}: {calls} operator calls a step, {each} µs of the CPU's time each.").format(
                mode=mode, calls=f"{profile.launches:,.0f}", each=f"{profile.host_us_per_launch:,.2f}"
            )
        if profile.graph_breaks is not None:  # a compiled step: one graph, or the regions it breaks into
            text += " " + self.tr("Compiled regions entered a step: {regions}; graph breaks: {breaks}.").format(
                regions=f"{profile.regions:,.1f}", breaks=f"{profile.graph_breaks:,}"
            )
        return text

    def _show_timeline(self, profile: StepProfile) -> None:
        timeline = profile.timeline
        if timeline is None:
            self.timeline.clear()
            self.timeline_note.setText("")
            return
        self.timeline.show_timeline(timeline)
        if timeline.on_gpu:
            text = self.tr(
                "The timeline of one step ({step} µs): operators on the CPU above, the kernels they launched on the GPU"
                " below, a line from each operator to its kernel. The GPU was busy {share} of the step; in the gaps"
                " it waited for the CPU's next launch."
            ).format(step=f"{timeline.step_us:,.1f}", share=f"{timeline.busy_share:.0%}")
        else:
            text = self.tr(
                "The timeline of one step ({step} µs) on the CPU, which has no device row: the CPU spent {share} of"
                " it inside PyTorch's operators (nested ones drawn higher) and the rest between them: Python,"
                " PyTorch's dispatch, and whatever else held the cores (another program, the profiler itself)."
            ).format(step=f"{timeline.step_us:,.1f}", share=f"{timeline.operator_share:.0%}")
        self.timeline_note.setText(text)
