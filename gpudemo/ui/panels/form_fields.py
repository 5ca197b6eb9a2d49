"""A form widget's value, read, shown and watched the same way whatever its kind (a combo box's key, a spin
box's number, a line's text): what lets the training form treat its settings as one table
(TrainingPanel.fields, core/settings/config.py's settings); a list made from the rules' choices."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox, QWidget

from gpudemo.core.base.messages import Message
from gpudemo.core.settings.choices import Choice
from gpudemo.ui.base.i18n import say


def read_value(widget: QWidget) -> object:
    """A form widget's value: a combo's key, a box's number, a line's text (checked by the rules)."""
    if isinstance(widget, QComboBox):
        return widget.currentData()
    if isinstance(widget, QLineEdit):
        return widget.text()
    return widget.value()


def write_value(widget: QWidget, value: object) -> None:
    """Show `value` in a form widget: a combo's key chosen (an unknown key changes nothing), a number written
    as typed, a box set."""
    if isinstance(widget, QComboBox):
        if widget.findData(value) >= 0:
            widget.setCurrentIndex(widget.findData(value))
    elif isinstance(widget, QLineEdit):
        widget.setText(value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value))
    else:
        widget.setValue(value)


def changed_signal(widget: QWidget):
    """The signal a form widget sends when its value changes."""
    if isinstance(widget, QComboBox):
        return widget.currentIndexChanged
    if isinstance(widget, QLineEdit):
        return widget.textChanged
    return widget.valueChanged


def spin_box(name: str, low: int, high: int, value: int, tip: str) -> QSpinBox:
    """A whole-number box as the form's are: its range, thousands grouped, faster when held, explained."""
    spin = QSpinBox(objectName=name)
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    spin.setAccelerated(True)
    spin.setToolTip(tip)
    return spin


def choice_box(name: str, choices: Mapping[str, Choice], leave_out: tuple[str, ...] = ()) -> QComboBox:
    """A list of a setting's choices as the rules declare them (core/settings/rules.py): each titled in the window's
    language, its key as the item's data, its explanation (if any) as the item's tooltip."""
    combo = QComboBox(objectName=name)
    for key, choice in choices.items():
        if key in leave_out:
            continue
        combo.addItem(say(Message(choice.title)), key)
        if choice.tip:
            combo.setItemData(combo.count() - 1, say(Message(choice.tip)), Qt.ItemDataRole.ToolTipRole)
    return combo
