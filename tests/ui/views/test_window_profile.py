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


def test_a_gpu_profile_shows_its_waiting_apart_from_its_work(qtbot):
    from gpudemo.core.profile import OpTiming, StepProfile

    window = open_window(qtbot)
    profile = StepProfile("cuda:0", 20, cpu_us=120.0, wall_us=140.0, device_us=30.0, kernels=9.0,
                          ops=(OpTiming("aten::addmm", 1.0, 15.0, 6.0),), on_gpu=True, waiting_us=95.0)
    window.profileView.show_profile(profile, "line")
    text = window.profileView.summary.text()
    assert "30.0 µs of GPU work in 9 kernels" in text and "95.0 µs of it the CPU waited for the GPU (not work)" in text
    assert "without torch.cuda.synchronize() a step seems to take 120.0 µs, with it 140.0 µs" in text
    assert "1.2× too fast" in text
