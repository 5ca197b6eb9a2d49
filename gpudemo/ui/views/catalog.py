"""The window's seven views: which are built when first shown, the widgets each exposes on the window, and
their places in the row of tabs.

Six of them are built the first time they are shown or asked for (views/deferred.py): `window.sweepPlot`
builds the sweep's view, as `window.sweepView` does. The window finds every widget named in EXPOSED by its
object name (the tests, the preferences and the lessons rely on these names).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from gpudemo.ui.views.deferred import Deferred
from gpudemo.ui.views.view_tabs import ViewTabs

__all__ = ["DEFERRED", "EXPOSED", "OWNER", "Deferred", "place_views"]

# The parts' widgets that the tests, the preferences and the lesson find on the window by their object names.
EXPOSED = """
    problemCombo samplesSpin noiseSpin widthSpin depthSpin batchSpin optimizerCombo precisionCombo stepCombo
    epochsSpin lrInput seedInput energyCheck startButton stopButton compareButton pauseButton stepButton profileButton
    settingsError deviceList lessonButton predictInput predictButton predictMessage predictionTable
    statusLabel progressBar rateLabel resultLabel lossPlot fitPlot boundaryPlot digitsView confusionTable runsTable
    smoothingSlider xAxisCombo metricCombo logScaleCheck clearRunsButton landscapePlot comparePlot compareTable
    sweepPlot sweepButton rooflinePlot parallelPlot parallelTable parallelButton transferPlot transferButton
    profileTable timelinePlot
""".split()


# The views built when first shown or asked for, not before the first paint, with the exposed widgets each holds.
def _landscape_view(window) -> QWidget:
    from gpudemo.ui.views.landscape_view import LandscapeView

    view = LandscapeView(window.session)
    view.show_run(window.trainingView.chosen())  # then each run chosen (MainWindow.show_landscape)
    return view


def _compare_view(window) -> QWidget:
    from gpudemo.ui.views.compare_view import CompareView

    return CompareView()


def _sweep_view(window) -> QWidget:
    from gpudemo.ui.views.sweep_view import SweepView

    return SweepView()


def _profile_view(window) -> QWidget:
    from gpudemo.ui.views.profile_view import ProfileView

    return ProfileView()


def _parallel_view(window) -> QWidget:
    from gpudemo.ui.views.parallel_view import ParallelView

    return ParallelView()


def _transfer_view(window) -> QWidget:
    from gpudemo.ui.views.transfer_view import TransferView

    return TransferView()


DEFERRED = {
    "landscapeView": (_landscape_view, ("landscapePlot",)),
    "compareView": (_compare_view, ("comparePlot", "compareTable")),
    "sweepView": (_sweep_view, ("sweepPlot", "sweepButton", "rooflinePlot")),
    "profileView": (_profile_view, ("profileTable", "timelinePlot")),
    "parallelView": (_parallel_view, ("parallelPlot", "parallelTable", "parallelButton")),
    "transferView": (_transfer_view, ("transferPlot", "transferButton")),
}
OWNER = {name: view for view, (_build, names) in DEFERRED.items() for name in (view, *names)}


def place_views(tabs: ViewTabs, training_view: QWidget, pages: dict[str, Deferred]) -> None:
    """The views in three places, each a short row of its views, in the order of the View menu (Ctrl+1 ...
    Ctrl+7); the lesson files name the views."""
    views = {
        "trainingView": (training_view, QCoreApplication.translate("MainWindow", "Training")),
        "landscapeView": (pages["landscapeView"], QCoreApplication.translate("MainWindow", "Loss landscape")),
        "compareView": (pages["compareView"], QCoreApplication.translate("MainWindow", "Compare devices")),
        "sweepView": (pages["sweepView"], QCoreApplication.translate("MainWindow", "GPU vs CPU by size")),
        "profileView": (pages["profileView"], QCoreApplication.translate("MainWindow", "Step profile")),
        "parallelView": (pages["parallelView"], QCoreApplication.translate("MainWindow", "Data parallel")),
        "transferView": (pages["transferView"], QCoreApplication.translate("MainWindow", "Moving data")),
    }
    training_view.setObjectName("trainingView")
    for place, title, names in (
        ("trainPlace", QCoreApplication.translate("MainWindow", "Train"), ("trainingView", "landscapeView")),
        ("insidePlace", QCoreApplication.translate("MainWindow", "Look inside"), ("profileView", "transferView")),
        (
            "measurePlace",
            QCoreApplication.translate("MainWindow", "Measure"),
            ("compareView", "sweepView", "parallelView"),
        ),
    ):
        tabs.add_place(place, title, [views[name] for name in names])
    tabs.set_order([view for view, _title in views.values()])
