"""The window: pick a device, set the run, watch the loss fall, then predict on the CPU.

It builds the parts and connects them; each part does its own work: the panels (panels/),
the tabs (views/), the jobs on worker threads (jobs/), the frame's actions, menus, files and
preferences (shell/).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QEventLoop, QObject, Signal, Slot
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

from gpudemo.core.hardware.machine import DeviceInfo, DeviceList, cpu_device
from gpudemo.core.session.runs import Session
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.training import PREDICTING
from gpudemo.logfile import current_log
from gpudemo.ui.base import i18n, theme
from gpudemo.ui.base.style import style_sheet
from gpudemo.ui.jobs.measurements import Measurements
from gpudemo.ui.jobs.memory_watch import MemoryWatch
from gpudemo.ui.jobs.training_job import TrainingJob
from gpudemo.ui.panels.left_column import LeftColumn
from gpudemo.ui.shell.actions import Actions
from gpudemo.ui.shell.body import WindowBody, add_docks
from gpudemo.ui.shell.file_commands import FileCommands
from gpudemo.ui.shell.guess_lesson import GuessLesson
from gpudemo.ui.shell.lesson_commands import LessonCommands
from gpudemo.ui.shell.menus import build_menus, fit_to_screen, widen_code_panel
from gpudemo.ui.shell.preferences import Preferences
from gpudemo.ui.shell.rebuild import rebuild_in
from gpudemo.ui.shell.run_commands import RunCommands
from gpudemo.ui.shell.torch_loading import TorchLoading
from gpudemo.ui.shell.wiring import wire, wire_view
from gpudemo.ui.views.catalog import DEFERRED, EXPOSED, OWNER, Deferred, place_views
from gpudemo.ui.views.run_status import RunStatus
from gpudemo.ui.views.training_view import TrainingView
from gpudemo.ui.views.view_tabs import ViewTabs


class MainWindow(QMainWindow):
    runFinished = Signal()  # a job's thread has ended and the controls are free again
    replaced = Signal(object)  # the window rebuilt in another language: the MainWindow that takes this one's place
    devicesListed = Signal()  # the devices are listed (PyTorch has loaded): every command can run

    def __init__(
        self,
        devices: DeviceList | Sequence[DeviceInfo] | None = None,
        session: Session | None = None,
        preferences: Preferences | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("gpudemo — watch PyTorch train on a GPU"))
        # Not given: PyTorch loads after the first paint (ui/jobs/loader.py), the CPU listed meanwhile.
        self.loading = devices is None
        self.torch_error = ""  # why PyTorch could not be loaded, where it could not
        self.torch_failure = ""  # the import's own error then (About shows it)
        self.devices = devices if isinstance(devices, DeviceList) else DeviceList(tuple(devices or (cpu_device(),)))
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
        self.torch_loading = TorchLoading(self)
        self.loader = self.torch_loading.loader
        if self.loading:
            self.torch_loading.begin()

    def _build(self) -> None:
        self.left = LeftColumn(self.devices)
        self.devicePanel, self.trainingPanel = self.left.devicePanel, self.left.trainingPanel
        self.predictionPanel = self.left.predictionPanel
        self.runStatus = RunStatus(self)
        self.viewTabs = ViewTabs()
        self.trainingView = TrainingView(self.session)
        self._pages = {
            name: Deferred(name, partial(build, self), self._view_built) for name, (build, _names) in DEFERRED.items()
        }
        place_views(self.viewTabs, self.trainingView, self._pages)
        self.lossView = self.trainingView.loss
        self.setCentralWidget(WindowBody(self.left, self.runStatus, self.viewTabs))
        self.codePanel, self.lessonPanel, self.guessPanel = add_docks(self)
        for name in EXPOSED:
            if name not in OWNER:
                setattr(self, name, self.findChild(QObject, name))

        landscape = partial(self.built_view, "landscapeView")
        self.job = TrainingJob(self.session, self.trainingView, landscape, self.runStatus, self)
        self.measurements = Measurements(partial(getattr, self), self.session.measured, self)
        self.memory = MemoryWatch(self)
        self.actions = Actions(self)
        self.files = FileCommands(self)
        self.run_commands = RunCommands(self)
        self.lesson = LessonCommands(self, self.lessonPanel)
        self.gpu_lesson = GuessLesson(self, self.guessPanel)
        build_menus(self)
        fit_to_screen(self)

    def __getattr__(self, name: str):
        """A view not built yet (DEFERRED), or one of its widgets: the view is built now."""
        owner, pages = OWNER.get(name), self.__dict__.get("_pages")
        if owner is None or pages is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        pages[owner].view()
        return self.__dict__[name]

    def _view_built(self, name: str, view: QWidget) -> None:
        setattr(self, name, view)
        for widget in DEFERRED[name][1]:
            setattr(self, widget, view.findChild(QObject, widget))
        if "run_commands" in self.__dict__:  # built after the window (else the window's wiring finds it)
            wire_view(self, view)
            self.run_commands.lock_view(view)

    def built_view(self, name: str) -> QWidget | None:
        """The view named `name` if it is built, else None (building nothing)."""
        page = self._pages.get(name)
        return page.built_view() if page is not None else self.__dict__.get(name)

    def find(self, name: str) -> QWidget | None:
        """The window's part by its object name, its view built first where it is one not built yet (what
        a lesson names)."""
        if name in OWNER:
            return getattr(self, name)
        return self.findChild(QWidget, name)

    def _connect(self) -> None:
        wire(self)
        # The loss on a log axis unless the person chose otherwise: on a linear one the tutorial's loss falls
        # from 15 to 0.25 in two epochs and the other 98 (to 0.0016) look flat (the Compare plot is log too).
        self.actions.log_scale.setChecked(True)
        self._unsubscribe = self.session.subscribe(
            added=self._on_runs_changed, changed=self._on_runs_changed, removed=self._on_runs_changed
        )
        self.predictionPanel.predicted.connect(self._on_predicted)
        self.update_script()
        if self.session.runs:  # rebuilt over runs: the chosen one predicts and draws its landscape
            self.trainingView.chosenChanged.emit(self.trainingView.chosen())

    def _read_config(self) -> TrainingConfig:
        """The run the settings describe; raises InvalidSetting naming the bad field."""
        return self.trainingPanel.config(self.devicePanel.current().id)

    @Slot()
    def update_script(self) -> None:
        """Show the script for the settings as they are; keep the last one while a value is bad."""
        if self.loading:  # the problems that write it are made with torch
            return
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
        chosen = {theme.SYSTEM: "theme_system", theme.LIGHT_KEY: "theme_light", theme.DARK_KEY: "theme_dark"}[choice]
        getattr(self.actions, chosen).setChecked(True)

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

    @Slot(object)
    def show_landscape(self, run) -> None:
        """The chosen run's landscape, where its view is built (one built later draws the run chosen then)."""
        view = self.built_view("landscapeView")
        if view is not None:
            view.show_run(run)

    @Slot()
    def _on_predicted(self) -> None:
        if not self.is_paused():  # while paused, the mark stays where the run holds
            self.codePanel.mark(PREDICTING)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.loading:  # PyTorch after the first paint: its import holds the GIL for a second, which the
            self.torch_loading.painted()  # paint would otherwise wait for

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.loading:
            self.torch_loading.shown()
        if not self._shown_before:  # docks take their sizes once the window is laid out on screen
            self._shown_before = True
            if self._preferences is None or self._preferences.store.value("window/state") is None:
                widen_code_panel(self)

    def closeEvent(self, event) -> None:
        self.lesson.leave()  # the person's own settings back, before they are saved
        self.gpu_lesson.leave()
        if self._preferences is not None:
            self._preferences.save(self)
        landscape = self.built_view("landscapeView")
        for unsubscribe in (self._unsubscribe, self.trainingView.detach, landscape.detach if landscape else None):
            if unsubscribe is not None:
                unsubscribe()
        if self.is_busy():  # a job ends at its next step; torch.compile cannot stop mid-compile (up to 19 s
            self.hide()  # measured): the window goes at once, the process ends when the job has
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        self.memory.halt()
        self.torch_loading.stop()
        self.job.shutdown()
        self.measurements.shutdown()
        self.files.shutdown()
        super().closeEvent(event)
