"""The Code panel: the script for the current settings, its steps marked as a run goes."""

import subprocess
import sys

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPlainTextEdit

from gpudemo.core.outputs.script import generate_script
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import PREDICTING, TRAINING
from gpudemo.ui import MainWindow
from tests.ui.windows import CPU_ONLY, TWO_GPUS, first_curve, run_to_end


@pytest.fixture
def window(make_window):
    return make_window(TWO_GPUS)


def shown(window):
    return window.findChild(QPlainTextEdit, "codeView").toPlainText()


def test_the_panel_follows_the_settings(window):
    assert shown(window) == generate_script(TrainingConfig(device="cuda:0"), [4.0]).text
    window.epochsSpin.setValue(321)
    window.lrInput.setText("3e-2")
    window.seedInput.setText("9")
    window.predictInput.setText("1, 2")
    model = window.deviceList.model()
    window.deviceList.selectionModel().setCurrentIndex(
        model.index(2, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )
    assert shown(window) == generate_script(TrainingConfig(device="cpu", epochs=321, lr=0.03, seed=9), [1.0, 2.0]).text


def test_a_bad_value_keeps_the_last_good_script(window):
    before = shown(window)
    window.lrInput.setText("zero")
    assert shown(window) == before


def test_copy_and_save(window, tmp_path):
    window.codePanel.copyButton.click()
    assert QGuiApplication.clipboard().text() == shown(window)
    target = tmp_path / "run.py"
    assert window.codePanel.save(str(target))
    assert target.read_text() == shown(window)
    assert not window.codePanel.save(str(tmp_path / "missing" / "run.py"))
    assert "Could not save" in window.codePanel.stepLabel.text()


def test_the_running_step_is_marked(qtbot):
    window = MainWindow(devices=CPU_ONLY)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    window.show()
    window.epochsSpin.setValue(10_000_000)
    script = generate_script(TrainingConfig(epochs=10_000_000), [4.0])
    window.startButton.click()
    qtbot.waitUntil(lambda: window.progressBar.value() > 0, timeout=60_000)
    assert window.codePanel.marked_lines() == list(script.lines(TRAINING))
    assert "training loop" in window.codePanel.stepLabel.text()
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert window.codePanel.marked_lines() == list(script.lines(PREDICTING))


def test_the_shown_script_reproduces_the_windows_run(qtbot):
    window = MainWindow(devices=CPU_ONLY)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    window.show()
    window.epochsSpin.setValue(150)
    window.lrInput.setText("0.05")
    window.seedInput.setText("11")
    window.predictInput.setText("4 -3")
    run_to_end(qtbot, window)
    out = subprocess.run([sys.executable, "-c", shown(window)], capture_output=True, text=True, check=True).stdout
    lines = {line.split()[0]: line.split() for line in out.splitlines()}
    assert abs(float(lines["final"][-1]) - float(first_curve(window).yData[-1])) <= 1e-6
    predictions = [line.split() for line in out.splitlines() if line.startswith("predict")]
    table = window.predictionTable.model()
    for row, (_, x, y) in enumerate(predictions):
        assert float(table.index(row, 0).data()) == float(x)
        assert abs(float(table.index(row, 1).data()) - float(y)) <= 1e-5  # the table shows 6 digits


def test_no_graph_script_is_shown_for_settings_the_run_would_refuse(qtbot, window):
    window.stepCombo.setCurrentIndex(window.stepCombo.findData("graph"))
    window.precisionCombo.setCurrentIndex(window.precisionCombo.findData("fp16"))
    text = window.codePanel.view.toPlainText()
    assert text.startswith("# No script for these settings: fp16's GradScaler reads its overflow check back")
    assert "scaler.step(optimizer)" not in text  # it would fail at its capture
    window.precisionCombo.setCurrentIndex(window.precisionCombo.findData("bf16"))
    assert "graph.replay()" in window.codePanel.view.toPlainText()


def test_the_script_exports_as_a_notebook_from_the_panel_and_the_file_menu(window, tmp_path, monkeypatch):
    import nbformat
    from PySide6.QtWidgets import QFileDialog

    panel = window.codePanel
    assert panel.notebookButton.isEnabled() and panel.notebookButton.text() == "Export as a notebook…"
    target = tmp_path / "lesson.ipynb"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(target), ""))
    file_menu = window.menuBar().actions()[0].menu()
    assert window.actions.export_notebook in file_menu.actions()
    window.actions.export_notebook.trigger()
    notebook = nbformat.read(str(target), as_version=4)
    nbformat.validate(notebook)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert 'device = torch.device("cuda:0" if has_gpu else "cpu")' in code and notebook.metadata.accelerator == "GPU"
    assert panel.stepLabel.text() == f"Saved {target}"
    panel.kindCombo.setCurrentIndex(panel.kindCombo.findData("parallel"))  # a DDP script runs under torchrun
    target.unlink()
    panel.notebookButton.click()
    assert not target.exists() and "the script for one device" in panel.stepLabel.text()
