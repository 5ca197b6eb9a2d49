"""The window's Profile a step: the form's run, profiled, in the Profile tab."""

from tests.ui.windows import open_window


def test_the_window_profiles_the_forms_run(qtbot):
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.profileButton.click()
        assert not window.profileButton.isEnabled() and not window.startButton.isEnabled()
    assert window.viewTabs.currentWidget() is window.profileView
    names = [window.profileTable.item(row, 0).text() for row in range(window.profileTable.rowCount())]
    assert len(names) > 3 and "aten::mse_loss" in names  # which op costs most varies with the machine's load
    assert "PyTorch operator calls" in window.profileView.summary.text()
    assert window.statusLabel.text().startswith("Profiled:") and window.profileButton.isEnabled()
