"""Every command of the window as one QAction, and the one function that sets their state.

Menus, shortcuts and the window's buttons all show these actions: a button bound to an
action takes its text, tooltip (with the shortcut) and enabled state from it and
triggers it when clicked, so a command is enabled in one place only: `update_actions`,
from the window's state. It needs no thread to test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QAbstractButton

from gpudemo.ui.base.i18n import LANGUAGES

IDLE, TRAINING, PAUSED, MEASURING = "idle", "training", "paused", "measuring"


@dataclass(frozen=True)
class State:
    activity: str = IDLE  # IDLE, TRAINING, PAUSED (pause asked) or MEASURING (compare, sweep, profile)
    has_model: bool = False  # a run (the chosen one) has a model to save or predict with
    has_runs: bool = False  # runs are kept: something to export or clear
    held: bool = False  # the paused run has stopped before its next epoch: a step can be asked for
    loading: bool = False  # PyTorch is loading (ui/jobs/loader.py): only Start, which waits for it
    queued: bool = False  # Start was pressed while loading: the run begins when PyTorch has loaded
    torch_failed: bool = False  # PyTorch could not be imported: loading for good, About says why


def plain(text: str) -> str:
    """A menu text without its mnemonic: "&Start training" -> "Start training", "开始训练(&S)" -> "开始训练"."""
    return re.sub(r"\s*\(&\w\)", "", text).replace("&", "")


def tooltip(action: QAction) -> str:
    """The action's tip, with its shortcut as the menus show it."""
    tip = action.toolTip() or plain(action.text())
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys else tip


class Actions(QObject):
    """Every command of the window, once: the menus, the buttons and the shortcuts all hold these."""

    def __init__(self, parent: QObject):
        super().__init__(parent)
        self._run_actions()
        self._file_actions()
        self._view_actions()
        self._help_actions()

    def _run_actions(self) -> None:
        """The Run menu: a run and its holds, then the measurements."""
        new = self._new
        self.start = new(
            self.tr("&Start training"),
            "Ctrl+Return",
            self.tr("Train the model on the chosen device with these settings"),
        )
        self.stop = new(self.tr("S&top"), "Escape", self.tr("Stop the run, comparison, sweep or profile within a step"))
        self.pause = new(
            self.tr("&Pause"),
            "Space",
            self.tr("Hold the run before its next epoch; predictions use the model as it stands"),
        )
        self.step = new(self.tr("Step one &epoch"), "Ctrl+.", self.tr("While paused: run one epoch, then hold again"))
        self.compare = new(
            self.tr("&Compare every device"),
            "Ctrl+Shift+C",
            self.tr("Run these settings on each device in turn, timed fairly, with the CPU as the baseline"),
        )
        self.sweep = new(
            self.tr("S&weep every device"),
            "Ctrl+Shift+W",
            self.tr("Time a step on every device as the size grows: from which size a GPU wins"),
        )
        self.transfer = new(
            self.tr("Time &moving data"),
            "Ctrl+Shift+M",
            self.tr(
                "Time copies of 1 KiB to 1 GiB to the GPU and back, from pageable and from pinned memory: the fixed"
                " cost of a copy, the bandwidth, and a copy hidden behind compute"
            ),
        )
        self.parallel = new(
            self.tr("Data &parallel"),
            "Ctrl+Shift+D",
            self.tr(
                "Run these settings with DistributedDataParallel on 1, 2, ... worker processes in turn: what more"
                " workers gain, and what their all-reduce costs"
            ),
        )
        self.profile = new(
            self.tr("P&rofile a step"),
            "Ctrl+Shift+P",
            self.tr(
                "Run a few steps of these settings under torch.profiler on the chosen device: where a step's time goes"
            ),
        )

    def _file_actions(self) -> None:
        """The File menu: what a run leaves, and what it starts from."""
        new = self._new
        self.export_losses = new(
            self.tr("&Export losses as CSV…"),
            "Ctrl+E",
            self.tr("Every epoch's loss of the runs shown on the loss plot, one row per epoch and run"),
        )
        self.export_plot = new(
            self.tr("Export the &plot…"),
            "Ctrl+Shift+E",
            self.tr("The plot of the view shown, as a PNG picture or an SVG drawing"),
        )
        self.export_notebook = new(
            self.tr("Export as a &notebook…"),
            "Ctrl+Shift+N",
            self.tr(
                "The Code panel's script as a Jupyter notebook (.ipynb), in cells with their explanations: open it in"
                " Colab, Kaggle or a JupyterHub to train on a borrowed GPU"
            ),
        )
        self.export_lesson_notebook = new(
            self.tr("Export the GPU lesson's measurements as a notebook…"),
            "",
            self.tr(
                "The second lesson's measurements as a Jupyter notebook that needs only PyTorch: run it on a hosted"
                " GPU (Colab, Kaggle), then load the file it writes with Load measurements"
            ),
        )
        self.load_measurements = new(
            self.tr("Load &measurements…"),
            "",
            self.tr(
                "The result file of the lesson's notebook, run where a GPU is: the second lesson then shows what that"
                " GPU measured, with its name and date, where this machine has none"
            ),
        )
        self.save_model = new(
            self.tr("&Save model…"),
            "Ctrl+S",
            self.tr("The chosen run's model and the settings it was trained with, in a checkpoint file"),
        )
        self.load_model = new(
            self.tr("&Load model…"),
            "Ctrl+O",
            self.tr("A checkpoint saved before: its model predicts again, and its settings fill the form"),
        )
        self.open_data = new(
            self.tr("Open &data…"),
            "Ctrl+D",
            self.tr(
                "Train on your own points: a CSV file of x,y rows (a regression) or x1,x2,label rows (a classification)"
            ),
        )
        self.quit = new(self.tr("&Quit"), "Ctrl+Q", self.tr("Stop what is going and close gpudemo"))

    def _view_actions(self) -> None:
        """The View menu: the axis, the runs kept, the theme and the language."""
        new = self._new
        self.log_scale = new(self.tr("&Log scale"), "Ctrl+L", self.tr("The loss on a log axis"), checkable=True)
        self.clear_runs = new(
            self.tr("&Clear runs"),
            "Ctrl+Shift+Backspace",
            self.tr("Remove every run from the plot and the table but the one going"),
        )
        self.theme_system = new(self.tr("&System"), "", self.tr("Light or dark, as the system is"), checkable=True)
        self.theme_light = new(self.tr("&Light"), "", self.tr("Dark text on light backgrounds"), checkable=True)
        self.theme_dark = new(
            self.tr("&Dark"),
            "",
            self.tr("Light text on dark backgrounds: easier on the eyes in a dark room"),
            checkable=True,
        )
        self.themes = QActionGroup(self)
        for action in (self.theme_system, self.theme_light, self.theme_dark):
            self.themes.addAction(action)
        self.theme_system.setChecked(True)
        # Each language by its own name, not translated: a person who cannot read the one shown finds theirs.
        self.languages = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code, name in LANGUAGES.items():
            action = new(name, "", name, checkable=True)
            action.setObjectName(f"language_{code}")
            action.setData(code)
            self.languages.addAction(action)
            self.language_actions[code] = action

    def _help_actions(self) -> None:
        """The Help menu: the guide, the two lessons, About."""
        new = self._new
        self.help = new(self.tr("&What each control does"), "F1", self.tr("A short guide to every control"))
        self.lesson = new(
            self.tr("&Lesson: the tutorial, step by step"),
            "Ctrl+Shift+L",
            self.tr(
                "Walk through the tutorial one step at a time: the devices, the data, the model, moving to the device,"
                " training, back to the CPU, predicting, and when a GPU pays"
            ),
        )
        self.gpu_lesson = new(
            self.tr("Lesson: &make the GPU win"),
            "Ctrl+Shift+G",
            self.tr(
                "Guess first, then measure on this machine, then the reason: where a GPU starts to win, how busy it"
                " is, what doubling the samples costs, capturing the step, bfloat16, pinned memory, two workers"
            ),
        )
        self.about = new(self.tr("&About gpudemo"), "", self.tr("Versions, for a bug report"))

    @Slot()
    def system_theme_changed(self) -> None:
        """The system's colour scheme or contrast preference changed: followed where the theme is "system"."""
        if self.theme_system.isChecked():
            self.theme_system.trigger()

    def _new(self, text: str, keys: str, tip: str, checkable: bool = False) -> QAction:
        action = QAction(text, self.parent())
        if keys:
            action.setShortcut(QKeySequence(keys))
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.setCheckable(checkable)
        return action

    def all(self) -> list[QAction]:
        return [value for value in vars(self).values() if isinstance(value, QAction)]


def update_actions(actions: Actions, state: State) -> None:
    """Enable each command for the state the window is in: the one place that decides it."""
    idle = state.activity == IDLE
    training = state.activity in (TRAINING, PAUSED)
    jobs = (
        actions.compare,
        actions.sweep,
        actions.parallel,
        actions.transfer,
        actions.profile,
        actions.lesson,
        actions.gpu_lesson,
        actions.load_model,
        actions.open_data,
        actions.export_notebook,  # the script is made by the problems, in torch
        *actions.language_actions.values(),
    )  # a new language rebuilds the window: not while a job goes, nor while loading (no devices to take over)
    for action in jobs:  # what needs torch waits for it while it loads
        action.setEnabled(idle and not state.loading)
    actions.start.setEnabled(idle and not state.queued)  # taken while loading, run when PyTorch is there
    actions.stop.setEnabled(not idle or state.queued)
    # it asks torch its versions: not while torch loads (the import would block the window), but where torch
    # could not be imported, when the versions and the reason are what a person needs for a bug report
    actions.about.setEnabled(not state.loading or state.torch_failed)
    actions.pause.setEnabled(training)
    actions.pause.setText(
        QCoreApplication.translate("Actions", "&Resume")
        if state.activity == PAUSED
        else QCoreApplication.translate("Actions", "&Pause")
    )
    actions.step.setEnabled(state.activity == PAUSED and state.held)
    actions.save_model.setEnabled(state.has_model)
    actions.export_losses.setEnabled(state.has_runs)
    actions.clear_runs.setEnabled(state.has_runs)


class _ButtonBinding(QObject):
    """Keeps a button's text, tip and enabled state those of its action; a click triggers the action."""

    def __init__(self, button: QAbstractButton, action: QAction):
        super().__init__(button)
        self.button, self.action = button, action
        action.changed.connect(self.sync)
        if action.isCheckable():
            button.setCheckable(True)
            button.toggled.connect(action.setChecked)
            action.toggled.connect(button.setChecked)
        else:
            button.clicked.connect(action.trigger)
        self.sync()

    @Slot()
    def sync(self) -> None:
        self.button.setText(plain(self.action.text()))
        self.button.setToolTip(tooltip(self.action))
        self.button.setEnabled(self.action.isEnabled())


def bind(button: QAbstractButton, action: QAction) -> None:
    """Make `button` show `action` (a button's own object name stays, for tests and style)."""
    _ButtonBinding(button, action)
