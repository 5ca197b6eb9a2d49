"""The window: pick a device, set the run, watch the loss fall, then predict on the CPU."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core import settings
from gpudemo.core.devices import DeviceInfo, DeviceList, list_devices
from gpudemo.core.memory import RunTooLarge, check_fits, read_memory
from gpudemo.core.messages import Message
from gpudemo.core.runs import PAUSED, Run, Session
from gpudemo.core.script import PREDICTING, generate_script
from gpudemo.core.settings import InvalidSetting, TrainingConfig
from gpudemo.core.training import COMPLETED, DIVERGED, STOPPED, TRAINING, LossBatch, is_warm
from gpudemo.logfile import current_log
from gpudemo.ui.base import format as fmt
from gpudemo.ui.base import i18n, theme
from gpudemo.ui.shell.actions import IDLE, MEASURING, Actions, State, bind, update_actions
from gpudemo.ui.shell.actions import PAUSED as PAUSED_ACTIVITY
from gpudemo.ui.shell.actions import TRAINING as TRAINING_ACTIVITY
from gpudemo.ui.panels.code_panel import CodePanel
from gpudemo.ui.views.compare_view import CompareView
from gpudemo.ui.panels.devices_panel import DevicePanel
from gpudemo.ui.shell.dialogs import show_about, show_help
from gpudemo.ui.shell.file_commands import FileCommands
from gpudemo.ui.base.i18n import say
from gpudemo.ui.views.landscape_view import LandscapeView
from gpudemo.ui.jobs.measurements import Measurements
from gpudemo.ui.shell.menus import build_menus, fit_to_screen, widen_code_panel
from gpudemo.ui.panels.prediction_panel import PredictionPanel
from gpudemo.ui.shell.preferences import Preferences
from gpudemo.ui.views.profile_view import ProfileView
from gpudemo.ui.shell.rebuild import rebuild_in
from gpudemo.ui.base.style import set_style_flag, style_sheet
from gpudemo.ui.views.sweep_view import SweepView
from gpudemo.ui.panels.training_panel import TrainingPanel
from gpudemo.ui.views.training_view import TrainingView
from gpudemo.ui.jobs.worker import TrainingController

REFRESH_MS = 50  # the plots redraw at most 20 times a second (painting holds the GIL)...
COUNTERS_S = 0.1  # ...the progress bar and the rate at most 10 times
MEMORY_MS = 500  # the device's memory line, twice a second while a job goes


class MainWindow(QMainWindow):
    runFinished = Signal()  # a run's thread has ended and the controls are free again
    replaced = Signal(object)  # the window rebuilt in another language: the MainWindow that takes this one's place

    def __init__(self, devices: DeviceList | Sequence[DeviceInfo] | None = None, session: Session | None = None,
                 preferences: Preferences | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("gpudemo — watch PyTorch train on a GPU"))
        self.setStyleSheet(style_sheet())
        if devices is None:
            devices = list_devices()
        elif not isinstance(devices, DeviceList):
            devices = DeviceList(tuple(devices))
        self._devices = devices
        self.session = session if session is not None else Session()
        self._controller = TrainingController(self)
        self._run: Run | None = None  # the run the controller drives
        self._dirty = False  # the run has epochs not drawn yet
        self._pause_asked = False  # Pause pressed and not yet resumed
        self._counters_at = 0.0  # when the progress bar and the rate were last set

        self._refresh = QTimer(self)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self._redraw)
        self._memory = QTimer(self)  # the device's memory line, while a job goes
        self._memory.setInterval(MEMORY_MS)
        self._memory.timeout.connect(self._read_memory)
        self._memory_device = "cpu"

        self._build()
        self._controller.batched.connect(self._on_batch)
        self._controller.phaseChanged.connect(self.codePanel.mark)
        self._controller.phaseChanged.connect(self._on_phase)
        self._controller.paused.connect(self._on_paused)
        self._controller.succeeded.connect(self._on_succeeded)
        self._controller.failed.connect(self._on_failed)
        self._controller.finished.connect(self._on_thread_finished)
        self.measurements.status.connect(self._set_status)
        self.measurements.progressed.connect(self._on_measure_progress)
        self.measurements.deviceBusy.connect(self._on_device_busy)
        self.measurements.finished.connect(self._on_thread_finished)
        self._set_running(False)
        self._preferences = preferences  # None: remember nothing (tests)
        self.theme_choice = theme.SYSTEM
        self._shown_before = False
        if preferences is not None:
            note = preferences.restore(self)
            if note:
                self._set_status(note, error=True)
        self.set_theme(self.theme_choice)
        self.actions.language_actions[i18n.current()].setChecked(True)

    # --- building -----------------------------------------------------------------

    def _build(self) -> None:
        self.devicePanel = DevicePanel(self._devices)
        self.deviceList = self.devicePanel.list
        self.trainingPanel = TrainingPanel()
        panel = self.trainingPanel
        for name in ("problemCombo", "samplesSpin", "widthSpin", "depthSpin", "batchSpin", "optimizerCombo",
                     "epochsSpin", "lrInput", "seedInput", "startButton", "stopButton", "compareButton",
                     "pauseButton", "stepButton", "profileButton", "settingsError"):
            setattr(self, name, getattr(panel, name))

        self.predictionPanel = PredictionPanel()
        self.predictInput = self.predictionPanel.input
        self.predictButton = self.predictionPanel.button
        self.predictMessage = self.predictionPanel.message
        self.predictionTable = self.predictionPanel.table

        left = QVBoxLayout()
        left.addWidget(self.devicePanel)
        left.addWidget(panel)
        left.addWidget(self.predictionPanel, 1)
        left_widget = QWidget()
        left_widget.setLayout(left)
        # In a scroll area: on a short screen the column scrolls instead of squeezing its rows.
        left_scroll = QScrollArea(objectName="leftColumn")
        left_scroll.setWidget(left_widget)
        left_scroll.setWidgetResizable(True)
        left_scroll.setFrameShape(QFrame.Shape.NoFrame)
        left_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # As wide as its widest row needs in the language shown (380 px at least), and no wider.
        left_scroll.setFixedWidth(max(380, left_widget.minimumSizeHint().width())
                                  + left_scroll.verticalScrollBar().sizeHint().width())

        self.statusLabel = QLabel(self.tr("Ready: pick a device and press Start training."),
                                  objectName="statusLabel")
        self.statusLabel.setWordWrap(True)
        self.trainingView = TrainingView(self.session)
        view = self.trainingView
        for name in ("lossPlot", "fitPlot", "runsTable", "smoothingSlider", "xAxisCombo", "logScaleCheck",
                     "clearRunsButton"):
            setattr(self, name, getattr(view, name))
        self.lossView = view.loss
        self.compareView = CompareView()
        self.comparePlot, self.compareTable = self.compareView.plot, self.compareView.table
        self.sweepView = SweepView()
        self.sweepPlot, self.sweepButton = self.sweepView.plot, self.sweepView.button
        self.viewTabs = QTabWidget(objectName="viewTabs")
        self.landscapeView = LandscapeView(self.session)
        self.landscapePlot = self.landscapeView.plot
        self.viewTabs.addTab(view, self.tr("Training"))
        self.viewTabs.addTab(self.landscapeView, self.tr("Loss landscape"))
        self.viewTabs.addTab(self.compareView, self.tr("Compare devices"))
        self.viewTabs.addTab(self.sweepView, self.tr("GPU vs CPU by size"))
        self.profileView = ProfileView()
        self.profileTable = self.profileView.table
        self.viewTabs.addTab(self.profileView, self.tr("Step profile"))
        self.measurements = Measurements(self.compareView, self.sweepView, self.profileView, self)
        self.progressBar = QProgressBar(objectName="progressBar")
        self.progressBar.setFormat(self.tr("%v / %m epochs"))
        self.rateLabel = QLabel(objectName="rateLabel")
        # A fixed width, so that new text needs no new layout: its widest text in the language shown.
        widest = self.tr("{rate} epochs/s · ETA {eta}").format(rate=fmt.rate(888_888), eta=fmt.duration(35_999))
        self.rateLabel.setFixedWidth(self.rateLabel.fontMetrics().horizontalAdvance(widest) + 16)
        self.resultLabel = QLabel(objectName="resultLabel")
        self.resultLabel.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progressBar, 1)
        progress_row.addWidget(self.rateLabel)
        right = QVBoxLayout()
        right.addWidget(self.statusLabel)
        right.addWidget(self.viewTabs, 1)
        right.addLayout(progress_row)
        right.addWidget(self.resultLabel)

        central = QWidget()
        columns = QHBoxLayout(central)
        columns.addWidget(left_scroll)
        columns.addLayout(right, 1)
        self.setCentralWidget(central)

        self.codePanel = CodePanel(self)
        self.codePanel.setMinimumWidth(320)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.codePanel)

        actions = self.actions = Actions(self)
        for button, action in ((self.startButton, actions.start), (self.stopButton, actions.stop),
                               (self.pauseButton, actions.pause), (self.stepButton, actions.step),
                               (self.compareButton, actions.compare), (self.profileButton, actions.profile),
                               (self.sweepButton, actions.sweep), (self.logScaleCheck, actions.log_scale),
                               (self.clearRunsButton, actions.clear_runs)):
            bind(button, action)
        self.files = FileCommands(self)
        for action, slot in ((actions.start, self.start_training), (actions.stop, self.stop_training),
                             (actions.pause, self.toggle_pause), (actions.step, self.step_epoch),
                             (actions.compare, self.start_compare), (actions.sweep, self.start_sweep),
                             (actions.profile, self.start_profile), (actions.clear_runs, self.session.clear),
                             (actions.export_losses, self.files.export_losses),
                             (actions.export_plot, self.files.export_shown_plot),
                             (actions.save_model, self.files.save_model), (actions.load_model, self.files.load_model),
                             (actions.quit, self.close), (actions.help, self.show_help),
                             (actions.about, self.show_about)):
            action.triggered.connect(slot)
        build_menus(self)
        for code, action in actions.language_actions.items():
            action.triggered.connect(lambda checked=False, code=code: self.set_language(code))
        for action, choice in ((actions.theme_system, theme.SYSTEM), (actions.theme_light, theme.LIGHT_KEY),
                               (actions.theme_dark, theme.DARK_KEY)):
            action.triggered.connect(lambda checked=False, choice=choice: self.set_theme(choice))
        fit_to_screen(self)
        panel.startRequested.connect(self.start_training)
        self._unsubscribe = self.session.subscribe(added=self._on_runs_changed, changed=self._on_runs_changed,
                                                   removed=self._on_runs_changed)
        view.chosenChanged.connect(self._update_actions)
        self.predictionPanel.predicted.connect(self._on_predicted)
        view.chosenChanged.connect(self.predictionPanel.set_run)
        view.chosenChanged.connect(self.landscapeView.show_run)
        self.viewTabs.currentChanged.connect(self._on_tab)
        for changed in (panel.changed, self.predictInput.textChanged, self.devicePanel.deviceChanged):
            changed.connect(self._update_script)
        self._update_script()
        if self.session.runs:  # rebuilt over runs: the chosen one predicts and draws its landscape
            view.chosenChanged.emit(view.chosen())

    # --- settings ------------------------------------------------------------------

    def _read_config(self) -> TrainingConfig:
        """The run the settings describe; raises InvalidSetting naming the bad field."""
        return self.trainingPanel.config(self.devicePanel.current().id)

    @Slot()
    def _update_script(self) -> None:
        """Show the script for the settings as they are; keep the last one while a value is bad."""
        try:
            config = self._read_config()
        except InvalidSetting:
            return
        try:
            values = settings.parse_values(self.predictInput.text())
        except InvalidSetting:
            values = [4.0]
        self.codePanel.set_script(generate_script(
            config, values, translate=lambda text: QCoreApplication.translate("script", text)))

    # --- a run ---------------------------------------------------------------------

    def is_busy(self) -> bool:
        """A run, a comparison or a sweep is going (one at a time)."""
        return self._controller.is_running() or self.measurements.is_running()

    def _config_to_start(self, devices: Sequence[str] | None = None) -> TrainingConfig | None:
        """The form's run when nothing goes, its values are valid and it fits on each of `devices`
        (the chosen one by default); else None, with the reason under the form."""
        if self.is_busy() or not self.trainingPanel.check():
            return None
        config = self._read_config()
        for device in devices or [config.device]:
            try:
                check_fits(dataclasses.replace(config, device=device))
            except RunTooLarge as refused:
                self.trainingPanel.show_error(self.tr("Not started: {reason}.").format(reason=say(refused)))
                return None
        return config

    @Slot()
    def start_training(self) -> None:
        config = self._config_to_start()
        if config is None:
            return
        self._dirty = False
        self._run = self.session.start(config)  # the views hear of it from the session
        self.progressBar.setRange(0, 0)  # busy until the loop begins
        self.progressBar.setFormat(self.tr("%v / %m epochs"))
        self.rateLabel.setText("")
        self.resultLabel.setText("")
        if is_warm():
            self._set_status(self.tr("Preparing the run on {device}…").format(device=config.device))
        else:
            self._set_status(self.tr(
                "Preparing the run on {device}: PyTorch loads its training code on the first run"
                " (a second or two)…").format(device=config.device))
        if self.viewTabs.currentWidget() not in (self.trainingView, self.landscapeView):
            self.viewTabs.setCurrentWidget(self.trainingView)
        self._set_running(True)
        self._memory_device = config.device
        self._controller.start(config, self._run.history, self._run.path)
        self._update_actions()
        self._refresh.start()
        self._memory.start()
        self._read_memory()

    @Slot()
    def start_compare(self) -> None:
        """The form's run on every listed device in turn, the CPU as the baseline."""
        config = self._config_to_start(self._devices.ids)
        if config is None:
            return
        self._start_measuring()
        self.progressBar.setFormat(self.tr("%v / %m epochs"))
        self.viewTabs.setCurrentWidget(self.compareView)
        self.measurements.start_compare(config, self._devices.ids)
        self._update_actions()

    @Slot()
    def start_profile(self) -> None:
        """A few steps of the form's run on the chosen device, under torch.profiler."""
        config = self._config_to_start()
        if config is None:
            return
        self._start_measuring()
        self.progressBar.setFormat(self.tr("%p%"))
        self.viewTabs.setCurrentWidget(self.profileView)
        self.measurements.start_profile(config)
        self._update_actions()

    @Slot()
    def start_sweep(self) -> None:
        if self.is_busy():
            return
        self._start_measuring()
        self.progressBar.setFormat(self.tr("%v / %m measurements"))
        self.viewTabs.setCurrentWidget(self.sweepView)
        self.measurements.start_sweep(self._devices.ids, self.sweepView.kind(), self.sweepView.dtype())
        self._update_actions()

    def _start_measuring(self) -> None:
        self.rateLabel.setText("")
        self.resultLabel.setText("")
        self._set_running(True, training=False)
        self._memory_device = "cpu"
        self._refresh.start()
        self._memory.start()
        self._read_memory()

    @Slot()
    def stop_training(self) -> None:
        """Stop whatever is going: a run, a comparison or a sweep."""
        self._controller.stop()
        self.measurements.stop()

    def is_paused(self) -> bool:
        return self._pause_asked and self._run is not None and self._run.status == PAUSED

    @Slot()
    def toggle_pause(self) -> None:
        """Pause the run before its next epoch, or let a paused run go on."""
        if not self._controller.is_running():
            return
        if self._pause_asked:
            self._pause_asked = False
            self._controller.resume()
            if self._run.status == PAUSED:
                self._run.resume()
                self.session.changed(self._run)
            self._update_actions()
            self._set_status(self.tr("Training on {device}…").format(device=self._run.config.device))
            self.codePanel.mark(TRAINING)
        else:
            self._pause_asked = True
            self._controller.pause()
            self._update_actions()
            self._set_status(self.tr("Pausing before the next epoch…"))

    @Slot()
    def step_epoch(self) -> None:
        if self.is_paused():
            self._controller.step()

    @Slot(int, object)
    def _on_paused(self, epochs: int, model) -> None:
        if not self._pause_asked:
            return  # resumed before the run got to hold
        self._dirty = True
        self._redraw(final=True)
        self._run.hold(epochs, model)
        self.session.changed(self._run)
        self._update_actions()
        self.codePanel.mark_paused(epochs)
        self._set_status(self.tr(
            "Paused at epoch {epoch} of {total}: Step runs one more epoch, Resume goes on,"
            " Predict uses the model as it stands.").format(epoch=f"{epochs:,}", total=f"{self._run.config.epochs:,}"))

    @Slot(int, int)
    def _on_measure_progress(self, value: int, maximum: int) -> None:
        if maximum >= 0:
            self.progressBar.setRange(0, maximum)
        self.progressBar.setValue(min(value, self.progressBar.maximum()))

    @Slot(str)
    def _on_device_busy(self, device: str) -> None:
        self._memory_device = device

    @Slot()
    def _read_memory(self, running: bool = True) -> None:
        try:
            reading = read_memory(self._memory_device)
        except Exception:  # a device that cannot say (a lost GPU): show nothing rather than fail
            reading = None
        self.devicePanel.show_memory(reading, running)

    @Slot(str)
    def _on_phase(self, phase: str) -> None:
        if phase == TRAINING:
            self.progressBar.setRange(0, self._run.config.epochs)
            self.progressBar.setValue(0)
            self._run.began()
            self.session.changed(self._run)
            self._set_status(self.tr("Training on {device}…").format(device=self._run.config.device))

    @Slot(object)
    def _on_batch(self, batch: LossBatch) -> None:
        self._run.add(batch)
        self._dirty = True

    @Slot()
    def _redraw(self, final: bool = False) -> None:
        if self.measurements.is_running():
            self.measurements.redraw()
            return
        run = self._run
        if not self._dirty or run is None:
            return
        self._dirty = False
        now = time.perf_counter()
        # QProgressBar.setValue repaints at once, holding the GIL: the counters go at 10 a second.
        counters = final or now - self._counters_at >= COUNTERS_S
        self.trainingView.refresh(run, counters)
        if self.landscapeView.isVisible():
            self.landscapeView.refresh(run)
        if not counters:
            return
        self._counters_at = now
        self.progressBar.setValue(run.count)
        if run.rate > 0:
            eta = run.eta
            self.rateLabel.setText(self.tr("{rate} epochs/s · ETA {eta}").format(
                rate=fmt.rate(run.rate), eta=fmt.duration(eta) if math.isfinite(eta) else "?"))

    @Slot(object)
    def _on_succeeded(self, result) -> None:
        self._run.finish(result)
        self.session.changed(self._run)
        self._dirty = True
        self._redraw(final=True)
        summary = self.tr("{epochs} epochs on {device} in {seconds} ({rate} epochs/s)").format(
            epochs=f"{result.epochs_run:,}", device=result.config.device,
            seconds=fmt.duration(result.seconds), rate=fmt.rate(result.epochs_per_second))
        self._show_result(result)
        if result.status == COMPLETED:
            self.progressBar.setValue(self.progressBar.maximum())
            self._set_status(self.tr("Completed: {summary}").format(summary=summary))
        elif result.status == STOPPED:
            self._set_status(self.tr("Stopped at epoch {epoch} of {total}: {summary}").format(
                epoch=f"{result.epochs_run:,}", total=f"{result.config.epochs:,}", summary=summary))
        elif result.status == DIVERGED:
            self._set_status(self.tr(
                "Diverged at epoch {epoch}: the loss became {loss}. Try a smaller learning rate than {lr}."
            ).format(epoch=f"{result.diverged_at:,}", loss=fmt.loss(result.final_loss), lr=f"{result.config.lr:g}"),
                error=True)
        if self.predictInput.text().strip():
            self.predict_values()

    def _show_result(self, result) -> None:
        """The rate and the learned model of a finished run, under the plots."""
        self.rateLabel.setText(self.tr("{rate} epochs/s").format(rate=fmt.rate(result.epochs_per_second)))
        self.rateLabel.setToolTip(self.tr(
            "Not in this figure: moving the model and the data to {device} took {moving}, and a warm-up step before"
            " the clock {warm} (a GPU's first step pays once for its context, libraries and kernels).").format(
                device=result.config.device, moving=fmt.short_time(result.to_device_seconds),
                warm=fmt.short_time(result.warm_up_seconds)))
        params = result.parameters
        if "weight" in params:
            learned = self.tr("learned  y = {weight} · x + {bias}").format(
                weight=fmt.loss(params["weight"]), bias=fmt.loss(params["bias"]))
        else:
            learned = self.tr("learned  an MLP of {count} parameters").format(count=f"{params['parameters']:,.0f}")
        self.resultLabel.setText(self.tr("final loss {loss}   ·   {learned}").format(
            loss=fmt.loss(result.final_loss), learned=learned))

    @Slot(object)
    def _on_failed(self, message: Message) -> None:
        self._dirty = True
        self._redraw(final=True)
        self._run.fail(message)
        self.session.changed(self._run)
        self._set_status(self.tr("Training failed: {message}").format(message=say(message)), error=True)

    @Slot()
    def _on_thread_finished(self) -> None:
        self._pause_asked = False
        self._refresh.stop()
        self._memory.stop()
        self._read_memory(running=False)
        if self.progressBar.maximum() == 0:  # the job ended before it could say how far it got
            self.progressBar.setRange(0, self._run.config.epochs if self._run is not None else 1)
        self._set_running(False)
        self.runFinished.emit()

    def _set_running(self, running: bool, training: bool = True) -> None:
        self.trainingPanel.set_running(running)
        self.deviceList.setEnabled(not running)
        for widget in (self.sweepView.kindCombo, self.sweepView.dtypeCombo):
            widget.setEnabled(not running)
        self._update_actions()

    def state(self) -> State:
        """What the window is doing, as the actions need to know it."""
        if self._controller.is_running():
            activity = PAUSED_ACTIVITY if self._pause_asked else TRAINING_ACTIVITY
        elif self.measurements.is_running():
            activity = MEASURING
        else:
            activity = IDLE
        chosen = self.trainingView.chosen()
        return State(activity, has_model=chosen is not None and chosen.model is not None,
                     has_runs=bool(self.session.runs), held=self.is_paused())

    @Slot()
    def _update_actions(self) -> None:
        update_actions(self.actions, self.state())

    def _on_runs_changed(self, run: Run) -> None:
        self._update_actions()

    def set_theme(self, choice: str) -> None:
        """SYSTEM, LIGHT_KEY or DARK_KEY: the widgets' palette and every plot."""
        applied = theme.apply(QApplication.instance(), choice)
        self.setStyleSheet(style_sheet(applied.dark))
        self.codePanel.set_dark(applied.dark)
        self.theme_choice = choice
        {theme.SYSTEM: self.actions.theme_system, theme.LIGHT_KEY: self.actions.theme_light,
         theme.DARK_KEY: self.actions.theme_dark}[choice].setChecked(True)

    def set_language(self, language: str) -> MainWindow:
        """Show the window in `language` (i18n.LANGUAGES) at once: returns the window that shows it
        (a new one, see ui/shell/rebuild.py; this one, unchanged, while a job goes)."""
        return rebuild_in(self, language)

    @Slot(str)
    def show_fault(self, error: str) -> None:
        """An exception nobody caught (ui/shell/faults.py): say so; it is in the log file with its traceback."""
        self._set_status(self.tr("Something went wrong: {error}. The details are in {path}; the window goes on.")
                         .format(error=error, path=current_log() or self.tr("the terminal")), error=True)

    @Slot()
    def show_help(self) -> None:
        show_help(self)

    @Slot()
    def show_about(self) -> None:
        show_about(self)

    def _set_status(self, text: str, error: bool = False) -> None:
        self.statusLabel.setText(text)
        set_style_flag(self.statusLabel, "error", error)

    @Slot(int)
    def _on_tab(self, index: int) -> None:
        if self.viewTabs.widget(index) is self.landscapeView:  # it was not redrawn while hidden
            self.landscapeView.show_run(self.trainingView.chosen())

    @Slot()
    def _on_predicted(self) -> None:
        if not self.is_paused():  # while paused, the mark stays where the run holds
            self.codePanel.mark(PREDICTING)

    @Slot()
    def predict_values(self) -> None:
        self.predictionPanel.predict()

    # --- closing -------------------------------------------------------------------

    def is_training(self) -> bool:
        return self._controller.is_running()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_before:  # docks take their sizes once the window is laid out on screen
            self._shown_before = True
            if self._preferences is None or self._preferences.store.value("window/state") is None:
                widen_code_panel(self)

    def closeEvent(self, event) -> None:
        if self._preferences is not None:
            self._preferences.save(self)
        for unsubscribe in (self._unsubscribe, self.trainingView.detach, self.landscapeView.detach):
            unsubscribe()
        self._refresh.stop()
        self._memory.stop()
        self._controller.shutdown()
        self.measurements.shutdown()
        super().closeEvent(event)

