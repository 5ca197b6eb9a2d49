"""The window's style sheet, and the one way widgets switch a styled state."""

from PySide6.QtWidgets import QWidget

STYLE = """
QLabel#settingsError, QLabel#guessError, QLabel#predictMessage[error="true"], QLabel#statusLabel[error="true"] {
    color: %(error)s; }
QLabel#deviceNote { background: %(note_bg)s; color: %(note_text)s; border: 1px solid %(note_border)s;
                    border-radius: 4px; padding: 6px; }
QLabel#statusLabel { font-size: 15pt; font-weight: 600; }
QLineEdit[invalid="true"] { border: 2px solid #c62828; border-radius: 3px; padding: 1px; }
QPushButton#startButton { font-weight: 600; }
QTableWidget#runsTable, QTableWidget#runsTable QHeaderView { font-size: 9pt; }
QTableWidget, QPlainTextEdit, QGraphicsView { border: 1px solid palette(mid); padding: 1px; }
QTableWidget:focus, QPlainTextEdit:focus, QGraphicsView:focus { border: 2px solid palette(highlight); padding: 0px; }
"""
# The focus, seen in both themes (WCAG 2.4.7): Fusion marks a focused field, box and button itself; a table, the
# script and a plot get a frame in the selection's colour, as thick as their frame and padding were.
LIGHT_COLOURS = {"error": "#b71c1c", "note_bg": "#fff4e5", "note_text": "#7a4100", "note_border": "#f0c890"}
DARK_COLOURS = {"error": "#ff7b72", "note_bg": "#3d3222", "note_text": "#f5d9a8", "note_border": "#7a5c2e"}


def style_sheet(dark: bool = False) -> str:
    """The window's style sheet for a light or a dark palette."""
    return STYLE % (DARK_COLOURS if dark else LIGHT_COLOURS)


def set_style_flag(widget: QWidget, name: str, on: bool) -> None:
    """Set a property the style sheet selects on (`[error="true"]`) and restyle the widget."""
    if widget.property(name) != on:
        widget.setProperty(name, on)
        widget.style().unpolish(widget)
        widget.style().polish(widget)
