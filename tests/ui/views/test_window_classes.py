"""Classification in the window: the boundary, accuracy, the digits view, predicting classes."""

import csv

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication, QScrollArea

from gpudemo.core.problems import PROBLEMS
from gpudemo.core.training import BOUNDARY_SIDE
from gpudemo.core.training.prediction import classify
from tests.ui.windows import open_window, run_to_end


def choose(combo, key):
    combo.setCurrentIndex(combo.findData(key))


def classes_run(qtbot, problem="circles", epochs=150, depth=2):
    window = open_window(qtbot)
    choose(window.problemCombo, problem)
    choose(window.optimizerCombo, "adam")
    window.lrInput.setText("0.01")
    window.widthSpin.setValue(16)
    window.depthSpin.setValue(depth)
    window.samplesSpin.setValue(400)
    window.epochsSpin.setValue(epochs)
    run_to_end(qtbot, window)
    return window


def cell(window, name):
    return window.runsTable.item(0, window.runsTable.COLUMNS.index(name)).text()


def test_the_noise_applies_to_the_2d_classes_only(qtbot):
    window = open_window(qtbot)
    for problem, enabled in (
        ("tutorial", False),
        ("sine", False),
        ("circles", True),
        ("spiral", True),
        ("digits", False),
    ):
        choose(window.problemCombo, problem)
        assert window.noiseSpin.isEnabled() == enabled, problem
    window.noiseSpin.setValue(0.3)
    assert window.trainingPanel.config("cpu").noise == 0.3
    assert window.depthSpin.minimum() == 0 and window.depthSpin.specialValueText()


def test_a_circles_run_draws_its_boundary_and_records_its_accuracy(qtbot):
    window = classes_run(qtbot)
    run = window.session.current
    view = window.trainingView
    assert view.fitStack.currentWidget() is window.boundaryPlot
    image = view.boundary.image.image
    assert image.shape == (BOUNDARY_SIDE, BOUNDARY_SIDE, 3) and BOUNDARY_SIDE >= 128
    assert len(view.boundary.points.data) == 400
    # the centre is the inner class's colour (orange: more red than blue), a corner the outer one's
    centre, corner = image[BOUNDARY_SIDE // 2, BOUNDARY_SIDE // 2], image[0, 0]
    assert centre[0] > centre[2] and corner[2] > corner[0]
    assert cell(window, "accuracy") == f"{run.result.accuracy:.1%}" and run.result.accuracy > 0.9
    assert run.accuracy.count == 150


def test_the_metric_combo_draws_accuracy_instead_of_loss(qtbot):
    window = classes_run(qtbot, epochs=40)
    window.logScaleCheck.setChecked(False)  # from a linear axis (the default is log)
    run = window.session.current
    curve = window.lossView.front(run)
    assert np.array_equal(curve.yData, run.history.values)
    window.metricCombo.setCurrentIndex(window.metricCombo.findData("accuracy"))
    assert np.array_equal(curve.yData, run.accuracy.values)
    assert "accuracy" in window.lossView.plot.getAxis("left").labelText
    assert window.lossView.plot.getViewBox().viewRange()[1] == pytest.approx([-0.02, 1.02], abs=1e-6)
    window.logScaleCheck.setChecked(True)  # powers of ten: 1 % to 100 % (0 to 1 read as exponents was 1 to 10)
    assert window.lossView.plot.getViewBox().viewRange()[1] == pytest.approx([-2.04, 0.04], abs=1e-6)
    window.logScaleCheck.setChecked(False)
    window.metricCombo.setCurrentIndex(window.metricCombo.findData("loss"))
    assert np.array_equal(curve.yData, run.history.values)


def test_a_regression_has_no_accuracy_to_draw(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(10)
    run_to_end(qtbot, window)
    window.metricCombo.setCurrentIndex(window.metricCombo.findData("accuracy"))
    assert window.lossView.front(window.session.current).yData is None
    assert cell(window, "accuracy") == "-"


def test_points_are_classified_on_the_cpu(qtbot):
    window = classes_run(qtbot)
    run = window.session.current
    assert window.predictInput.text() == "0.5,0.5; -1,1"  # the example replaced the tutorial's 4
    window.predictInput.setText("0,0; 1.2,1.2")
    window.predictButton.click()
    table = window.predictionTable
    assert table.rowCount() == 2 and table.item(0, 0).text() == "0, 0"
    expected = classify(run.model, [(0.0, 0.0), (1.2, 1.2)])
    assert [table.item(row, 1).text() for row in range(2)] == [str(int(p.argmax())) for p in expected]
    assert table.item(0, 2).text() == f"{float(expected[0].max()):.1%}"


@pytest.mark.parametrize("text, says", [("1,2,3", "needs two numbers"), ("a,b", "must be a number")])
def test_a_bad_point_is_named(qtbot, text, says):
    window = classes_run(qtbot, epochs=5)
    window.predictInput.setText(text)
    window.predictButton.click()
    assert says in window.predictMessage.text()


def test_the_digits_view_shows_test_images_and_the_confusion_matrix(qtbot):
    window = classes_run(qtbot, problem="digits", epochs=60)
    run = window.session.current
    view = window.trainingView
    assert view.fitStack.currentWidget() is window.digitsView
    table = window.confusionTable
    assert (table.rowCount(), table.columnCount()) == (10, 10)
    counts = [[int(table.item(r, c).text() or 0) for c in range(10)] for r in range(10)]
    assert sum(map(sum, counts)) == 360 and sum(counts[k][k] for k in range(10)) == round(run.test_accuracy * 360)
    first = window.digitsView.images[0]
    x_test, y_test = PROBLEMS["digits"].make_test_data(run.config)
    said = int(classify(run.model, x_test[:1]).argmax())
    assert first.text() == f"{said} ({int(y_test[0])})" and not first.icon().isNull()
    wrong = [button for button in window.digitsView.images if "color" in button.styleSheet()]
    assert all(button.text().split()[0] != button.text().split()[1].strip("()") for button in wrong)
    assert "test" in cell(window, "accuracy")


def test_a_clicked_test_image_shows_every_class_probability(qtbot):
    window = classes_run(qtbot, problem="digits", epochs=30)
    window.digitsView.images[3].click()
    QApplication.processEvents()
    table = window.predictionTable
    assert window.predictInput.text() == "4" and table.rowCount() == 11
    headers = [table.horizontalHeaderItem(column).text().replace("\n", " ") for column in range(table.columnCount())]
    assert headers == ["image no.", "predicted digit", "true digit", "probability"]
    x_test, y_test = PROBLEMS["digits"].make_test_data(window.session.current.config)
    assert table.item(0, 0).text() == "4" and table.item(0, 2).text() == str(int(y_test[3]))
    assert table.item(0, 1).text() == str(int(classify(window.session.current.model, x_test[3:4]).argmax()))
    probabilities = [float(table.item(row, 3).text().rstrip("%")) for row in range(1, 11)]
    assert sorted(probabilities, reverse=True) == probabilities and abs(sum(probabilities) - 100) < 0.5
    assert sorted(int(table.item(row, 1).text()) for row in range(1, 11)) == list(range(10))
    window.predictInput.setText("361")
    window.predictButton.click()
    assert "from 1 to 360, not '361'" in window.predictMessage.text()


def test_the_losses_csv_carries_each_epochs_accuracy(qtbot, tmp_path):
    window = classes_run(qtbot, epochs=20)
    path = tmp_path / "losses.csv"
    assert window.files.export_losses(str(path))
    with path.open() as file:
        rows = list(csv.DictReader(file))
    run = window.session.current
    assert [float(row["accuracy"]) for row in rows] == run.accuracy.values.tolist()
    assert all(row["test_accuracy"] == "" for row in rows)


def test_the_code_panel_shows_the_classifiers_script(qtbot):
    window = open_window(qtbot)
    choose(window.problemCombo, "spiral")
    window.predictInput.setText("0.5,0.5")
    text = window.codePanel.text()
    assert "torch.nn.CrossEntropyLoss()" in text and "x_test = torch.tensor([[0.5, 0.5]])" in text
    choose(window.problemCombo, "digits")
    assert "gzip.open(" in window.codePanel.text()


def _on_a_screen(window, size):
    from PySide6.QtCore import QRect

    from gpudemo.ui.shell.menus import fit_to_screen

    fit_to_screen(window, QRect(0, 0, *size))
    QApplication.processEvents()


def test_a_classification_s_boundary_is_the_large_square_plot_fitted_to_its_data(qtbot):
    # TF Playground's main picture: at 1024 x 768 it had the fit's slot under the loss (about 90 x 90 pixels
    # of boundary, its x axis from -7 to 8 around data from -1.5 to 1.5).
    window = classes_run(qtbot, problem="spiral", epochs=30)
    _on_a_screen(window, (1024, 768))
    view, plot = window.trainingView, window.boundaryPlot
    assert plot.parent() is view.fitStack and view.fitStack.parent() is view.topSplitter
    assert view.topSplitter.indexOf(view.fitStack) == 0 and view.topSplitter.indexOf(window.lossPlot) == 1
    box = plot.getPlotItem().getViewBox()
    assert plot.width() >= 300 and plot.height() >= 300
    assert box.width() >= 300 and box.height() >= 290  # the plot's own area, its axes and title apart
    assert plot.width() * plot.height() >= window.lossPlot.width() * window.lossPlot.height()
    data = window.session.current.data.x
    for axis, (low, high) in enumerate(box.viewRange()):
        span = float(data[:, axis].max() - data[:, axis].min())
        assert abs((high - low) - span) <= 0.2 * span, (axis, low, high, span)
        assert low <= data[:, axis].min() and high >= data[:, axis].max()  # no point off the plot
    # A regression chosen next: its fit under the loss again.
    choose(window.problemCombo, "line")
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    assert view.fitStack.currentWidget() is window.fitPlot and view.fitStack.parent() is view.plotSplitter
    assert view.plotSplitter.indexOf(view.fitStack) == 1


def test_the_digits_confusion_matrix_is_whole_at_1366_by_768(qtbot):
    window = classes_run(qtbot, problem="digits", epochs=20)
    _on_a_screen(window, (1366, 768))
    view, table = window.trainingView, window.confusionTable
    assert view.plotSplitter.indexOf(view.fitStack) == 0  # the picture above the loss
    assert table.rowCount() == table.columnCount() == 10
    assert not table.verticalScrollBar().isVisible() and not table.horizontalScrollBar().isVisible()
    last_row = table.visualRect(table.model().index(9, 9))
    assert table.viewport().rect().contains(last_row)  # the last cell in sight
    assert last_row.height() >= table.fontMetrics().height()  # a row tall enough for its number
    for row in range(10):
        for column in range(10):
            text = table.item(row, column).text()
            assert table.columnWidth(column) >= table.fontMetrics().horizontalAdvance(text), (row, column, text)
    scroll = window.digitsView.findChild(QScrollArea)
    assert not scroll.verticalScrollBar().isVisible() and not scroll.horizontalScrollBar().isVisible()
