"""Every command of the window as one QAction, and the one function that sets their state.

Menus, shortcuts and the window's buttons all show these actions: a button bound to an
action takes its text, tooltip (with the shortcut) and enabled state from it and
triggers it when clicked, so a command is enabled in one place only: `update_actions`,
from the window's state. It needs no thread to test.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QAbstractButton

IDLE, TRAINING, PAUSED, MEASURING = "idle", "training", "paused", "measuring"


@dataclass(frozen=True)
class State:
    activity: str = IDLE  # IDLE, TRAINING, PAUSED (pause asked) or MEASURING (compare, sweep, profile)
    has_model: bool = False  # a run (the chosen one) has a model to save or predict with
    has_runs: bool = False  # runs are kept: something to export or clear
    held: bool = False  # the paused run has stopped before its next epoch: a step can be asked for


def tooltip(action: QAction) -> str:
    """The action's tip, with its shortcut as the menus show it."""
    tip = action.toolTip() or action.text().replace("&", "")
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys else tip


class Actions(QObject):
    def __init__(self, parent: QObject):
        super().__init__(parent)
        new = self._new
        # Run
        self.start = new("&Start training", "Ctrl+Return",
                         self.tr("Train the model on the chosen device with these settings"))
        self.stop = new("S&top", "Escape", self.tr("Stop the run, comparison, sweep or profile within a step"))
        self.pause = new("&Pause", "Space", self.tr(
            "Hold the run before its next epoch; predictions use the model as it stands"))
        self.step = new("Step one &epoch", "Ctrl+.", self.tr("While paused: run one epoch, then hold again"))
        self.compare = new("&Compare every device", "Ctrl+Shift+C", self.tr(
            "Run these settings on each device in turn, timed fairly, with the CPU as the baseline"))
        self.sweep = new("S&weep every device", "Ctrl+Shift+W", self.tr(
            "Time a step on every device as the size grows: from which size a GPU wins"))
        self.profile = new("P&rofile a step", "Ctrl+Shift+P", self.tr(
            "Run a few steps of these settings under torch.profiler on the chosen device: where a step's time goes"))
        # File
        self.export_losses = new("&Export losses as CSV…", "Ctrl+E", self.tr(
            "Every epoch's loss of the runs shown on the loss plot, one row per epoch and run"))
        self.export_plot = new("Export the &plot…", "Ctrl+Shift+E", self.tr(
            "The plot of the view shown, as a PNG picture or an SVG drawing"))
        self.save_model = new("&Save model…", "Ctrl+S", self.tr(
            "The chosen run's model and the settings it was trained with, in a checkpoint file"))
        self.load_model = new("&Load model…", "Ctrl+O", self.tr(
            "A checkpoint saved before: its model predicts again, and its settings fill the form"))
        self.quit = new("&Quit", "Ctrl+Q", self.tr("Stop what is going and close gpudemo"))
        # View
        self.log_scale = new("&Log scale", "Ctrl+L", self.tr("The loss on a log axis"), checkable=True)
        self.clear_runs = new("&Clear runs", "Ctrl+Shift+Backspace", self.tr(
            "Remove every run from the plot and the table but the one going"))
        self.theme_system = new("&System", "", self.tr("Light or dark, as the system is"), checkable=True)
        self.theme_light = new("&Light", "", self.tr("Dark text on light backgrounds"), checkable=True)
        self.theme_dark = new("&Dark", "", self.tr("Light text on dark backgrounds: easier on the eyes in a dark room"),
                              checkable=True)
        self.themes = QActionGroup(self)
        for action in (self.theme_system, self.theme_light, self.theme_dark):
            self.themes.addAction(action)
        self.theme_system.setChecked(True)
        # Help
        self.help = new("&What each control does", "F1", self.tr("A short guide to every control"))
        self.about = new("&About gpudemo", "", self.tr("Versions, for a bug report"))

    def _new(self, text: str, keys: str, tip: str, checkable: bool = False) -> QAction:
        action = QAction(self.tr(text), self.parent())
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
    for action in (actions.start, actions.compare, actions.sweep, actions.profile, actions.load_model):
        action.setEnabled(idle)
    actions.stop.setEnabled(not idle)
    actions.pause.setEnabled(training)
    actions.pause.setText(actions.tr("&Resume") if state.activity == PAUSED else actions.tr("&Pause"))
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
        self.button.setText(self.action.text().replace("&", ""))
        self.button.setToolTip(tooltip(self.action))
        self.button.setEnabled(self.action.isEnabled())


def bind(button: QAbstractButton, action: QAction) -> None:
    """Make `button` show `action` (a button's own object name stays, for tests and style)."""
    _ButtonBinding(button, action)
