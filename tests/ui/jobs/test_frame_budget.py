"""The live plots' frame rate, from what the frames cost (ui/jobs/frame_budget.py): ten a second while the GUI
thread keeps within its share, fewer where drawing costs more, never under one a second."""

from gpudemo.ui.jobs.frame_budget import FASTEST_MS, LOOK_S, SHARE, SLOWEST_MS, FrameBudget


class Clocks:
    """A wall clock and the GUI thread's CPU clock, moved by hand."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def spend(self, seconds: float, share: float) -> None:
        self.wall += seconds
        self.cpu += seconds * share


def budget_with(clocks: Clocks) -> FrameBudget:
    budget = FrameBudget(wall=lambda: clocks.wall, cpu=lambda: clocks.cpu)
    budget.start()
    return budget


def test_cheap_frames_keep_ten_a_second():
    clocks = Clocks()
    budget = budget_with(clocks)
    for _ in range(30):
        clocks.spend(0.1, SHARE / 4)
        assert budget.frame() == FASTEST_MS


def test_costly_frames_come_later_until_the_share_is_kept_and_sooner_again_when_they_cheapen():
    clocks = Clocks()
    budget = budget_with(clocks)
    cost = 0.012  # the GUI thread's seconds a frame: 12 % of the time at ten frames a second
    for _ in range(60):
        interval = budget.interval_ms
        clocks.spend(interval / 1e3, cost / (interval / 1e3))
        budget.frame()
    assert abs(budget.interval_ms - cost / SHARE * 1e3) < 15  # 300 ms: 4 % of the time
    for _ in range(60):
        interval = budget.interval_ms
        clocks.spend(interval / 1e3, 0.001 / (interval / 1e3))
        budget.frame()
    assert budget.interval_ms == FASTEST_MS


def test_never_slower_than_once_a_second_and_measured_over_half_a_second_at_least():
    clocks = Clocks()
    budget = budget_with(clocks)
    clocks.spend(LOOK_S / 2, 1.0)  # a frame that took all of it, but too short a look to judge
    assert budget.frame() == FASTEST_MS
    for _ in range(20):
        clocks.spend(budget.interval_ms / 1e3, 1.0)
        budget.frame()
    assert budget.interval_ms == SLOWEST_MS
    budget.start()  # a new run: its first frames at once
    assert budget.interval_ms == FASTEST_MS


def test_a_window_whose_frames_cost_much_redraws_less_often_and_the_next_run_starts_at_ten_a_second(qtbot):
    import time

    from tests.ui.windows import open_window

    window = open_window(qtbot)
    job = window.job
    job._budget = FrameBudget(wall=time.perf_counter, cpu=time.perf_counter)  # the GUI thread never idle
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    qtbot.waitUntil(lambda: job._refresh.interval() > FASTEST_MS, timeout=60_000)
    curve = window.trainingView.loss.front(window.session.current)
    drawn = curve.count
    qtbot.waitUntil(lambda: curve.count > drawn, timeout=10_000)  # drawn still, less often
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    window.epochsSpin.setValue(100)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.startButton.click()
        assert job._refresh.interval() == FASTEST_MS


def test_nothing_is_drawn_while_the_training_view_is_hidden_and_all_of_it_when_it_shows_again(qtbot):
    from tests.ui.windows import open_window

    window = open_window(qtbot)
    window.epochsSpin.setValue(10_000_000)
    window.startButton.click()
    qtbot.waitUntil(lambda: window.session.current is not None and window.session.current.count > 0, timeout=60_000)
    curve = window.trainingView.loss.front(window.session.current)
    qtbot.waitUntil(lambda: curve.count > 0, timeout=10_000)
    window.viewTabs.setCurrentIndex(window.viewTabs.count() - 1)  # another view: the loss plot hidden
    assert not window.trainingView.isVisible()
    shown = curve.count
    for _ in range(2):  # the counters go on, frame after frame; the plot is left as it was
        counted = window.progressBar.value()
        qtbot.waitUntil(lambda counted=counted: window.progressBar.value() > counted + 1000, timeout=10_000)
        assert curve.count == shown
    window.viewTabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: curve.count > shown + 1000, timeout=10_000)
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.stopButton.click()
    assert curve.count == window.session.current.count


def test_the_busy_bar_stops_animating_when_the_run_begins_at_epoch_zero(qtbot):
    from PySide6.QtCore import QAbstractAnimation, QEvent, QObject

    from gpudemo.core.settings.config import TrainingConfig
    from tests.ui.windows import open_window

    class Frames(QObject):
        """Counts the style's animation frames the bar gets."""

        count = 0

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.StyleAnimationUpdate:
                Frames.count += 1
            return False

    window = open_window(qtbot)
    status, bar, frames = window.job.status, window.progressBar, Frames()
    bar.installEventFilter(frames)
    config = TrainingConfig(epochs=100)
    for _ in range(2):  # and busy again for the next run
        status.preparing(config, warm=True)
        assert bar.maximum() == 0
        before = Frames.count
        qtbot.waitUntil(lambda before=before: Frames.count > before + 3, timeout=5_000)  # Fusion's busy stripes
        status.training(config, began=True)
        assert (bar.value(), bar.maximum()) == (0, 100)
        # Its animation (the bar's child, the only source of those frames) is gone: no frame can come.
        qtbot.waitUntil(lambda: not bar.findChildren(QAbstractAnimation), timeout=5_000)
