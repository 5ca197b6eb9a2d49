"""The Code panel's data-parallel script: chosen in its combo, for the form's settings."""

from tests.ui.windows import open_window


def test_the_code_panel_shows_the_ddp_script_and_back(qtbot):
    window = open_window(qtbot)
    panel = window.codePanel
    single = panel.text()
    panel.kindCombo.setCurrentIndex(panel.kindCombo.findData("parallel"))
    text = panel.text()
    assert "DistributedDataParallel(model" in text and 'dist.init_process_group("gloo")' in text
    assert "torchrun --nproc-per-node 2" in text
    window.epochsSpin.setValue(33)
    assert "for epoch in range(33):" in panel.text() and "DistributedSampler" in panel.text()
    window.startButton.click()  # a run's phases mark nothing in this script, and nothing breaks
    qtbot.waitUntil(lambda: window.startButton.isEnabled(), timeout=30_000)
    assert panel.marked_lines() == []
    panel.kindCombo.setCurrentIndex(panel.kindCombo.findData("single"))
    assert panel.text() == single.replace("range(100)", "range(33)").replace("100 epochs", "33 epochs")
