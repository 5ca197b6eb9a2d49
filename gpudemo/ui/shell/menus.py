"""The window's menus, and its size on the screen it opens on.

Menus hold the window's actions (see actions.py), so a menu item, its shortcut and
the button beside the plot are one command. The size: the window opens at most at
its comfortable size, and at most at the screen's available size; down to 1024 x 768
every view is whole (the left column scrolls, the Code panel is a dock that can
be closed, floated or moved, and on a narrow screen it starts closed: View shows it),
and on a smaller screen (150 % on a 1366 x 768 laptop) the window's body scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

COMFORTABLE = (1760, 920)  # the size the window opens at on a large screen
NARROW = 1500  # below this available width the Code panel starts closed
CODE_WIDTH = 560  # the Code panel's width where it is open


def build_menus(window: QMainWindow) -> None:
    actions = window.actions
    bar = window.menuBar()
    file = bar.addMenu(QCoreApplication.translate("Menus", "&File"))
    file.addAction(actions.export_losses)
    plots = file.addMenu(QCoreApplication.translate("Menus", "Export a p&lot"))
    for title, name in (  # by name: a plot of a view not built yet is built when it is exported
        (QCoreApplication.translate("Menus", "Loss plot…"), "lossPlot"),
        (QCoreApplication.translate("Menus", "Fit plot…"), "fitPlot"),
        (QCoreApplication.translate("Menus", "Loss landscape…"), "landscapePlot"),
        (QCoreApplication.translate("Menus", "Compare plot…"), "comparePlot"),
        (QCoreApplication.translate("Menus", "GPU vs CPU plot…"), "sweepPlot"),
        (QCoreApplication.translate("Menus", "Roofline…"), "rooflinePlot"),
        (QCoreApplication.translate("Menus", "Data parallel plot…"), "parallelPlot"),
        (QCoreApplication.translate("Menus", "Moving data plot…"), "transferPlot"),
        (QCoreApplication.translate("Menus", "Step timeline…"), "timelinePlot"),
    ):
        action = plots.addAction(title)
        action.setObjectName(f"export_{name}")
        action.triggered.connect(lambda checked=False, name=name: window.files.export_plot(getattr(window, name)))
    file.addAction(actions.export_plot)
    file.addAction(actions.export_notebook)
    file.addAction(actions.export_lesson_notebook)
    file.addSeparator()
    file.addAction(actions.save_model)
    file.addAction(actions.load_model)
    file.addAction(actions.open_data)
    file.addAction(actions.load_measurements)
    file.addSeparator()
    file.addAction(actions.quit)

    run = bar.addMenu(QCoreApplication.translate("Menus", "&Run"))
    for action in (actions.start, actions.stop, actions.pause, actions.step):
        run.addAction(action)
    run.addSeparator()
    for action in (actions.compare, actions.sweep, actions.parallel, actions.transfer, actions.profile):
        run.addAction(action)

    view = bar.addMenu(QCoreApplication.translate("Menus", "&View"))
    view.addAction(actions.log_scale)
    view.addAction(actions.clear_runs)
    view.addSeparator()
    window.tabActions = []
    for index in range(window.viewTabs.count()):
        action = QAction(window.viewTabs.tabText(index), window)
        action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
        action.triggered.connect(lambda checked=False, index=index: window.viewTabs.setCurrentIndex(index))
        view.addAction(action)
        window.tabActions.append(action)
    themes = view.addMenu(QCoreApplication.translate("Menus", "&Theme"))
    for action in (actions.theme_system, actions.theme_light, actions.theme_dark):
        themes.addAction(action)
    languages = view.addMenu(QCoreApplication.translate("Menus", "&Language"))
    languages.setObjectName("languageMenu")
    for action in actions.language_actions.values():
        languages.addAction(action)
    view.addSeparator()
    code = window.codePanel.toggleViewAction()
    code.setText(QCoreApplication.translate("Menus", "&Code panel"))
    code.setShortcut(QKeySequence("Ctrl+K"))
    view.addAction(code)

    help_menu = bar.addMenu(QCoreApplication.translate("Menus", "&Help"))
    lessons = help_menu.addMenu(QCoreApplication.translate("Menus", "&Lessons"))
    lessons.setObjectName("lessonsMenu")
    lessons.addAction(actions.lesson)
    lessons.addAction(actions.gpu_lesson)
    help_menu.addAction(actions.help)
    help_menu.addAction(actions.about)


def fit_to_screen(window: QMainWindow, available: QRect | None = None) -> None:
    """Size the window for the screen's available area (the primary screen's when not given)."""
    if available is None:
        screen = window.screen()
        if screen is None:
            return
        available = screen.availableGeometry()
    width = min(COMFORTABLE[0], available.width())
    height = min(COMFORTABLE[1], available.height())
    window.codePanel.setVisible(available.width() >= NARROW)
    window.layout().activate()  # the minimum size without the dock, before resizing to it
    window.resize(width, height)
    widen_code_panel(window)


def keep_on_screen(window: QMainWindow, available: QRect | None = None) -> None:
    """A restored window fitted to the screen it opens on: a window saved on a 1366-px laptop with the Code
    panel open reopened 1350 px wide on a 1024-px projector (its docks' minimum), its right end (the runs
    table, Leave the lesson) off the screen. The Code panel closes where it does not fit, as on a first start."""
    if available is None:
        screen = window.screen()
        if screen is None:
            return
        available = screen.availableGeometry()
    window.layout().activate()
    needed = window.centralWidget().needed_width() + window.codePanel.minimumWidth()  # the body unscrolled
    if window.codePanel.isVisibleTo(window) and needed > available.width():
        window.codePanel.setVisible(False)
        window.layout().activate()
    frame = window.frameGeometry()
    extra_width, extra_height = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), available.width() - extra_width)
    height = min(window.height(), available.height() - extra_height)
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    frame = window.frameGeometry()
    x = min(max(frame.x(), available.x()), available.right() + 1 - frame.width())
    y = min(max(frame.y(), available.y()), available.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)


def widen_code_panel(window: QMainWindow) -> None:
    """Room for the script's lines where the Code panel is open (takes effect on a shown window)."""
    if window.codePanel.isVisibleTo(window):
        window.resizeDocks([window.codePanel], [CODE_WIDTH], Qt.Orientation.Horizontal)
