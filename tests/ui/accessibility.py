"""What a screen reader is told of the window: its controls as Qt's accessibility interface names them (what
AT-SPI and Orca, UI Automation and NVDA, NSAccessibility and VoiceOver are fed from), and WCAG's contrast."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QColor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTextEdit,
    QWidget,
)

INTERACTIVE = (
    QAbstractButton,
    QComboBox,
    QAbstractSpinBox,
    QLineEdit,
    QAbstractSlider,
    QAbstractItemView,
    QTextEdit,
    QPlainTextEdit,
    QGraphicsView,  # every plot (pyqtgraph's PlotWidget is one)
)


def accessible_text(widget: QWidget, kind=QAccessible.Text.Name) -> str:
    """The name (or description) Qt's accessibility interface gives `widget`: its own, its text, its label's."""
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(kind) if interface is not None and interface.isValid() else ""


def _part_of_another(widget: QWidget) -> bool:
    """Qt's own insides of a control (a spin box's or a combo's editor, a combo's list, a scroll bar, a table's
    header), which the control's name covers."""
    if isinstance(widget, (QScrollBar, QHeaderView)):
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QAbstractSpinBox, QComboBox)):
            return True
        parent = parent.parentWidget()
    return False


def controls(window: QWidget) -> list[QWidget]:
    """Every control a person can reach in the window: its own widgets, not Qt's insides of them (nor Qt's
    own, named qt_*: a table's corner button, the menu bar's overflow), nor one hidden on purpose."""
    return [
        widget
        for widget in window.findChildren(QWidget)
        if isinstance(widget, INTERACTIVE)
        and not _part_of_another(widget)
        and not widget.objectName().startswith("qt_")
        and not widget.isHidden()
    ]


FIELDS = (QComboBox, QAbstractSpinBox, QLineEdit, QAbstractSlider)  # named by their value unless told


def labelled(widget: QWidget, labels: set) -> bool:
    """A field a screen reader names by what it is, not by its value: an accessible name of its own, or a
    label that is its buddy (Qt names a combo box by its current text and a spin box in a group by the
    group's title otherwise: read through AT-SPI, the optimizer's box was "SGD" and the samples' "2. Train")."""
    if not isinstance(widget, FIELDS) or widget.accessibleName().strip():
        return True
    return widget in labels and not isinstance(widget, QComboBox)  # AT-SPI names a combo by its text, buddy or not


def unnamed(window: QWidget) -> list[str]:
    """The controls a screen reader would announce without a name, or by their value alone."""
    from PySide6.QtWidgets import QLabel

    labels = {label.buddy() for label in window.findChildren(QLabel) if label.buddy() is not None}
    return [
        f"{type(widget).__name__} {widget.objectName() or '(no object name)'} in {widget.parentWidget().objectName()}"
        for widget in controls(window)
        if not accessible_text(widget).strip() or not labelled(widget, labels)
    ]


def luminance(colour: QColor) -> float:
    """WCAG 2.1's relative luminance."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def contrast(foreground: QColor, background: QColor) -> float:
    """WCAG 2.1's contrast ratio, 1 to 21 (AA asks 4.5 of text)."""
    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
