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
    text = window.profileView.summary.text()
    assert "Eager step (op by op):" in text and "operator calls a step" in text  # a CPU launches nothing
    assert "launch" not in text.split("Eager step")[1] and "timed alone; under the profiler" in text
    assert "whatever else held the cores" in window.profileView.timeline_note.text()
    assert window.statusLabel.text().startswith("Profiled:") and window.profileButton.isEnabled()


def test_a_graph_profile_says_its_mode_and_its_launches(qtbot):
    from gpudemo.core.measure.profile import OpTiming, StepProfile

    window = open_window(qtbot)
    profile = StepProfile("cuda:0", 64, 40.0, 60.0, 30.0, 11.0, (OpTiming("aten::addmm", 1.0, 1.0, 6.0),),
                          on_gpu=True, step="graph", launches=2 / 64)  # fmt: skip
    window.profileView.end(profile, "tutorial")
    text = window.profileView.summary.text()
    assert "Graph step (captured in CUDA graphs, 64 epochs a replay): 0.03 launches a step, 1,280.00 µs" in text


def test_a_gpu_profile_shows_its_waiting_apart_from_its_work(qtbot):
    from gpudemo.core.measure.profile import OpTiming, StepProfile

    window = open_window(qtbot)
    profile = StepProfile(
        "cuda:0",
        20,
        cpu_us=120.0,
        wall_us=140.0,
        device_us=30.0,
        kernels=9.0,
        ops=(OpTiming("aten::addmm", 1.0, 15.0, 6.0),),
        on_gpu=True,
        waiting_us=95.0,
    )
    window.profileView.end(profile, "line")
    text = window.profileView.summary.text()
    assert "30.0 µs of GPU work in 9 kernels" in text and "95.0 µs of it the CPU waited for the GPU (not work)" in text
    assert "without torch.cuda.synchronize() a step seems to take 120.0 µs, with it 140.0 µs" in text
    assert "1.2× too fast" in text
    from gpudemo.core.measure.readings import profile_reading

    assert text == "\n".join(map(str, profile_reading(profile, "line")))  # the command line's sentences, the same


def test_the_profile_draws_one_step_against_time(qtbot):
    window = open_window(qtbot)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.profileButton.click()
    plot = window.profileView.timeline
    assert plot.plot.objectName() == "timelinePlot"
    drawn = sum(len(bars.opts["x0"]) for bars in plot._host_bars)
    assert drawn > 10 and len(plot._kernel_bars.opts["x0"]) == 0  # on the CPU the host row alone
    assert "inside PyTorch's operators" in window.profileView.timeline_note.text()


def test_a_gpu_timeline_links_kernels_to_operators_and_names_what_is_hovered(qtbot):
    from gpudemo.core.measure.profile import StepProfile
    from gpudemo.core.measure.timeline import Span, Timeline

    window = open_window(qtbot)
    timeline = Timeline(
        "cuda:0",
        100.0,
        (Span("aten::addmm", 0, 20), Span("cudaLaunchKernel", 10, 5, lane=1)),
        (Span("gemv", 40, 50, launched_by=0),),
        on_gpu=True,
    )
    window.profileView.end(StepProfile("cuda:0", 20, 100.0, 100.0, 50.0, 1.0, (), True, 0.0, timeline), "line")
    plot = window.profileView.timeline
    assert list(plot._kernel_bars.opts["x0"]) == [40]
    x, y = plot._links.getData()
    assert list(x) == [0, 40]  # from addmm's start to the kernel's
    assert "busy 50% of the step" in window.profileView.timeline_note.text()
    window.viewTabs.setCurrentWidget(window.profileView)
    qtbot.waitUntil(lambda: plot.plot.isVisible())
    view = plot.plot.getPlotItem().vb
    plot._hovered(view.mapViewToScene(pg_point(60, 0.4)))
    assert plot.detail.text() == "gemv: 50.0 µs, from 40.0 µs (launched by aten::addmm)"


def pg_point(x, y):
    from PySide6.QtCore import QPointF

    return QPointF(x, y)
