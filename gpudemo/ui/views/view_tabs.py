"""The views, in three places, each a short row of its views: Train (the loss and the landscape its
weights cross), Look inside (a step's profile and timeline, moving data) and Measure (devices
compared, the sweep and its roofline, data parallel).

Seven views in one row of tabs did not fit: at 1024 pixels wide three hid behind the tab bar's
scroll arrows, and a learner never finds what they cannot see. Grouped, every row fits at
1024 x 768 (tests/ui/shell/test_window_desktop.py checks each name is whole and no bar scrolls).

To the rest of the window this is one list of views, in order, as a QTabWidget speaks of its
tabs: count, widget, indexOf, tabText, currentIndex, currentWidget, setCurrentIndex,
setCurrentWidget and currentChanged (the index of the view now shown), so that the View
menu's Ctrl+1 ... Ctrl+7, the lesson and the jobs name a view, never a place. A view may come as a
`Deferred` page (views/deferred.py), built when first shown: asked for by index (`widget`) it is built
then; `built_views` are the ones that are.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from gpudemo.ui.views.deferred import Deferred


def _view(page: QWidget) -> QWidget:
    """The view a page shows (built now, if it is a Deferred one)."""
    return page.view() if isinstance(page, Deferred) else page


def _built(page: QWidget) -> QWidget | None:
    return page.built_view() if isinstance(page, Deferred) else page


class ViewTabs(QWidget):
    currentChanged = Signal(int)  # the index of the view shown now

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, objectName="viewTabs")
        self.places = QTabWidget(objectName="viewPlaces")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.places)
        self._views: list[tuple[QWidget, str, QTabWidget]] = []  # each view's page, its title, its place's tabs
        self._current = -1
        self.places.currentChanged.connect(self._changed)

    def add_place(self, name: str, title: str, views: Sequence[tuple[QWidget, str]]) -> None:
        """A place, and its views in order (a place of one view shows no row of its own)."""
        tabs = QTabWidget(objectName=name)
        tabs.setDocumentMode(True)
        tabs.setTabBarAutoHide(True)
        for view, view_title in views:
            tabs.addTab(view, view_title)
            self._views.append((view, view_title, tabs))
        tabs.currentChanged.connect(self._changed)
        self.places.addTab(tabs, title)
        if self._current < 0:
            self._current = 0

    def set_order(self, views: Sequence[QWidget]) -> None:
        """The views' order (their pages, as added) as the rest of the window counts them (the View menu's
        Ctrl+1 ...), whatever their places."""
        found = {id(entry[0]): entry for entry in self._views}
        self._views = [found[id(view)] for view in views]
        self._current = self.currentIndex()

    def place_tabs(self) -> list[QTabWidget]:
        """Each place's row of views, in order."""
        return [self.places.widget(index) for index in range(self.places.count())]

    # As QTabWidget speaks of its tabs, in the order the views were added.

    def count(self) -> int:
        return len(self._views)

    def widget(self, index: int) -> QWidget | None:
        return _view(self._views[index][0]) if 0 <= index < len(self._views) else None

    def indexOf(self, widget: QWidget | None) -> int:
        if widget is None:
            return -1
        return next(
            (index for index, (page, *_rest) in enumerate(self._views) if widget is page or widget is _built(page)),
            -1,
        )

    def built_views(self) -> list[QWidget]:
        """The views built so far, in order (building none)."""
        return [view for page, *_rest in self._views if (view := _built(page)) is not None]

    def tabText(self, index: int) -> str:
        return self._views[index][1] if 0 <= index < len(self._views) else ""

    def currentIndex(self) -> int:
        tabs = self.places.currentWidget()
        return self.indexOf(tabs.currentWidget()) if tabs is not None else -1

    def currentWidget(self) -> QWidget | None:
        return self.widget(self.currentIndex())

    def setCurrentIndex(self, index: int) -> None:
        if 0 <= index < len(self._views):
            page, _title, tabs = self._views[index]
            tabs.setCurrentWidget(page)
            self.places.setCurrentWidget(tabs)
            self._changed()

    def setCurrentWidget(self, widget: QWidget) -> None:
        self.setCurrentIndex(self.indexOf(widget))

    @Slot()
    def _changed(self, *_ignored: object) -> None:
        """Say the view shown, once, whichever row moved."""
        index = self.currentIndex()
        if index != self._current:
            self._current = index
            self.currentChanged.emit(index)
