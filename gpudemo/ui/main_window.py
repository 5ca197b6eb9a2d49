"""The window: pick a device, set the run, watch the loss fall, then predict on the CPU.

It builds the parts and connects them; each part does its own work: the panels (panels/),
the tabs (views/), the jobs on worker threads (jobs/), the frame's actions, menus, files and
preferences (shell/).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QMainWindow,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.config import TrainingConfig
from gpudemo.core.devices import DeviceInfo, DeviceList, list_devices
from gpudemo.core.rules import InvalidSetting
from gpudemo.core.runs import Session
from gpudemo.core.script import PREDICTING
from gpudemo.logfile import current_log
from gpudemo.ui.base import i18n, theme
from gpudemo.ui.base.style import style_sheet
from gpudemo.ui.jobs.measurements import Measurements
from gpudemo.ui.jobs.memory_watch import MemoryWatch
from gpudemo.ui.jobs.training_job import TrainingJob
from gpudemo.ui.panels.code_panel import CodePanel
from gpudemo.ui.panels.left_column import LeftColumn
from gpudemo.ui.panels.lesson_panel import LessonPanel
from gpudemo.ui.shell.actions import Actions, bind
from gpudemo.ui.shell.dialogs import show_about, show_help
from gpudemo.ui.shell.file_commands import FileCommands
from gpudemo.ui.shell.lesson_commands import LessonCommands
from gpudemo.ui.shell.menus import build_menus, fit_to_screen, widen_code_panel
from gpudemo.ui.shell.preferences import Preferences
from gpudemo.ui.shell.rebuild import rebuild_in
from gpudemo.ui.shell.run_commands import RunCommands
from gpudemo.ui.views.compare_view import CompareView
from gpudemo.ui.views.landscape_view import LandscapeView
from gpudemo.ui.views.parallel_view import ParallelView
from gpudemo.ui.views.profile_view import ProfileView
from gpudemo.ui.views.run_status import RunStatus
from gpudemo.ui.views.sweep_view import SweepView
from gpudemo.ui.views.training_view import TrainingView
from gpudemo.ui.views.transfer_view import TransferView

# The parts' widgets that tests, the preferences and the menus find on the window by name.
FORM = (
    "problemCombo",
    "samplesSpin",
    "noiseSpin",
    "widthSpin",
    "depthSpin",
    "batchSpin",
    "optimizerCombo",
    "precisionCombo",
    "compileCheck",
    "epochsSpin",
    "lrInput",
    "seedInput",
    "startButton",
    "stopButton",
    "compareButton",
    "pauseButton",
    "stepButton",
    "profileButton",
    "settingsError",
)
TRAINING_TAB = (
    "lossPlot",
    "fitPlot",
    "boundaryPlot",
    "digitsView",
    "confusionTable",
    "runsTable",
    "smoothingSlider",
    "xAxisCombo",
    "metricCombo",
    "logScaleCheck",
    "clearRunsButton",
)
STATUS = ("statusLabel", "progressBar", "rateLabel", "resultLabel")


class MainWindow(QMainWindow):
    runFinished = Signal()  # a job's thread has ended and the controls are free again
    replaced = Signal(object)  # the window rebuilt in another language: the MainWindow that takes this one's place

    def __init__(
        self,
        devices: DeviceList | Sequence[DeviceInfo] | None = None,
        session: Session | None = None,
        preferences: Preferences | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("gpudemo — watch PyTorch train on a GPU"))
        self.setStyleSheet(style_sheet())
        if devices is None:
            devices = list_devices()
        elif not isinstance(devices, DeviceList):
            devices = DeviceList(tuple(devices))
        self.devices = devices
        self.session = session if session is not None else Session()
        self._preferences = preferences  # None: remember nothing (tests)
        self.theme_choice = theme.SYSTEM
        self._shown_before = False
        self._build()
        self._connect()
        self.run_commands.set_running(False)
        if preferences is not None:
            note = preferences.restore(self)
            if note:
                self.runStatus.say(note, error=True)
        self.set_theme(self.theme_choice)
        self.actions.language_actions[i18n.current()].setChecked(True)

    def _build(self) -> None:
        self.left = LeftColumn(self.devices)
        self.devicePanel, self.trainingPanel, self.predictionPanel = (
            self.left.devicePanel,
            self.left.trainingPanel,
            self.left.predictionPanel,
        )
        self.deviceList = self.devicePanel.list
        self.lessonButton = self.left.lessonButton
        for name in FORM:
            setattr(self, name, getattr(self.trainingPanel, name))
        panel = self.predictionPanel
        self.predictInput, self.predictButton, self.predictMessage, self.predictionTable = (
            panel.input,
            panel.button,
            panel.message,
            panel.table,
        )

        self.runStatus = RunStatus(self)
        for name in STATUS:
            setattr(self, name, getattr(self.runStatus, name))
        self.trainingView = TrainingView(self.session)
        for name in TRAINING_TAB:
            setattr(self, name, getattr(self.trainingView, name))
        self.lossView = self.trainingView.loss
        self.landscapeView = LandscapeView(self.session)
        self.landscapePlot = self.landscapeView.plot
        self.compareView = CompareView()
        self.comparePlot, self.compareTable = self.compareView.plot, self.compareView.table
        self.sweepView = SweepView()
        self.sweepPlot, self.sweepButton = self.sweepView.plot, self.sweepView.button
        self.rooflinePlot = self.sweepView.roofline_plot
        self.parallelView = ParallelView()
        self.parallelPlot, self.parallelTable, self.parallelButton = (
            self.parallelView.plot,
            self.parallelView.table,
            self.parallelView.button,
        )
        self.transferView = TransferView()
        self.transferPlot, self.transferButton = self.transferView.plot, self.transferView.button
        self.profileView = ProfileView()
        self.profileTable = self.profileView.table
        self.timelinePlot = self.profileView.timeline.plot
        self.viewTabs = QTabWidget(objectName="viewTabs")
        for view, title in (
            (self.trainingView, self.tr("Training")),
            (self.landscapeView, self.tr("Loss landscape")),
            (self.compareView, self.tr("Compare devices")),
            (self.sweepView, self.tr("GPU vs CPU by size")),
            (self.profileView, self.tr("Step profile")),
            (self.parallelView, self.tr("Data parallel")),
            (self.transferView, self.tr("Moving data")),
        ):
            self.viewTabs.addTab(view, title)
        for view, name in (
            (self.trainingView, "trainingView"),
            (self.landscapeView, "landscapeView"),
            (self.compareView, "compareView"),
            (self.sweepView, "sweepView"),
            (self.profileView, "profileView"),
            (self.parallelView, "parallelView"),
            (self.transferView, "transferView"),
        ):
            view.setObjectName(name)  # the lesson file names the tabs it shows

        right = QVBoxLayout()
        right.addWidget(self.statusLabel)
        right.addWidget(self.viewTabs, 1)
        right.addLayout(self.runStatus.progress_row)
        right.addWidget(self.resultLabel)
        central = QWidget()
        columns = QHBoxLayout(central)
        columns.addWidget(self.left)
        columns.addLayout(right, 1)
        self.setCentralWidget(central)
        self.codePanel = CodePanel(self)
        self.codePanel.setMinimumWidth(320)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.codePanel)
        self.lessonPanel = LessonPanel(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.lessonPanel)
        self.splitDockWidget(self.lessonPanel, self.codePanel, Qt.Orientation.Vertical)  # the lesson above its code

        self.job = TrainingJob(self.session, self.trainingView, self.landscapeView, self.runStatus, self)
        self.measurements = Measurements(
            self.compareView, self.sweepView, self.profileView, self.parallelView, self.transferView, self
        )
        self.memory = MemoryWatch(self)
        self.actions = Actions(self)
        self.files = FileCommands(self)
        self.run_commands = RunCommands(self)
        self.lesson = LessonCommands(self, self.lessonPanel)
        build_menus(self)
        fit_to_screen(self)

    def _connect(self) -> None:
        actions, run, view = self.actions, self.run_commands, self.trainingView
        for button, action in (
            (self.startButton, actions.start),
            (self.stopButton, actions.stop),
            (self.pauseButton, actions.pause),
            (self.stepButton, actions.step),
            (self.compareButton, actions.compare),
            (self.profileButton, actions.profile),
            (self.sweepButton, actions.sweep),
            (self.parallelButton, actions.parallel),
            (self.transferButton, actions.transfer),
            (self.lessonButton, actions.lesson),
            (self.logScaleCheck, actions.log_scale),
            (self.clearRunsButton, actions.clear_runs),
        ):
            bind(button, action)
        for action, slot in (
            (actions.start, run.start_training),
            (actions.stop, run.stop),
            (actions.pause, run.toggle_pause),
            (actions.step, run.step),
            (actions.compare, run.start_compare),
            (actions.sweep, run.start_sweep),
            (actions.parallel, run.start_parallel),
            (actions.transfer, run.start_transfer),
            (actions.profile, run.start_profile),
            (actions.clear_runs, self.session.clear),
            (actions.export_losses, self.files.export_losses),
            (actions.export_plot, self.files.export_shown_plot),
            (actions.save_model, self.files.save_model),
            (actions.load_model, self.files.load_model),
            (actions.open_data, self.files.open_data),
            (actions.quit, self.close),
            (actions.help, partial(show_help, self)),
            (actions.lesson, self.lesson.open),
            (actions.about, partial(show_about, self)),
        ):
            action.triggered.connect(slot)
        for code, action in actions.language_actions.items():
            action.triggered.connect(lambda checked=False, code=code: self.set_language(code))
        for action, choice in (
            (actions.theme_system, theme.SYSTEM),
            (actions.theme_light, theme.LIGHT_KEY),
            (actions.theme_dark, theme.DARK_KEY),
        ):
            action.triggered.connect(lambda checked=False, choice=choice: self.set_theme(choice))
        self.trainingPanel.startRequested.connect(run.start_training)
        self.job.phaseChanged.connect(self.codePanel.mark)
        self.job.pausedAt.connect(self.codePanel.mark_paused)
        self.measurements.status.connect(self.runStatus.say)
        self.measurements.progressed.connect(self.runStatus.measuring)
        self.measurements.deviceBusy.connect(self.memory.follow)
        self.memory.read.connect(self.devicePanel.show_memory)
        self._unsubscribe = self.session.subscribe(
            added=self._on_runs_changed, changed=self._on_runs_changed, removed=self._on_runs_changed
        )
        for chosen in (run.update_actions, self.predictionPanel.set_run, self.landscapeView.show_run):
            view.chosenChanged.connect(chosen)
        self.predictionPanel.predicted.connect(self._on_predicted)
        self.trainingView.digitsView.imagePicked.connect(self.predictionPanel.predict_image)
        self.viewTabs.currentChanged.connect(self._on_tab)
        for changed in (self.trainingPanel.changed, self.predictInput.textChanged, self.devicePanel.deviceChanged):
            changed.connect(self._update_script)
        self._update_script()
        if self.session.runs:  # rebuilt over runs: the chosen one predicts and draws its landscape
            view.chosenChanged.emit(view.chosen())

    def _read_config(self) -> TrainingConfig:
        """The run the settings describe; raises InvalidSetting naming the bad field."""
        return self.trainingPanel.config(self.devicePanel.current().id)

    @Slot()
    def _update_script(self) -> None:
        """Show the script for the settings as they are; keep the last one while a value is bad."""
        try:
            self.codePanel.show_settings(self._read_config(), self.predictInput.text())
        except InvalidSetting:
            pass

    def is_busy(self) -> bool:
        return self.run_commands.is_busy()

    def is_training(self) -> bool:
        return self.job.is_running()

    def is_paused(self) -> bool:
        return self.job.is_paused()

    @Slot()
    def start_training(self) -> None:
        self.run_commands.start_training()

    def _on_runs_changed(self, run) -> None:
        self.run_commands.update_actions()

    def set_theme(self, choice: str) -> None:
        """SYSTEM, LIGHT_KEY or DARK_KEY: the widgets' palette and every plot."""
        applied = theme.apply(QApplication.instance(), choice)
        self.setStyleSheet(style_sheet(applied.dark))
        self.codePanel.set_dark(applied.dark)
        self.theme_choice = choice
        {
            theme.SYSTEM: self.actions.theme_system,
            theme.LIGHT_KEY: self.actions.theme_light,
            theme.DARK_KEY: self.actions.theme_dark,
        }[choice].setChecked(True)

    def set_language(self, language: str) -> MainWindow:
        """Show the window in `language` (i18n.LANGUAGES) at once: returns the window that shows it
        (a new one, see ui/shell/rebuild.py; this one, unchanged, while a job goes)."""
        return rebuild_in(self, language)

    @Slot(str)
    def show_fault(self, error: str) -> None:
        """An exception nobody caught (ui/shell/faults.py): say so; it is in the log file with its traceback."""
        self.runStatus.say(
            self.tr("Something went wrong: {error}. The details are in {path}; the window goes on.").format(
                error=error, path=current_log() or self.tr("the terminal")
            ),
            error=True,
        )

    @Slot(int)
    def _on_tab(self, index: int) -> None:
        if self.viewTabs.widget(index) is self.landscapeView:  # it was not redrawn while hidden
            self.landscapeView.show_run(self.trainingView.chosen())

    @Slot()
    def _on_predicted(self) -> None:
        if not self.is_paused():  # while paused, the mark stays where the run holds
            self.codePanel.mark(PREDICTING)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_before:  # docks take their sizes once the window is laid out on screen
            self._shown_before = True
            if self._preferences is None or self._preferences.store.value("window/state") is None:
                widen_code_panel(self)

    def closeEvent(self, event) -> None:
        self.lesson.leave()  # the person's own settings back, before they are saved
        if self._preferences is not None:
            self._preferences.save(self)
        for unsubscribe in (self._unsubscribe, self.trainingView.detach, self.landscapeView.detach):
            unsubscribe()
        self.memory.halt()
        self.job.shutdown()
        self.measurements.shutdown()
        self.files.shutdown()
        super().closeEvent(event)
