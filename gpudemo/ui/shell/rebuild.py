"""A new language for the window: built again, in that language, over everything the old one showed.

Qt translates a text when it is set, so a window already built keeps its language. The
switch builds a new MainWindow over the same devices, session (every run, its curves, fit,
path and model) and settings (saved first, restored by the new window: values, theme,
geometry, dock layout), hands it the results of its Compare, Sweep and Step-profile tabs,
the hidden runs, the selected run and the tab shown, and closes the old one. Not while a
job goes: the window's language actions are disabled then, and this returns the old window.
"""

from __future__ import annotations

from tempfile import TemporaryDirectory

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Slot

from gpudemo.ui.base import i18n
from gpudemo.ui.shell.faults import FaultReporter
from gpudemo.ui.shell.preferences import Preferences


def rebuild_in(old, language: str):
    """The window that shows `old`'s state in `language` (i18n.LANGUAGES): a new one, or `old` when it
    is busy, already in that language, or the translation cannot be loaded."""
    if language == i18n.current() or old.is_busy():
        old.actions.language_actions[i18n.current()].setChecked(True)
        return old
    previous = i18n.current()
    with TemporaryDirectory() as folder:
        # Without a store of its own (the tests'), the settings travel through a temporary one.
        carry = old._preferences or Preferences(QSettings(f"{folder}/carry.ini", QSettings.Format.IniFormat))
        carry.save(old)
        if not i18n.install(language):
            i18n.install(previous)
            old.actions.language_actions[previous].setChecked(True)
            old.runStatus.say(
                QCoreApplication.translate("MainWindow", "The {language} translation could not be loaded.").format(
                    language=i18n.LANGUAGES.get(language, language)
                ),
                error=True,
            )
            return old
        new = type(old)(old.devices, old.session, old._preferences)
        if old._preferences is None:
            carry.restore(new)
            carry.store.sync()
    for name in new.session.measured.views():  # each measurement view's latest, from the session's record
        new.session.measured.show(name, new.find(name))
    for run in old.session.runs:
        if not old.lossView.is_shown(run):
            new.lossView.set_shown(run, False)
    selected = old.runsTable.selected_run()
    if selected is not None:
        new.runsTable.select(selected)
    new.viewTabs.setCurrentIndex(old.viewTabs.currentIndex())
    new.lesson.take_over(old.lesson)  # a lesson going on goes on, at its step, in the new language
    new.gpu_lesson.take_over(old.gpu_lesson)
    current = old.session.current
    if current is not None and current.result is not None:
        new.runStatus.show_result(current.result)
    new.runStatus.take_over(old.runStatus, current)
    new.runStatus.say(
        QCoreApplication.translate("MainWindow", "The window is in English now.")
        if language == i18n.ENGLISH
        else QCoreApplication.translate("MainWindow", "The window is in Simplified Chinese now.")
    )
    if not i18n.has_font_for(language):  # its translation keeps this English, readable where Chinese is boxes
        new.runStatus.say(
            QCoreApplication.translate(
                "MainWindow",
                "No Chinese font is installed here, so the Chinese text shows as boxes: install one (Noto Sans CJK;"
                " on Debian and Ubuntu: sudo apt install fonts-noto-cjk) and start gpudemo again.",
            ),
            error=True,
        )
    if old.isVisible():
        new.show()
    old._preferences = None  # the new window saves them from now on
    old.replaced.emit(new)
    old.close()
    return new


class ShownWindow(QObject):
    """The application's window, followed when a new language replaces it with a rebuilt one; an
    uncaught exception anywhere is logged and told in the window shown."""

    def __init__(self, window):
        super().__init__()
        self.faults = FaultReporter(self)
        self.faults.install()
        self.window = window
        self._follow(window)

    def _follow(self, window) -> None:
        window.replaced.connect(self.replace)
        self.faults.reported.connect(window.show_fault)

    @Slot(object)
    def replace(self, window) -> None:
        old, self.window = self.window, window
        self.faults.reported.disconnect(old.show_fault)
        self._follow(window)
        old.deleteLater()  # it closes now; Qt frees it once back in the event loop
