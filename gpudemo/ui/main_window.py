"""The window: pick a device, set the run, watch the loss fall, then predict on the CPU."""

from __future__ import annotations

import time
from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core import settings
from gpudemo.core.devices import DeviceInfo, DeviceList, list_devices
from gpudemo.core.history import LossHistory
from gpudemo.core.script import PREDICTING, generate_script
from gpudemo.core.settings import InvalidSetting, TrainingConfig
from gpudemo.core.training import COMPLETED, DIVERGED, STOPPED, TRAINING, is_warm
from gpudemo.ui import format as fmt
from gpudemo.ui.code_panel import CodePanel
from gpudemo.ui.devices_panel import DevicePanel
from gpudemo.ui.loss_plot import make_loss_plot
from gpudemo.ui.prediction_panel import PredictionPanel
from gpudemo.ui.style import STYLE, set_style_flag
from gpudemo.ui.worker import TrainingController

REFRESH_MS = 33  # the plot and the counters redraw at most 30 times a second


class MainWindow(QMainWindow):
    runFinished = Signal()  # a run's thread has ended and the controls are free again

    def __init__(self, devices: DeviceList | Sequence[DeviceInfo] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("gpudemo — watch PyTorch train on a GPU"))
        self.setStyleSheet(STYLE)
        if devices is None:
            devices = list_devices()
        elif not isinstance(devices, DeviceList):
            devices = DeviceList(tuple(devices))
        self._devices = devices
        self._controller = TrainingController(self)
        self._history: LossHistory | None = None
        self._config: TrainingConfig | None = None
        self._count = 0
        self._dirty = False
        self._started_at = 0.0

        self._refresh = QTimer(self)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self._redraw)

        self._build()
        self._controller.progressed.connect(self._on_progressed)
        self._controller.phaseChanged.connect(self.codePanel.mark)
        self._controller.phaseChanged.connect(self._on_phase)
        self._controller.succeeded.connect(self._on_succeeded)
        self._controller.failed.connect(self._on_failed)
        self._controller.finished.connect(self._on_thread_finished)
        self._set_running(False)

    # --- building -----------------------------------------------------------------

    def _build(self) -> None:
        self.devicePanel = DevicePanel(self._devices)
        self.deviceList = self.devicePanel.list

        train_box = QGroupBox(self.tr("2. Train"))
        self.epochsSpin = QSpinBox(objectName="epochsSpin")
        self.epochsSpin.setRange(settings.EPOCHS_MIN, settings.EPOCHS_MAX)
        self.epochsSpin.setValue(settings.DEFAULT_EPOCHS)
        self.epochsSpin.setGroupSeparatorShown(True)
        self.epochsSpin.setAccelerated(True)
        self.lrInput = QLineEdit(str(settings.DEFAULT_LR), objectName="lrInput")
        self.lrInput.setToolTip(self.tr("A number from 1e-8 to 1000; 1e-3 is written like this"))
        self.seedInput = QLineEdit(str(settings.DEFAULT_SEED), objectName="seedInput")
        self.seedInput.setToolTip(self.tr("torch.manual_seed(seed): the same seed gives the same run"))
        self.startButton = QPushButton(self.tr("Start training"), objectName="startButton")
        self.stopButton = QPushButton(self.tr("Stop"), objectName="stopButton")
        self.startButton.setDefault(True)
        self.settingsError = QLabel(objectName="settingsError")
        self.settingsError.setWordWrap(True)
        self.settingsError.hide()
        form = QFormLayout()
        form.addRow(self.tr("Epochs"), self.epochsSpin)
        form.addRow(self.tr("Learning rate"), self.lrInput)
        form.addRow(self.tr("Seed"), self.seedInput)
        buttons = QHBoxLayout()
        buttons.addWidget(self.startButton, 2)
        buttons.addWidget(self.stopButton, 1)
        train_layout = QVBoxLayout(train_box)
        train_layout.addLayout(form)
        train_layout.addLayout(buttons)
        train_layout.addWidget(self.settingsError)

        self.predictionPanel = PredictionPanel()
        self.predictInput = self.predictionPanel.input
        self.predictButton = self.predictionPanel.button
        self.predictMessage = self.predictionPanel.message
        self.predictionTable = self.predictionPanel.table

        left = QVBoxLayout()
        left.addWidget(self.devicePanel)
        left.addWidget(train_box)
        left.addWidget(self.predictionPanel, 1)
        left_widget = QWidget()
        left_widget.setLayout(left)
        left_widget.setFixedWidth(380)

        self.statusLabel = QLabel(self.tr("Ready: pick a device and press Start training."),
                                  objectName="statusLabel")
        self.statusLabel.setWordWrap(True)
        self.lossPlot, self.lossCurve = make_loss_plot()
        self.logScaleCheck = QCheckBox(self.tr("Log scale"), objectName="logScaleCheck")
        self.progressBar = QProgressBar(objectName="progressBar")
        self.progressBar.setFormat(self.tr("%v / %m epochs"))
        self.rateLabel = QLabel(objectName="rateLabel")
        self.rateLabel.setFixedWidth(300)  # a fixed width: new text needs no new layout
        self.resultLabel = QLabel(objectName="resultLabel")
        self.resultLabel.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progressBar, 1)
        progress_row.addWidget(self.rateLabel)
        progress_row.addWidget(self.logScaleCheck)
        right = QVBoxLayout()
        right.addWidget(self.statusLabel)
        right.addWidget(self.lossPlot, 1)
        right.addLayout(progress_row)
        right.addWidget(self.resultLabel)

        central = QWidget()
        columns = QHBoxLayout(central)
        columns.addWidget(left_widget)
        columns.addLayout(right, 1)
        self.setCentralWidget(central)

        self.codePanel = CodePanel(self)
        self.codePanel.setMinimumWidth(540)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.codePanel)
        self.resize(1760, 860)

        self.startButton.clicked.connect(self.start_training)
        self.stopButton.clicked.connect(self.stop_training)
        self.predictionPanel.predicted.connect(self._on_predicted)
        self.logScaleCheck.toggled.connect(self._on_log_scale)
        self.lrInput.textChanged.connect(self._check_settings)
        self.seedInput.textChanged.connect(self._check_settings)
        self.lrInput.returnPressed.connect(self.start_training)
        for changed in (self.epochsSpin.valueChanged, self.lrInput.textChanged, self.seedInput.textChanged,
                        self.predictInput.textChanged, self.devicePanel.deviceChanged):
            changed.connect(self._update_script)
        self._update_script()

    # --- settings ------------------------------------------------------------------

    def _read_config(self) -> TrainingConfig:
        """The run the settings describe; raises InvalidSetting naming the bad field."""
        return TrainingConfig(
            device=self.devicePanel.current().id,
            epochs=self.epochsSpin.value(),
            lr=settings.parse_learning_rate(self.lrInput.text()),
            seed=settings.parse_seed(self.seedInput.text()),
        )

    @Slot()
    def _check_settings(self) -> bool:
        problems = []
        for field, parse in ((self.lrInput, settings.parse_learning_rate), (self.seedInput, settings.parse_seed)):
            try:
                parse(field.text())
                invalid = False
            except InvalidSetting as error:
                problems.append(str(error))
                invalid = True
            set_style_flag(field, "invalid", invalid)
        self.settingsError.setText("\n".join(problems))
        self.settingsError.setVisible(bool(problems))
        return not problems

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
        self.codePanel.set_script(generate_script(config, values))

    # --- a run ---------------------------------------------------------------------

    @Slot()
    def start_training(self) -> None:
        if self._controller.is_running():
            return
        if not self._check_settings():
            return
        config = self._read_config()
        self._config = config
        self._history = LossHistory(config.epochs)
        self._count = 0
        self._dirty = False
        self.lossCurve.show_history(self._history, 0)
        # The x axis spans the whole run from the start: the curve fills it from left to
        # right, and the axes need no new ticks (and no repaint) at every frame.
        view = self.lossPlot.getPlotItem().getViewBox()
        view.enableAutoRange(y=True)
        view.setXRange(1, max(2, config.epochs), padding=0.02)
        self.progressBar.setRange(0, 0)  # busy until the loop begins
        self.rateLabel.setText("")
        self.resultLabel.setText("")
        if is_warm():
            self._set_status(self.tr("Preparing the run on {device}…").format(device=config.device))
        else:
            self._set_status(self.tr(
                "Preparing the run on {device}: PyTorch loads its training code on the first run"
                " (a second or two)…").format(device=config.device))
        self._set_running(True)
        self._started_at = time.perf_counter()
        self._controller.start(config, self._history)
        self._refresh.start()

    @Slot()
    def stop_training(self) -> None:
        self._controller.stop()

    @Slot(str)
    def _on_phase(self, phase: str) -> None:
        if phase == TRAINING:
            self.progressBar.setRange(0, self._config.epochs)
            self.progressBar.setValue(0)
            self._started_at = time.perf_counter()  # the rate counts epochs, not the preparing
            self._set_status(self.tr("Training on {device}…").format(device=self._config.device))

    @Slot(int)
    def _on_progressed(self, count: int) -> None:
        self._count = count
        self._dirty = True

    @Slot()
    def _redraw(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        self.lossCurve.show_history(self._history, self._count)
        self.progressBar.setValue(self._count)
        elapsed = time.perf_counter() - self._started_at
        if elapsed > 0 and self._count:
            per_second = self._count / elapsed
            remaining = (self._config.epochs - self._count) / per_second
            self.rateLabel.setText(self.tr("{rate} epochs/s · ETA {eta}").format(
                rate=fmt.rate(per_second), eta=fmt.duration(remaining)))

    @Slot(object)
    def _on_succeeded(self, result) -> None:
        self._count = result.epochs_run
        self._dirty = True
        self._redraw()
        self.predictionPanel.set_model(result.model, result.config)
        summary = self.tr("{epochs} epochs on {device} in {seconds} ({rate} epochs/s)").format(
            epochs=f"{result.epochs_run:,}", device=result.config.device,
            seconds=fmt.duration(result.seconds), rate=fmt.rate(result.epochs_per_second))
        self.rateLabel.setText(self.tr("{rate} epochs/s").format(rate=fmt.rate(result.epochs_per_second)))
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
        params = result.parameters
        self.resultLabel.setText(self.tr("final loss {loss}   ·   learned  y = {weight} · x + {bias}").format(
            loss=fmt.loss(result.final_loss), weight=fmt.loss(params.get("weight")),
            bias=fmt.loss(params.get("bias"))))
        if self.predictInput.text().strip():
            self.predict_values()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._redraw()
        self._set_status(self.tr("Training failed: {message}").format(message=message), error=True)

    @Slot()
    def _on_thread_finished(self) -> None:
        self._refresh.stop()
        if self.progressBar.maximum() == 0:  # the run ended before its loop began
            self.progressBar.setRange(0, self._config.epochs)
        self._set_running(False)
        self.runFinished.emit()

    def _set_running(self, running: bool) -> None:
        self.startButton.setEnabled(not running)
        self.stopButton.setEnabled(running)
        for widget in (self.deviceList, self.epochsSpin, self.lrInput, self.seedInput):
            widget.setEnabled(not running)

    def _set_status(self, text: str, error: bool = False) -> None:
        self.statusLabel.setText(text)
        set_style_flag(self.statusLabel, "error", error)

    @Slot()
    def _on_predicted(self) -> None:
        self.codePanel.mark(PREDICTING)

    @Slot(bool)
    def _on_log_scale(self, on: bool) -> None:
        self.lossPlot.getPlotItem().setLogMode(y=on)

    @Slot()
    def predict_values(self) -> None:
        self.predictionPanel.predict()

    # --- closing -------------------------------------------------------------------

    def is_training(self) -> bool:
        return self._controller.is_running()

    def closeEvent(self, event) -> None:
        self._refresh.stop()
        self._controller.shutdown()
        super().closeEvent(event)
