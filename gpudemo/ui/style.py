"""The window's style sheet, and the one way widgets switch a styled state."""

from PySide6.QtWidgets import QWidget

STYLE = """
QLabel#settingsError, QLabel#predictMessage[error="true"], QLabel#statusLabel[error="true"] { color: #b71c1c; }
QLabel#deviceNote { background: #fff4e5; color: #7a4100; border: 1px solid #f0c890; border-radius: 4px; padding: 6px; }
QLabel#statusLabel { font-size: 15pt; font-weight: 600; }
QLineEdit[invalid="true"] { border: 2px solid #c62828; border-radius: 3px; padding: 1px; }
QPushButton#startButton { font-weight: 600; }
QTableWidget#runsTable, QTableWidget#runsTable QHeaderView { font-size: 9pt; }
"""


def set_style_flag(widget: QWidget, name: str, on: bool) -> None:
    """Set a property the style sheet selects on (`[error="true"]`) and restyle the widget."""
    if widget.property(name) != on:
        widget.setProperty(name, on)
        widget.style().unpolish(widget)
        widget.style().polish(widget)
