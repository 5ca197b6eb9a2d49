"""The training form: problem, its size and model, batch, optimizer, epochs, learning rate, seed.

It validates with the core's rules (the command line's words) and hands out a
TrainingConfig; a value that does not apply to the chosen problem is disabled, not
hidden, so the layout does not jump.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gpudemo.core.base.errors import DataFileError, RunRefused, TrainingError
from gpudemo.core.base.messages import Message
from gpudemo.core.problems import uses as problem_uses
from gpudemo.core.settings import choices, rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.step.modes import MODES
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.style import set_style_flag
from gpudemo.ui.panels.form_fields import changed_signal, choice_box, read_value, spin_box, write_value

if TYPE_CHECKING:
    from gpudemo.core.training.plan import Plan


class TrainingPanel(QGroupBox):
    changed = Signal()  # any setting changed
    startRequested = Signal()  # Enter in a text field: the same as pressing Start

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("2. Train"))
        self._problem_field()
        self._size_fields()
        self._method_fields()
        self._run_fields()
        self._buttons()
        self._lay_out()
        self._connect()

    def _problem_field(self) -> None:
        """What the model learns: the problems, each titled and explained."""
        self.problemCombo = choice_box("problemCombo", choices.PROBLEM_CHOICES, leave_out=(choices.OWN_DATA,))
        # Its longest titles must not widen the left column: the list opens as wide as they need.
        self.problemCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.problemCombo.setMinimumContentsLength(20)
        self.problemCombo.view().setMinimumWidth(self.problemCombo.view().sizeHintForColumn(0) + 24)
        self.problemCombo.setToolTip(
            self.tr(
                "What the model learns: a straight line has two parameters (weight and bias) and a landscape you can"
                " see; the sine needs a neural network; the circles, xor, spiral and digits are classifications, whose"
                " accuracy is recorded beside the loss"
            )
        )

    def _size_fields(self) -> None:
        """How much it learns from and with: samples, the MLP's width and depth, the noise, the batch."""
        self.samplesSpin = spin_box(
            "samplesSpin",
            rules.SAMPLES_MIN,
            rules.SAMPLES_MAX,
            rules.DEFAULT_SAMPLES,
            self.tr(
                "Training points, 3 to 10,000,000, drawn on the CPU from the seed, then moved to the device. A GPU"
                " wins only when there is much to compute at once: on 3 points each step"
                " is a few tiny kernels, and launching them costs more than the CPU's"
                " whole step; try 1,000,000 and compare"
            ),
        )
        self.widthSpin = spin_box(
            "widthSpin",
            rules.WIDTH_MIN,
            rules.WIDTH_MAX,
            rules.DEFAULT_WIDTH,
            self.tr(
                "Units in each hidden layer of the MLP, 1 to 4096: more units can bend the curve"
                " more finely, and cost more arithmetic per step"
            ),
        )
        self.depthSpin = spin_box(
            "depthSpin",
            rules.DEPTH_MIN,
            rules.DEPTH_MAX,
            rules.DEFAULT_DEPTH,
            self.tr(
                "Hidden layers of the MLP, 0 to 8: each layer feeds the next, so the network can"
                " compose simple bends into complex shapes; 0 is a linear model (no hidden"
                " layer), which can only draw a straight line"
            ),
        )
        self.depthSpin.setSpecialValueText(self.tr("0 (linear)"))
        self.noiseSpin = QDoubleSpinBox(objectName="noiseSpin")
        self.noiseSpin.setRange(rules.NOISE_MIN, rules.NOISE_MAX)
        self.noiseSpin.setSingleStep(0.05)
        self.noiseSpin.setDecimals(2)
        self.noiseSpin.setValue(rules.DEFAULT_NOISE)
        self.noiseSpin.setToolTip(
            self.tr(
                "The standard deviation of the normal noise added to each 2-D point, 0 to 1 (the points span about -1.5"
                " to 1.5): more noise blurs the classes into each other"
            )
        )
        self.batchSpin = spin_box(
            "batchSpin",
            0,
            rules.BATCH_MAX,
            rules.DEFAULT_BATCH,
            self.tr(
                "Samples per optimizer step, shuffled each epoch; 0: the full batch. Small"
                " batches take many noisy steps per epoch; the full batch takes one exact"
                " step"
            ),
        )
        self.batchSpin.setSpecialValueText(self.tr("full batch"))

    def _method_fields(self) -> None:
        """How a step is taken: the optimizer, the precision, the step mode."""
        self.optimizerCombo = choice_box("optimizerCombo", choices.OPTIMIZER_CHOICES)
        self.optimizerCombo.setToolTip(
            self.tr(
                "How the gradient becomes a step: SGD steps straight down the slope; momentum keeps part of the last"
                " step and rolls through shallow valleys; Adam scales each weight's step by its own gradient's size"
            )
        )
        self.precisionCombo = choice_box("precisionCombo", choices.PRECISION_CHOICES)
        self.precisionCombo.setToolTip(
            self.tr(
                "What a step computes in. fp32: float32 throughout. tf32: float32 data, but a GPU's matrix"
                " products round"
                " to 10-bit mantissas on its tensor cores (Ampere and newer). bf16 and fp16: mixed precision with"
                " torch.autocast, the matrix products in 16 bits, losses and weights in float32; fp16 scales the loss"
                " (GradScaler) so that small gradients do not vanish. A device that cannot do one refuses it"
            )
        )
        self.precisionCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.precisionCombo.setMinimumContentsLength(12)
        self.stepCombo = QComboBox(objectName="stepCombo")
        for key, mode in MODES.items():
            self.stepCombo.addItem(say(Message(mode.label)), key)
        self.stepCombo.setToolTip(
            self.tr(
                "How each step is launched. eager: op by op, as the tutorial writes it; on a small problem the"
                " device waits on Python and on each kernel's launch. compiled: the whole step (forward, loss,"
                " backward, optimizer) through torch.compile, its operators fused into fewer kernels, on a GPU"
                " replayed as CUDA graphs; the first compile takes seconds and is timed apart. graph (CUDA"
                " only, full batch): the whole step captured once with torch.cuda.graph and replayed, many epochs"
                " per launch. Every mode starts from the same weights and data and trains the same losses"
                " (compiled: to float32's rounding, its fused kernels add in another order)"
            )
        )
        self.stepCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.stepCombo.setMinimumContentsLength(12)

    def _run_fields(self) -> None:
        """How long and from where: epochs, learning rate, seed; and whether the run's energy is metered."""
        self.epochsSpin = spin_box(
            "epochsSpin",
            rules.EPOCHS_MIN,
            rules.EPOCHS_MAX,
            rules.DEFAULT_EPOCHS,
            self.tr(
                "Passes over the data, 1 to 10,000,000. Each epoch computes the loss, its"
                " gradient (backward) and one step of the weights per batch"
            ),
        )
        self.lrInput = QLineEdit(str(rules.DEFAULT_LR), objectName="lrInput")
        self.lrInput.setToolTip(
            self.tr(
                "How far each step moves the weights against the gradient: too small and the loss falls slowly,"
                " too large and it overshoots and diverges. A number from 1e-8 to 1000; 1e-3 is written like this"
            )
        )
        self.seedInput = QLineEdit(str(rules.DEFAULT_SEED), objectName="seedInput")
        self.seedInput.setToolTip(
            self.tr(
                "torch.manual_seed(seed) fixes the random starting weights and data: the same seed gives the same"
                " run, a different one shows how much the start matters"
            )
        )
        self.energyCheck = QCheckBox(self.tr("meter J/epoch (5 s more)"), objectName="energyCheck")
        self.show_energy(None)

    def _buttons(self) -> None:
        # The run's buttons: the window binds each to its action (text, tip, shortcut, enabled state).
        self.startButton = QPushButton(objectName="startButton")
        self.startButton.setDefault(True)
        self.stopButton = QPushButton(objectName="stopButton")
        self.pauseButton = QPushButton(objectName="pauseButton")
        self.stepButton = QPushButton(objectName="stepButton")
        self.compareButton = QPushButton(objectName="compareButton")
        self.profileButton = QPushButton(objectName="profileButton")
        self.settingsError = QLabel(objectName="settingsError")
        self.settingsError.setWordWrap(True)
        self.settingsError.hide()

    def _lay_out(self) -> None:
        """The form's rows, then the run's buttons: start and stop, pause and step, compare and profile."""
        # A field in a row of two is named for a screen reader (a form's own label names only the row's first).
        for field, name in (
            (self.samplesSpin, self.tr("Samples")),
            (self.noiseSpin, self.tr("noise")),
            (self.widthSpin, self.tr("MLP width")),
            (self.depthSpin, self.tr("MLP depth")),
        ):
            field.setAccessibleName(name)
        model_row = QHBoxLayout()
        model_row.addWidget(QLabel(self.tr("width")))
        model_row.addWidget(self.widthSpin, 1)
        model_row.addWidget(QLabel(self.tr("depth")))
        model_row.addWidget(self.depthSpin, 1)
        form = QFormLayout()
        form.addRow(self.tr("Problem"), self.problemCombo)
        samples_row = QHBoxLayout()
        samples_row.addWidget(self.samplesSpin, 3)
        samples_row.addWidget(QLabel(self.tr("noise")))
        samples_row.addWidget(self.noiseSpin, 2)
        form.addRow(self.tr("Samples"), samples_row)
        form.addRow(self.tr("MLP"), model_row)
        form.addRow(self.tr("Batch"), self.batchSpin)
        form.addRow(self.tr("Optimizer"), self.optimizerCombo)
        form.addRow(self.tr("Precision"), self.precisionCombo)
        form.addRow(self.tr("Step"), self.stepCombo)
        form.addRow(self.tr("Epochs"), self.epochsSpin)
        form.addRow(self.tr("Learning rate"), self.lrInput)
        form.addRow(self.tr("Seed"), self.seedInput)
        form.addRow(self.tr("Energy"), self.energyCheck)
        for row in range(form.rowCount()):  # each field named as its row says (a combo's name is its text else)
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is not None and field is not None and field.widget() is not None:
                if not field.widget().accessibleName():
                    field.widget().setAccessibleName(label.widget().text())
        buttons = QHBoxLayout()
        buttons.addWidget(self.startButton, 2)
        buttons.addWidget(self.stopButton, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        hold = QHBoxLayout()
        hold.addWidget(self.pauseButton, 1)
        hold.addWidget(self.stepButton, 1)
        layout.addLayout(buttons)
        layout.addLayout(hold)
        measure = QHBoxLayout()
        measure.addWidget(self.compareButton, 1)
        measure.addWidget(self.profileButton, 1)
        layout.addLayout(measure)
        layout.addWidget(self.settingsError)

    def _connect(self) -> None:
        # Each setting of the config table (core/settings/config.py) and the widget that holds it; the data file
        # is no widget: it is opened from the File menu.
        self.fields: dict[str, QWidget] = {
            "problem": self.problemCombo,
            "samples": self.samplesSpin,
            "noise": self.noiseSpin,
            "width": self.widthSpin,
            "depth": self.depthSpin,
            "batch_size": self.batchSpin,
            "optimizer": self.optimizerCombo,
            "precision": self.precisionCombo,
            "step": self.stepCombo,
            "epochs": self.epochsSpin,
            "lr": self.lrInput,
            "seed": self.seedInput,
        }
        for widget in self.fields.values():
            changed_signal(widget).connect(self.changed)
        for field in (self.lrInput, self.seedInput):
            field.textChanged.connect(self.check)
            field.returnPressed.connect(self.startRequested)
        self.problemCombo.currentIndexChanged.connect(self._apply_problem)
        self._running = False
        self._data_path = ""  # the file of the problem "data", once one is read (File > Open data)
        self._apply_problem()

    def problem(self) -> str:
        return self.problemCombo.currentData()

    def config(self, device: str) -> TrainingConfig:
        """The run the form describes on `device`; raises InvalidSetting naming the bad field (typed text
        goes through the same rules as the command line's)."""
        return TrainingConfig(device=device, **self._values())

    def _values(self) -> dict:
        values = {name: read_value(widget) for name, widget in self.fields.items()}
        return {**values, "data": self._data_path if values["problem"] == "data" else ""}

    def set_data(self, path: str, name: str) -> None:
        """A person's data file, read and good: it becomes the problem "data", chosen."""
        self._data_path = path
        index = self.problemCombo.findData("data")
        if index < 0:
            self.problemCombo.addItem("", "data")
            index = self.problemCombo.count() - 1
        self.problemCombo.setItemText(index, self.tr("Your data: {name}").format(name=name))
        self.problemCombo.setItemData(index, path, Qt.ItemDataRole.ToolTipRole)
        self.problemCombo.setCurrentIndex(index)
        self.changed.emit()

    @Slot()
    def check(self) -> bool:
        """Validate what was typed; name each bad value under the form. True when all are good."""
        problems = []
        for field, parse in ((self.lrInput, rules.parse_learning_rate), (self.seedInput, rules.parse_seed)):
            try:
                parse(field.text())
                invalid = False
            except InvalidSetting as error:
                problems.append(say(error))
                invalid = True
            set_style_flag(field, "invalid", invalid)
        self.show_error("\n".join(problems))
        return not problems

    def plan_to_start(self, device: str, devices: Sequence[str] | None = None) -> Plan | None:
        """The form's run on `device`, checked whole (core/training/plan.py's preflight, which the run then takes),
        when its values are valid and it fits on each of `devices` too; else None, with the reason under
        the form."""
        if not self.check():
            return None
        from gpudemo.core.training.budget import check_fits  # Start waits for PyTorch: it has loaded by now
        from gpudemo.core.training.plan import preflight

        try:
            plan = preflight(self.config(device))
            for each in devices or []:  # compare marks the devices that cannot take its precision or step
                if each != device:
                    check_fits(dataclasses.replace(plan.config, device=each))
        except (RunRefused, TrainingError, DataFileError) as refused:  # too large, or the file changed
            self.show_error(self.tr("Not started: {reason}.").format(reason=say(refused)))
            return None
        return plan

    def show_error(self, text: str) -> None:
        """A message under the form ("" hides it): a bad value, or a run that cannot fit."""
        self.settingsError.setText(text)
        self.settingsError.setVisible(bool(text))

    def show_energy(self, reason: str | None) -> None:
        """Whether the chosen device's energy can be metered here (`reason`: why not), in the box's tip."""
        what = self.tr(
            "After a completed run (and for each device Compare runs), its step runs again for 4 s after 1 s of idle,"
            " under the device's energy counter (NVML on an NVIDIA GPU, RAPL on the CPU): joules per epoch, in"
            " total and above the idle power, in the status line and Compare's table. Never estimated: where a"
            " device has no counter, the reason is said instead"
        )
        here = (
            self.tr("The chosen device is metered by its counter.")
            if reason is None
            else self.tr("Not on the chosen device: {reason}.").format(reason=reason)
        )
        self.energyCheck.setToolTip(f"{what}. {here}")

    def meters_energy(self) -> bool:
        return self.energyCheck.isChecked()

    def set_running(self, running: bool) -> None:
        """Lock the form while a job goes (its buttons follow the window's actions)."""
        self._running = running
        self.energyCheck.setEnabled(not running)
        for widget in self.fields.values():
            widget.setEnabled(not running)
        if not running:
            self._apply_problem()

    def set_config(self, config: TrainingConfig) -> None:
        """Fill the form with `config`'s values (a loaded model's settings)."""
        self.set_values(dataclasses.asdict(config))

    def snapshot(self) -> dict:
        """The form as it stands, typed text included (valid or not), for `restore`."""
        return {**self._values(), "data": self._data_path}

    def restore(self, snapshot: dict) -> None:
        """The form as `snapshot` took it."""
        values = dict(snapshot)
        if values["problem"] != "data":
            values.pop("data")
        self.set_values(values)

    def set_values(self, values: dict) -> None:
        """Fill the fields named in `values` (TrainingConfig's field names: valid values, or the text of a
        typed field); leave the others."""
        if values.get("problem") == "data" and values.get("data"):
            self._data_path = values["data"]  # a loaded model's data file (read when a run needs it)
            self.set_data(values["data"], Path(values["data"]).name)
        for name, widget in self.fields.items():
            if name in values:
                write_value(widget, values[name])

    @Slot()
    def _apply_problem(self) -> None:
        """Enable the settings the chosen problem uses; keep the others, greyed."""
        uses = problem_uses(self.problem())
        for name, widget in (
            ("samples", self.samplesSpin),
            ("noise", self.noiseSpin),
            ("width", self.widthSpin),
            ("depth", self.depthSpin),
        ):
            widget.setEnabled(name in uses and not self._running)
