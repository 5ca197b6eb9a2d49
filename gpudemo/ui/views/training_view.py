"""The Training tab: the loss of every kept run, the fit of one, and the runs table.

The fit is what the chosen run's problem has to show: a regression's curve over its points
(fitPlot), a 2-D classification's decision boundary (boundaryPlot), the digits' test images
and confusion matrix (digitsView).

It subscribes to the session: a run added, changed or removed shows up here without
the window's help. The window only says when the live run has new epochs to draw.
Selecting a row highlights that run's curve, draws its fit, and makes it the run that
predicts; with no row selected, the newest run does.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.base import units as fmt
from gpudemo.core.problems import problem_for
from gpudemo.core.session.runs import LIVE, Run, Session
from gpudemo.core.session.smoothing import WEIGHT_MAX
from gpudemo.core.training import DataSample
from gpudemo.ui.base.spoken import DESCRIBE_MS, describe
from gpudemo.ui.views import plot_words
from gpudemo.ui.views.boundary_plot import BoundaryPlot
from gpudemo.ui.views.digits_view import DigitsView
from gpudemo.ui.views.fit_plot import FitPlot
from gpudemo.ui.views.loss_view import ACCURACY, EPOCHS, LOSS, SECONDS, LossView
from gpudemo.ui.views.plot_style import colour
from gpudemo.ui.views.runs_table import RunsTable

SLIDER_STEPS = 100  # the slider's value / 100 is the smoothing weight


_PREVIEW = object()  # the fit view shows a preview, no run's data
BELOW, LEFT, ON_TOP = "below", "left", "on top"  # where the fit view is, against the loss plot


class TrainingView(QWidget):
    chosenChanged = Signal(object)  # the run that predicts and shows its fit changed (a Run or None)

    def __init__(self, session: Session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.loss = LossView(self)
        self.lossPlot = self.loss.widget
        self.fit = FitPlot()
        self.fitPlot = self.fit.widget
        self.boundary = BoundaryPlot()
        self.boundaryPlot = self.boundary.widget
        self.digitsView = DigitsView()
        self.confusionTable = self.digitsView.confusionTable
        self.fitStack = QStackedWidget(objectName="fitStack")
        for widget in (self.fitPlot, self.boundaryPlot, self.digitsView):
            self.fitStack.addWidget(widget)
        self.runsTable = RunsTable()
        self._fit_run: Run | None = None  # the run whose data and fit the fit view draws
        self._fit_drawn = None  # the outputs it drew last
        self._drawer: FitPlot | BoundaryPlot | None = self.fit  # which draws the fit run's (None: the digits view)
        tools = self._loss_tools()
        self._lay_out(tools)
        self._connect(session)

    def _loss_tools(self) -> QHBoxLayout:
        """The row above the plots: smoothing, the axes, log scale."""
        self.smoothingSlider = QSlider(Qt.Orientation.Horizontal, objectName="smoothingSlider")
        self.smoothingSlider.setRange(0, round(WEIGHT_MAX * SLIDER_STEPS))
        self.smoothingSlider.setMinimumWidth(60)
        self.smoothingSlider.setMaximumWidth(200)
        self.smoothingSlider.setToolTip(
            self.tr(
                "Smoothing, 0 to 0.99: an exponential moving average drawn over the raw loss, which stays faint"
                " behind it (as TensorBoard draws it)"
            )
        )
        self.smoothingValue = QLabel(objectName="smoothingValue")
        self.smoothingValue.setFixedWidth(self.fontMetrics().horizontalAdvance("0.99") + 4)  # no relayout per value
        self.xAxisCombo = QComboBox(objectName="xAxisCombo")
        self.xAxisCombo.setAccessibleName(self.tr("The loss plot's x axis"))
        self.xAxisCombo.addItem(self.tr("x: epochs"), EPOCHS)
        self.xAxisCombo.addItem(self.tr("x: seconds"), SECONDS)
        self.xAxisCombo.setToolTip(self.tr("Draw the loss against epochs, or against the seconds each run trained"))
        self.metricCombo = QComboBox(objectName="metricCombo")
        self.metricCombo.setAccessibleName(self.tr("The loss plot's y axis"))
        self.metricCombo.addItem(self.tr("y: loss"), LOSS)
        self.metricCombo.addItem(self.tr("y: accuracy"), ACCURACY)
        self.metricCombo.setToolTip(
            self.tr(
                "Draw each run's loss, or the share of training samples its model classified right in each epoch"
                " (circles, xor, spiral, digits: a regression has no accuracy)"
            )
        )
        # Bound to the window's actions (View menu): text, tip, shortcut and state come from there.
        self.logScaleCheck = QCheckBox(objectName="logScaleCheck")
        self.clearRunsButton = QPushButton(objectName="clearRunsButton")
        self.runsMemoryLabel = QLabel(objectName="runsMemoryLabel")
        self.runsMemoryLabel.setWordWrap(True)  # a long line must not widen the window

        tools = QHBoxLayout()
        smoothing = QLabel(self.tr("Smoothing"))
        smoothing.setBuddy(self.smoothingSlider)  # the slider's name, for a screen reader
        tools.addWidget(smoothing)
        tools.addWidget(self.smoothingSlider)
        tools.addWidget(self.smoothingValue)
        tools.addSpacing(8)
        tools.addWidget(self.xAxisCombo)
        tools.addWidget(self.metricCombo)
        tools.addWidget(self.logScaleCheck)
        tools.addStretch(1)
        return tools

    def _lay_out(self, tools: QHBoxLayout) -> None:
        """The loss on top, the fit (or the classification's picture) under it, the runs' table at the bottom."""
        runs = QWidget()
        runs_layout = QVBoxLayout(runs)
        runs_layout.setContentsMargins(0, 0, 0, 0)
        runs_layout.addWidget(self.runsTable, 1)
        below = QHBoxLayout()
        below.addWidget(self.runsMemoryLabel, 1)
        below.addWidget(self.clearRunsButton)  # beside the table it empties
        runs_layout.addLayout(below)
        # A regression: the loss above its fit. A classification: its picture (the decision boundary, the
        # digits) is the lesson, so it takes the large place, the loss beside or under it (_arrange).
        self.topSplitter = QSplitter(Qt.Orientation.Horizontal, objectName="topSplitter")
        self.topSplitter.addWidget(self.lossPlot)
        self.topSplitter.setChildrenCollapsible(False)
        self.topSplitter.installEventFilter(self)  # the picture stays square as the row's height changes
        self.plotSplitter = QSplitter(Qt.Orientation.Vertical, objectName="plotSplitter")
        for widget, share in ((self.topSplitter, 45), (self.fitStack, 28), (runs, 27)):
            self.plotSplitter.addWidget(widget)
            self.plotSplitter.setStretchFactor(self.plotSplitter.count() - 1, share)
        self.plotSplitter.setSizes([450, 280, 270])  # shares of the height it gets: about five rows of runs
        self.plotSplitter.setChildrenCollapsible(False)
        self._place = BELOW  # where the fit view is (_arrange)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(tools)
        layout.addWidget(self.plotSplitter, 1)

    def _connect(self, session: Session) -> None:
        """The session's news and the person's choices; the runs a rebuilt window's session has already."""
        self.detach = session.subscribe(added=self._on_added, changed=self._on_changed, removed=self._on_removed)
        self.smoothingSlider.valueChanged.connect(self._on_smoothing)
        self.xAxisCombo.currentIndexChanged.connect(self._on_x_axis)
        self.metricCombo.currentIndexChanged.connect(self._on_metric)
        self.logScaleCheck.toggled.connect(self.loss.set_log)
        self.runsTable.runSelected.connect(self._on_selected)
        self.runsTable.shownToggled.connect(self._on_shown_toggled)
        self.loss.shownChanged.connect(self._on_shown_changed)
        self._on_smoothing(0)
        # The plots said in words for a screen reader, at a calm pace while a run goes (ui/base/spoken.py).
        self._words = QTimer(self, interval=DESCRIBE_MS)
        self._words.timeout.connect(self.describe_plots)
        for run in session.runs:  # a window rebuilt over a session that has runs already
            self._on_added(run)
            self._on_changed(run)
        self._show_memory()
        self.describe_plots()

    @Slot()
    def describe_plots(self) -> None:
        """Each plot's description, from the chosen run as it stands; the pace timer stops once it has ended."""
        run = self.chosen()
        describe(self.lossPlot, plot_words.loss_words(run))
        describe(self.fitPlot, plot_words.fit_words(run))
        describe(self.boundaryPlot, plot_words.boundary_words(run))
        if run is None or run.status not in LIVE:
            self._words.stop()

    # --- what the window asks ---------------------------------------------------------

    def smoothing(self) -> float:
        return self.smoothingSlider.value() / SLIDER_STEPS

    def chosen(self) -> Run | None:
        """The run that predicts and whose fit is drawn: the selected one, else the newest."""
        return self.runsTable.selected_run() or self.session.current

    def refresh(self, run: Run, counters: bool = True) -> None:
        """Draw the live run's new epochs (and its row's figures, with `counters`)."""
        self.loss.refresh(run)
        if run is self._fit_run:
            self._draw_fit()
        if counters:
            self.runsTable.update_run(run)

    # --- the session's news -------------------------------------------------------------

    def _on_added(self, run: Run) -> None:
        self.runsTable.clearSelection()  # the new run is the one to watch
        self.loss.add(run)
        self.runsTable.add(run)
        self._choose(run)
        self._show_memory()
        self._words.start()

    def _on_changed(self, run: Run) -> None:
        self.loss.refresh(run)
        self.runsTable.update_run(run)
        if run is self._fit_run:
            self._draw_fit()
        if run is self.chosen():
            self.chosenChanged.emit(run)
            if run.status not in LIVE:  # ended: said at once, not at the next tick
                self.describe_plots()
        self._show_memory()

    def _on_removed(self, run: Run) -> None:
        self.loss.remove(run)
        self.runsTable.remove(run)
        if run is self._fit_run:
            self._choose(self.chosen())
        self._show_memory()

    # --- the person's choices -----------------------------------------------------------

    @Slot(object)
    def _on_selected(self, run: Run | None) -> None:
        self.loss.highlight(run)
        self._choose(self.chosen())
        self.describe_plots()

    def _choose(self, run: Run | None) -> None:
        if run is not self._fit_run:
            self._fit_run, self._fit_drawn = run, None
            self.fit.clear()
            self.boundary.clear()
            self._drawer = self.fit
            if run is not None:
                problem = problem_for(run.config)
                if problem.area is not None:
                    self._drawer = self.boundary
                    self.boundary.show_run(run.number)
                elif problem.classes:
                    self._drawer = None  # the digits: images, not a fit
                else:
                    self.fit.show_run(run.number, colour(run.number - 1))
            widget = {self.fit: self.fitPlot, self.boundary: self.boundaryPlot}.get(self._drawer, self.digitsView)
            self.fitStack.setCurrentWidget(widget)
            self._arrange({self.fit: BELOW, self.boundary: LEFT}.get(self._drawer, ON_TOP))
            self._draw_fit()
        self.chosenChanged.emit(run)

    def preview_data(self, data: DataSample) -> None:
        """Data before any run of it (the lesson's three points): drawn in the fit view until a run is
        chosen or `end_preview`."""
        self._fit_run, self._fit_drawn = _PREVIEW, None
        self.fit.clear()
        self.boundary.clear()
        self._drawer = self.fit
        self.fitStack.setCurrentWidget(self.fitPlot)
        self._arrange(BELOW)
        self.fit.show_data(data)

    def end_preview(self) -> None:
        if self._fit_run is _PREVIEW:
            self._choose(self.chosen())

    def _arrange(self, place: str) -> None:
        """Where the fit view goes: BELOW the loss (a regression's fit), LEFT of it, as large as the height
        allows and square (a 2-D classification's boundary: its axes at equal scale), or ON_TOP, the loss
        under it (the digits: two rows of images beside their confusion matrix need the width)."""
        if place == self._place:
            return
        self._place = place
        if place == LEFT:
            self.topSplitter.insertWidget(0, self.fitStack)
            self.plotSplitter.setSizes([700, 300])
        else:
            self.plotSplitter.insertWidget(0 if place == ON_TOP else 1, self.fitStack)
            self.plotSplitter.setSizes([580, 230, 190] if place == ON_TOP else [450, 280, 270])
        self._share_top()

    def _share_top(self) -> None:
        """The boundary's width: its height (a square), leaving the loss at least two fifths of the row."""
        if self._place == LEFT:
            width = self.topSplitter.width()
            side = min(self.topSplitter.height(), width * 3 // 5)
            self.topSplitter.setSizes([side, max(1, width - side)])

    def eventFilter(self, watched, event) -> bool:
        if watched is self.topSplitter and event.type() == QEvent.Type.Resize:
            self._share_top()
        return False

    def _draw_fit(self) -> None:
        run = self._fit_run
        if run is _PREVIEW:
            return
        if self._drawer is None:
            self.digitsView.show_run(run)
            return
        if run is None:
            return
        if self._fit_drawn is None and run.data is not None:
            self._drawer.show_data(run.data)
            self._fit_drawn = False  # the data is drawn, no fit yet
        if run.fit is not None and run.fit is not self._fit_drawn and run.data is not None:
            self._drawer.show_fit(run.fit)
            self._fit_drawn = run.fit

    @Slot(int)
    def _on_smoothing(self, value: int) -> None:
        weight = value / SLIDER_STEPS
        self.smoothingValue.setText(f"{weight:.2f}")
        self.session.set_smoothing(weight)
        self.loss.set_smoothing(weight)
        self._show_memory()

    @Slot(int)
    def _on_x_axis(self, index: int) -> None:
        self.loss.set_x_axis(self.xAxisCombo.itemData(index))

    @Slot(int)
    def _on_metric(self, index: int) -> None:
        self.loss.set_metric(self.metricCombo.itemData(index))

    @Slot(object, bool)
    def _on_shown_toggled(self, run: Run, shown: bool) -> None:
        self.loss.set_shown(run, shown)

    @Slot(object, bool)
    def _on_shown_changed(self, run: Run, shown: bool) -> None:
        self.runsTable.set_shown(run, shown)

    def _show_memory(self) -> None:
        runs = len(self.session.runs)
        self.runsMemoryLabel.setText(
            self.tr(
                "{runs} kept, {size} in memory (at most {max_runs} runs and {max_size}: the oldest finished run"
                " goes first)"
            ).format(
                runs=self.tr("1 run") if runs == 1 else self.tr("{count} runs").format(count=runs),
                size=fmt.bytes_text(self.session.nbytes),
                max_runs=self.session.max_runs,
                max_size=fmt.bytes_text(self.session.max_bytes),
            )
        )
