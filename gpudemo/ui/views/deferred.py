"""A view built the first time it is shown or asked for, not with the window.

Six of the seven views (the loss landscape, compare, sweep, profile, data parallel, moving data)
sit behind tabs a person opens later, if at all; built with the window they were more than half of
its build (0.20 s on a 2-core Xeon), all of it before the first paint and all of it holding the GIL
that the PyTorch import after the paint needs. Their page in the row of tabs is this: empty until it is
first shown or `view()` is asked for, then the view, built there by its factory, fills it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget


class Deferred(QWidget):
    def __init__(
        self,
        name: str,
        build: Callable[[], QWidget],
        built: Callable[[str, QWidget], None],
        parent: QWidget | None = None,
    ):
        """`build()` makes the view (named `name`); `built(name, view)` is told once it has."""
        super().__init__(parent, objectName=f"{name}Page")
        self.name = name
        self._build, self._built = build, built
        self._view: QWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def built_view(self) -> QWidget | None:
        """The view if it is built, else None (building nothing)."""
        return self._view

    def view(self) -> QWidget:
        """The view, built now if it was not."""
        if self._view is None:
            view = self._build()
            view.setObjectName(self.name)
            self._layout.addWidget(view)
            if self.isVisible():  # shown now, not a frame later (a layout shows a new child from the event loop)
                view.show()
            _tab_order_in_place(self, view)
            self._view = view
            self._built(self.name, view)
        return self._view

    def showEvent(self, event) -> None:
        self.view()
        super().showEvent(event)


def _tabbed(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _tab_order_in_place(page: QWidget, view: QWidget) -> None:
    """Tab reaches `view`'s widgets where it would if the view had been built with the window. A widget
    built later joins the window's focus chain at its end, after the docks (from the view's tab, Tab went to
    the Code panel first): they are moved after the last widget Tab reaches before the page."""
    window = page.window()
    anchor = page.previousInFocusChain()
    while anchor is not window and not _tabbed(anchor):
        anchor = anchor.previousInFocusChain()
    if anchor is window:
        return  # nothing before the page: the chain's end is its place
    widgets, widget = [], view
    while widget is view or view.isAncestorOf(widget):
        if _tabbed(widget):
            widgets.append(widget)
        widget = widget.nextInFocusChain()
    for widget in widgets:
        QWidget.setTabOrder(anchor, widget)
        anchor = widget
