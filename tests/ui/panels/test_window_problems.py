"""The window's problems, batches and optimizers, the fit view, and runs that do not fit."""

import numpy as np
import pytest
import torch
from PySide6.QtWidgets import QComboBox, QPlainTextEdit, QSpinBox

from gpudemo.core import training
from gpudemo.core.outputs.script import generate_script
from gpudemo.core.settings import rules
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import budget
from gpudemo.ui.views.fit_plot import FEW_POINTS
from tests.ui.windows import run_to_end


def choose(combo: QComboBox, key: str) -> None:
    combo.setCurrentIndex(combo.findData(key))


def fit_y(window) -> np.ndarray:
    y = window.trainingView.fit.curve.yData
    return np.array([]) if y is None else y


def test_the_new_controls_exist_and_the_combos_speak_the_clis_keys(window):
    for name, kind in [
        ("problemCombo", QComboBox),
        ("optimizerCombo", QComboBox),
        ("samplesSpin", QSpinBox),
        ("widthSpin", QSpinBox),
        ("depthSpin", QSpinBox),
        ("batchSpin", QSpinBox),
    ]:
        assert isinstance(window.findChild(kind, name), kind), name
    problems = [window.problemCombo.itemData(i) for i in range(window.problemCombo.count())]
    optimizers = [window.optimizerCombo.itemData(i) for i in range(window.optimizerCombo.count())]
    # every problem but "data", which File > Open data adds once a file is read
    assert (*problems, "data") == rules.PROBLEM_KEYS and tuple(optimizers) == rules.OPTIMIZER_KEYS
    assert (window.samplesSpin.minimum(), window.samplesSpin.maximum()) == (3, 10_000_000)
    assert (window.widthSpin.minimum(), window.widthSpin.maximum()) == (1, 4096)
    assert (window.depthSpin.minimum(), window.depthSpin.maximum()) == (0, 8)
    assert window.batchSpin.value() == 0 and window.batchSpin.text() == "full batch"


@pytest.mark.parametrize(
    "problem, enabled", [("tutorial", set()), ("line", {"samples"}), ("sine", {"samples", "width", "depth"})]
)
def test_settings_that_do_not_apply_are_disabled_not_hidden(window, problem, enabled):
    choose(window.problemCombo, problem)
    for name in ("samples", "width", "depth"):
        spin = getattr(window, f"{name}Spin")
        assert spin.isVisible() and spin.isEnabled() == (name in enabled), name


def test_the_code_panel_follows_every_choice(window):
    choose(window.problemCombo, "sine")
    choose(window.optimizerCombo, "adam")
    window.samplesSpin.setValue(777)
    window.widthSpin.setValue(12)
    window.depthSpin.setValue(3)
    window.batchSpin.setValue(64)
    expected = TrainingConfig(problem="sine", optimizer="adam", samples=777, width=12, depth=3, batch_size=64)
    assert window._read_config() == expected
    shown = window.findChild(QPlainTextEdit, "codeView").toPlainText()
    assert shown == generate_script(expected, [4.0]).text


def test_the_fit_view_shows_the_tutorials_points_and_the_final_line(qtbot, window):
    run_to_end(qtbot, window)
    points = window.trainingView.fit.points.getData()
    np.testing.assert_array_equal(points[0], [1, 2, 3])
    x, y = window.trainingView.fit.curve.getData()
    assert len(x) == training.FIT_POINTS and x[0] == 0 and x[-1] == 4
    model = window.predictionPanel.run.model
    with torch.no_grad():
        expected = model(torch.tensor(x, dtype=torch.float32).unsqueeze(1)).reshape(-1).numpy()
    np.testing.assert_allclose(y, expected, atol=1e-5)
    fit = window.trainingView.fit
    assert fit.points.zValue() > fit.curve.zValue()  # three points: none hides under the line


def test_a_cloud_of_points_lies_under_the_models_curve(qtbot, window):
    choose(window.problemCombo, "sine")
    window.samplesSpin.setValue(2000)
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    fit = window.trainingView.fit
    assert len(fit.points.getData()[0]) > FEW_POINTS and len(fit.curve.getData()[0]) == training.FIT_POINTS
    assert fit.points.zValue() < fit.curve.zValue()  # where the model fits, the cloud would cover it


def test_the_fit_moves_while_a_sine_run_goes_and_the_result_describes_the_mlp(qtbot, window):
    choose(window.problemCombo, "sine")
    choose(window.optimizerCombo, "adam")
    window.lrInput.setText("0.01")
    window.samplesSpin.setValue(500)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    for spin in (window.samplesSpin, window.widthSpin, window.problemCombo, window.batchSpin):
        assert not spin.isEnabled()
    qtbot.waitUntil(lambda: len(fit_y(window)) == training.FIT_POINTS, timeout=60_000)
    first = fit_y(window).copy()
    assert len(window.trainingView.fit.points.getData()[0]) == 500
    qtbot.waitUntil(lambda: not np.array_equal(fit_y(window), first), timeout=60_000)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert "an MLP of 1,153 parameters" in window.resultLabel.text()
    assert window.samplesSpin.isEnabled() and window.widthSpin.isEnabled()
    window.predictInput.setText("1.5")
    window.predictButton.click()
    assert window.predictionTable.rowCount() == 1


def test_a_minibatch_run_on_the_line_predicts_about_8(qtbot, window):
    choose(window.problemCombo, "line")
    choose(window.optimizerCombo, "momentum")
    window.samplesSpin.setValue(2000)
    window.batchSpin.setValue(100)
    window.lrInput.setText("0.01")
    window.epochsSpin.setValue(20)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")
    assert abs(float(window.predictionTable.model().index(0, 1).data()) - 8.0) < 0.2
    assert "learned  y = " in window.resultLabel.text()


def test_a_run_that_cannot_fit_is_refused_with_both_figures(qtbot, window, monkeypatch):
    monkeypatch.setattr(budget, "free_bytes", lambda device: 50 * 2**20)
    choose(window.problemCombo, "line")
    window.samplesSpin.setValue(10_000_000)
    window.startButton.click()
    assert not window.is_training()
    message = window.settingsError.text()
    assert window.settingsError.isVisibleTo(window)
    assert message.startswith("Not started: this run needs about") and "only 50.0 MiB is free" in message
    window.samplesSpin.setValue(1000)
    run_to_end(qtbot, window)  # a smaller run goes, and the message is gone
    assert not window.settingsError.isVisibleTo(window)


def test_running_out_of_memory_during_a_run_is_said_and_the_next_run_works(qtbot, window, monkeypatch):
    original = training.PreparedRun.epoch
    calls = []

    def epoch(self):
        calls.append(1)
        if len(calls) == 50:
            raise MemoryError()
        return original(self)

    monkeypatch.setattr(training.PreparedRun, "epoch", epoch)
    window.epochsSpin.setValue(1000)
    run_to_end(qtbot, window)
    status = window.statusLabel.text()
    assert status.startswith("Training failed: cpu ran out of memory after 49 epochs")
    assert window.statusLabel.property("error") is True
    monkeypatch.undo()
    window.epochsSpin.setValue(100)
    run_to_end(qtbot, window)
    assert window.statusLabel.text().startswith("Completed")


def test_the_precision_combo_trains_bf16_and_refuses_fp16_on_the_cpu(window, qtbot):
    combo = window.precisionCombo
    assert [combo.itemData(i) for i in range(combo.count())] == ["fp32", "tf32", "bf16", "fp16"]
    combo.setCurrentIndex(combo.findData("fp16"))
    window.startButton.click()
    assert window.session.current is None
    assert "fp16 training with a GradScaler needs a CUDA GPU" in window.settingsError.text()
    combo.setCurrentIndex(combo.findData("bf16"))
    assert "torch.autocast(device_type=device.type, dtype=torch.bfloat16)" in window.codePanel.text()
    window.epochsSpin.setValue(20)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.startButton.click()
    assert window.session.current.config.precision == "bf16" and window.session.current.status == "completed"
