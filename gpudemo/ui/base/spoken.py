"""What a screen reader says of the window: each control's name, each plot's description of what it shows
now, and announcements of what happens (a run's start and end, a lesson's step).

Qt hands these to the platform's accessibility interface (AT-SPI on Linux, read by Orca; UI Automation on
Windows, read by NVDA and Narrator; NSAccessibility on macOS, read by VoiceOver). A plot is a picture to
them: its description says in words what it shows, kept up to date at a calm pace (DESCRIBE_MS), not at
every frame, so that a reader asked "what is this" hears the latest and is not interrupted.
"""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget

DESCRIBE_MS = 2000  # a plot's description follows what it shows at most this often while a run goes

try:  # Qt 6.8 and newer: text sent to the screen reader at once
    from PySide6.QtGui import QAccessibleAnnouncementEvent
except ImportError:  # pragma: no cover - older Qt: the live status line is what is read
    QAccessibleAnnouncementEvent = None


def name(widget: QWidget, text: str, description: str = "") -> QWidget:
    """`widget` named `text` (a phrase a person hears, not an identifier), and described."""
    widget.setAccessibleName(text)
    if description:
        widget.setAccessibleDescription(description)
    return widget


def describe(widget: QWidget, text: str) -> None:
    """What `widget` shows now, in words (told to a screen reader only where it changed)."""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)


announced: list[str] = []  # what was announced, the latest last (a few kept: what a test or About can read)


def announce(widget: QWidget, text: str, urgent: bool = False) -> None:
    """Tell a screen reader `text` now, politely (after what it is saying) unless `urgent` (a failure)."""
    announced.append(text)
    del announced[:-20]
    if QAccessibleAnnouncementEvent is None or not QAccessible.isActive():
        return
    event = QAccessibleAnnouncementEvent(widget, text)
    if urgent:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)
