"""File > Open data: a person's CSV becomes the problem "data", or is refused with its reason."""

from tests.ui.windows import open_window, run_to_end


def open_data(qtbot, window, path):
    assert window.files.open_data(str(path))
    qtbot.waitUntil(lambda: not window.files.is_reading(), timeout=10_000)


def test_a_classification_file_trains_with_its_boundary(qtbot, tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text(
        "x1,x2,label\n"
        + "".join(f"{x / 10},{y / 10},{int(x + y > 0)}\n" for x in range(-10, 11, 2) for y in range(-10, 11, 2))
    )
    window = open_window(qtbot)
    open_data(qtbot, window, path)
    assert window.problemCombo.currentData() == "data" and "mine.csv" in window.problemCombo.currentText()
    assert "Loaded mine.csv: 121 rows, 2 classes of 2-D points" in window.statusLabel.text()
    assert not window.samplesSpin.isEnabled() and window.widthSpin.isEnabled()
    assert f"open({str(path)!r}" in window.codePanel.text()
    window.epochsSpin.setValue(30)
    run_to_end(qtbot, window)
    run = window.session.current
    assert run.status == "completed" and run.config.data == str(path)
    assert window.trainingView.fitStack.currentWidget() is window.boundaryPlot
    assert window.runsTable.item(0, window.runsTable.COLUMNS.index("accuracy")).text().endswith("%")


def test_a_bad_file_is_refused_and_the_form_keeps_its_problem(qtbot, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("1,2\n3,oops\n5,6\n")
    window = open_window(qtbot)
    open_data(qtbot, window, path)
    assert window.problemCombo.currentData() == "tutorial"
    assert "Data not loaded: line 2: 'oops' is not a finite number" in window.statusLabel.text()


def test_a_file_gone_before_start_is_named_not_raised(qtbot, tmp_path):
    path = tmp_path / "line.csv"
    path.write_text("x,y\n1,2\n2,4\n3,6\n")
    window = open_window(qtbot)
    open_data(qtbot, window, path)
    path.unlink()
    window.startButton.click()
    assert window.session.current is None
    assert "cannot read line.csv" in window.settingsError.text()


def test_a_growing_loss_is_said_while_the_run_goes_and_at_its_end(qtbot, tmp_path):
    path = tmp_path / "tutorial.csv"
    path.write_text("x,y\n1,2\n2,4\n3,6\n")  # the tutorial's points, the default MLP at lr 0.1: 1e20 in 20 epochs
    window = open_window(qtbot)
    open_data(qtbot, window, path)
    assert window.depthSpin.value() == 0 and "start from the linear model" in window.statusLabel.text()
    window.depthSpin.setValue(2)  # the MLP, which these three points take to 1e20
    window.epochsSpin.setValue(20)
    said = []
    original = window.runStatus.say
    window.runStatus.say = lambda text, error=False: (said.append((text, error)), original(text, error))[1]
    run_to_end(qtbot, window)
    growing = [text for text, error in said if error and text.startswith("The loss is growing:")]
    assert window.session.current.status == "completed" and growing  # said as it grew, not only at the end
    assert "the loss is growing:" in window.statusLabel.text() and "try a smaller one" in window.statusLabel.text()
