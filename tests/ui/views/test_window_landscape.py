"""The Loss landscape tab: the chosen run's grid, and the paths of the runs on the same data."""

import numpy as np

from tests.tutorial import tutorial_run
from tests.ui.windows import open_window, run_to_end


def choose(combo, key):
    combo.setCurrentIndex(combo.findData(key))


def test_the_landscape_shows_the_grid_and_the_path_drawn_live(qtbot):
    window = open_window(qtbot)
    window.viewTabs.setCurrentWidget(window.landscapeView)
    run_to_end(qtbot, window)
    run = window.session.current
    view = window.landscapeView
    assert view.image.image.shape == (64, 64) and run.landscape is not None
    x, y = view.path_curve(run).getData()
    expected = np.array(tutorial_run(0)["path"], dtype=np.float32)
    np.testing.assert_array_equal(x, expected[:, 0])
    np.testing.assert_array_equal(y, expected[:, 1])
    current = view.current.getData()
    assert (current[0][0], current[1][0]) == (x[-1], y[-1])
    assert "batched evaluation" in window.landscapePlot.getPlotItem().titleLabel.text
    assert "path" in view.note.text()


def test_runs_on_the_same_data_share_the_picture_and_others_leave_it(qtbot):
    window = open_window(qtbot)
    for optimizer in ("sgd", "momentum"):
        choose(window.optimizerCombo, optimizer)
        run_to_end(qtbot, window)
    window.viewTabs.setCurrentWidget(window.landscapeView)
    first, second = window.session.runs
    view = window.landscapeView
    assert view.path_curve(first) is not None and view.path_curve(second) is not None
    assert view.path_curve(first).opts["pen"].color() != view.path_curve(second).opts["pen"].color()
    choose(window.problemCombo, "line")
    run_to_end(qtbot, window)
    third = window.session.current
    assert view.path_curve(third) is not None and view.path_curve(first) is None  # other data, other surface
    window.runsTable.selectRow(window.runsTable.row_of(first))
    assert view.path_curve(first) is not None and view.path_curve(third) is None


def test_the_mlp_says_why_it_has_no_landscape(qtbot):
    window = open_window(qtbot)
    choose(window.problemCombo, "sine")
    window.samplesSpin.setValue(50)
    window.epochsSpin.setValue(5)
    run_to_end(qtbot, window)
    window.viewTabs.setCurrentWidget(window.landscapeView)
    assert "more than two parameters (1,153)" in window.landscapeView.note.text()
    assert window.landscapeView.image.image is None
