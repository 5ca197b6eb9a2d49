"""What the window remembers between sessions, in QSettings: the device, every value, the views, the layout.

Every value read back is untrusted: it goes through the same rules as a person's input
(core/settings/config.py names the settings remembered and their rules), and one that fails them is skipped.
A store Qt cannot read, or values
that fail, leave the defaults in place and a note in the status line, never a crash.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings

from gpudemo.core.settings import config as settings
from gpudemo.ui.base import i18n, theme
from gpudemo.ui.shell.menus import keep_on_screen

VERSION = 1  # bump when a key changes meaning; a store of another version is ignored


def open_store() -> QSettings:
    """The user's store (on Linux ~/.config/gpudemo/gpudemo.ini)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "gpudemo", "gpudemo")


class Preferences:
    def __init__(self, store: QSettings):
        self.store = store

    def language(self) -> str | None:
        """The language chosen before (i18n.LANGUAGES), or None: the system's decides."""
        value = self.store.value("language")
        return str(value) if value is not None and str(value) in i18n.LANGUAGES else None

    def save(self, window) -> None:
        store = self.store
        store.setValue("version", VERSION)
        store.setValue("device", window.devicePanel.current().id)
        texts = settings.to_texts(window.trainingPanel.snapshot())  # typed text kept as typed
        if texts["problem"] == "data":  # a file of this session: the next one starts from the tutorial
            texts["problem"] = "tutorial"
        for key, text in texts.items():
            store.setValue(f"form/{key}", text)
        store.setValue("predict", window.predictInput.text())
        store.setValue("run/energy", window.energyCheck.isChecked())
        store.setValue("view/smoothing", window.smoothingSlider.value())
        store.setValue("view/x_axis", window.xAxisCombo.currentData())
        store.setValue("view/log_scale", window.actions.log_scale.isChecked())
        store.setValue("view/theme", window.theme_choice)
        store.setValue("language", i18n.current())
        store.setValue("window/geometry", window.saveGeometry())
        store.setValue("window/state", window.saveState(VERSION))
        store.sync()

    def restore(self, window) -> str:
        """Put the remembered values back; returns a note for the person ("" when all went well)."""
        store = self.store
        if store.status() != QSettings.Status.NoError:
            return QCoreApplication.translate(
                "Preferences", "The saved settings could not be read ({path}): the defaults are used."
            ).format(path=store.fileName())
        if store.value("version") is None:
            return ""  # a first start
        if str(store.value("version")) != str(VERSION):
            return QCoreApplication.translate(
                "Preferences", "The saved settings are of another gpudemo version: the defaults are used."
            )
        values, skipped = settings.from_texts({key: store.value(f"form/{key}") for key in settings.REMEMBERED})
        window.trainingPanel.set_values(values)
        device = store.value("device")
        if device is not None and str(device) in window.devices.ids:
            window.devicePanel.select(str(device))
        predict = store.value("predict")
        if predict is not None:
            window.predictInput.setText(str(predict)[:1000])
        self._apply_views(window, skipped)
        geometry, state = store.value("window/geometry"), store.value("window/state")
        if isinstance(geometry, QByteArray):
            window.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            window.restoreState(state, VERSION)
        keep_on_screen(window)  # saved on another screen: fitted to this one
        if skipped:
            return QCoreApplication.translate(
                "Preferences", "Some saved settings were not valid and kept their defaults: {names}."
            ).format(names=", ".join(skipped))
        return ""

    def _apply_views(self, window, skipped: list[str]) -> None:
        store = self.store
        smoothing = store.value("view/smoothing")
        if smoothing is not None:
            try:
                value = int(smoothing)
                if not window.smoothingSlider.minimum() <= value <= window.smoothingSlider.maximum():
                    raise ValueError(value)
                window.smoothingSlider.setValue(value)
            except (TypeError, ValueError):
                skipped.append("smoothing")
        axis = store.value("view/x_axis")
        index = window.xAxisCombo.findData(str(axis)) if axis is not None else -1
        if index >= 0:
            window.xAxisCombo.setCurrentIndex(index)
        elif axis is not None:
            skipped.append("x axis")
        choice = store.value("view/theme")
        if choice is not None:
            if str(choice) in theme.CHOICES:
                window.theme_choice = str(choice)  # applied once, by the window, after restoring
            else:
                skipped.append("theme")
        energy = store.value("run/energy")
        if energy is not None:
            window.energyCheck.setChecked(str(energy).lower() == "true")
        log_scale = store.value("view/log_scale")
        if log_scale is not None:
            window.actions.log_scale.setChecked(str(log_scale).lower() == "true")
