"""Whatever a person pastes into the window's fields, it answers calmly (hypothesis)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpudemo.core.settings import rules
from tests.cli.test_input_fuzz import AWKWARD, _accepts
from tests.ui.windows import open_window

WINDOW_TEXT = st.one_of(st.text(max_size=200), st.sampled_from(AWKWARD))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lr=WINDOW_TEXT, seed=WINDOW_TEXT, values=WINDOW_TEXT)
def test_whatever_is_pasted_into_the_window_it_answers_calmly(qtbot, lr, seed, values):
    window = _window(qtbot)
    window.lrInput.setText(lr)
    window.seedInput.setText(seed)
    window.predictInput.setText(values)
    ok = window.trainingPanel.check()
    error = window.settingsError.text()
    lr_ok = _accepts(rules.parse_learning_rate, lr)
    seed_ok = _accepts(rules.parse_seed, seed)
    assert ok == (lr_ok and seed_ok)
    assert ("learning rate" in error) == (not lr_ok) and ("seed" in error) == (not seed_ok)
    window.predictButton.click()  # no model yet: a message, whatever the values
    assert window.predictMessage.text()
    for spin in (window.epochsSpin, window.samplesSpin, window.batchSpin):
        spin.lineEdit().setText(lr)
        spin.interpretText()
        assert spin.minimum() <= spin.value() <= spin.maximum()


def _window(qtbot):
    """One window for every example of a test (a window per example would take minutes)."""
    if not hasattr(qtbot, "gpudemo_window"):
        qtbot.gpudemo_window = open_window(qtbot)
    return qtbot.gpudemo_window


def test_the_step_combo_sets_the_mode_of_the_run_and_its_script(qtbot):
    import dataclasses

    from PySide6.QtCore import QItemSelectionModel
    from PySide6.QtWidgets import QPlainTextEdit

    from gpudemo.core.settings.config import TrainingConfig
    from gpudemo.core.training import train

    window = open_window(qtbot)
    combo = window.stepCombo
    assert [combo.itemData(i) for i in range(combo.count())] == ["eager", "compiled", "graph"]
    assert combo.currentData() == "eager" and window.trainingPanel.config("cpu").step == "eager"
    code = window.findChild(QPlainTextEdit, "codeView")
    combo.setCurrentIndex(combo.findData("compiled"))
    assert window.trainingPanel.config("cpu").step == "compiled"
    qtbot.waitUntil(lambda: "train_step = torch.compile(train_step, fullgraph=True" in code.toPlainText())
    result = train(TrainingConfig(epochs=10))
    compiled = dataclasses.replace(
        result, config=dataclasses.replace(result.config, step="compiled"), compile_seconds=12.3
    )
    window.runStatus.show_result(compiled)
    assert "compiling the step 12.3 s, not counted" in window.rateLabel.text()
    captured = dataclasses.replace(
        result, config=dataclasses.replace(result.config, step="graph"), compile_seconds=0.04
    )
    window.runStatus.show_result(captured)
    assert "capturing the step in CUDA graphs 40 ms, not counted" in window.rateLabel.text()
    # A graph on the CPU: refused under the form, with the reason, and nothing starts.
    combo.setCurrentIndex(combo.findData("graph"))
    qtbot.waitUntil(lambda: "torch.cuda.graph(graph)" in code.toPlainText())
    model = window.deviceList.model()
    window.deviceList.selectionModel().setCurrentIndex(  # the CPU is listed last
        model.index(model.rowCount() - 1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )
    window.startButton.click()
    error = window.trainingPanel.settingsError
    assert error.isVisible() and "captures a CUDA graph, and cpu has none" in error.text()
    assert not window.is_busy()
    window.trainingPanel.set_values({"step": "eager"})
    assert combo.currentData() == "eager"


def test_the_form_holds_every_setting_of_the_table_and_gives_it_back(window):
    from gpudemo.core.settings.config import SETTINGS, TrainingConfig

    assert set(window.trainingPanel.fields) == {setting.name for setting in SETTINGS} - {"data"}  # data: File menu
    config = TrainingConfig(problem="sine", samples=321, noise=0.25, width=7, depth=3, batch_size=30,
                            optimizer="adam", precision="bf16", step="compiled", epochs=77, lr=0.003,
                            seed=12)  # fmt: skip
    window.trainingPanel.set_config(config)
    assert window.trainingPanel.config("cpu") == config
