"""How the window's parts talk: each button shows its action, each action runs its command, and the
jobs, the views and the panels hear each other. Called once by the window it wires."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget

from gpudemo.ui.base import theme
from gpudemo.ui.shell.actions import bind
from gpudemo.ui.shell.dialogs import show_about, show_help

# A button (by object name) and the action it shows.
BUTTONS = {
    "startButton": "start", "stopButton": "stop", "pauseButton": "pause", "stepButton": "step",
    "compareButton": "compare", "profileButton": "profile", "sweepButton": "sweep", "parallelButton": "parallel",
    "transferButton": "transfer", "lessonButton": "lesson", "logScaleCheck": "log_scale",
    "clearRunsButton": "clear_runs", "notebookButton": "export_notebook",
}  # fmt: skip


def wire_view(window, view: QWidget) -> None:
    """The buttons in `view` (a view built after the window, see views/deferred.py) show their actions."""
    for name, action in BUTTONS.items():
        button = view.findChild(QAbstractButton, name)
        if button is not None:
            bind(button, getattr(window.actions, action))


def wire(window) -> None:
    actions, run, files = window.actions, window.run_commands, window.files
    wire_view(window, window)  # the views built later wire their buttons then
    commands = {
        actions.start: run.start_training, actions.stop: run.stop, actions.pause: run.toggle_pause,
        actions.step: run.step, actions.compare: run.start_compare, actions.sweep: run.start_sweep,
        actions.parallel: run.start_parallel, actions.transfer: run.start_transfer, actions.profile: run.start_profile,
        actions.clear_runs: window.session.clear, actions.export_losses: files.export_losses,
        actions.export_plot: files.export_shown_plot, actions.save_model: files.save_model,
        actions.load_model: files.load_model, actions.open_data: files.open_data, actions.quit: window.close,
        actions.export_notebook: window.codePanel.save_notebook_dialog,
        actions.export_lesson_notebook: window.gpu_lesson.export_notebook,
        actions.load_measurements: window.gpu_lesson.load_measurements,
        actions.help: partial(show_help, window), actions.lesson: window.lesson.open,
        actions.gpu_lesson: window.gpu_lesson.open,
        actions.about: partial(show_about, window),
    }  # fmt: skip
    for action, slot in commands.items():
        action.triggered.connect(slot)
    for code, action in actions.language_actions.items():
        action.triggered.connect(lambda checked=False, code=code: window.set_language(code))
    for action, choice in ((actions.theme_system, theme.SYSTEM), (actions.theme_light, theme.LIGHT_KEY),
                           (actions.theme_dark, theme.DARK_KEY)):  # fmt: skip
        action.triggered.connect(lambda checked=False, choice=choice: window.set_theme(choice))
    theme.follow_system(QApplication.instance(), actions.system_theme_changed)  # a slot of a GUI-thread QObject
    window.trainingPanel.startRequested.connect(run.start_training)
    window.job.phaseChanged.connect(window.codePanel.mark)
    window.job.pausedAt.connect(window.codePanel.mark_paused)
    window.measurements.status.connect(window.runStatus.say)
    window.measurements.progressed.connect(window.runStatus.measuring)
    window.measurements.deviceBusy.connect(window.memory.follow)
    window.memory.read.connect(window.devicePanel.show_memory)
    view = window.trainingView
    for chosen in (run.update_actions, window.predictionPanel.set_run, window.show_landscape):
        view.chosenChanged.connect(chosen)
    view.digitsView.imagePicked.connect(window.predictionPanel.predict_image)
    for changed in (window.trainingPanel.changed, window.predictInput.textChanged, window.devicePanel.deviceChanged):
        changed.connect(window.update_script)
    window.devicePanel.deviceChanged.connect(run.energy_for_device)
    run.energy_for_device()
