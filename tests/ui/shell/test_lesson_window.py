"""Help → Lesson in the window: every step forward and back in both languages, its run, its prediction,
the person's settings back on leaving, and a close in the middle."""

import pytest
from PySide6.QtWidgets import QPlainTextEdit

from gpudemo.core.lessons.lesson import load
from tests.ui.windows import open_window


def lesson_text(window) -> str:
    return window.lessonPanel.titleLabel.text() + "\n" + window.lessonPanel.textLabel.text()


def test_every_step_points_at_widgets_and_code_lines_that_exist(qtbot):
    window = open_window(qtbot)
    for step in load():
        missing = [name for name in step.widgets if window.find(name) is None]
        assert missing == [], step.key
        if step.tab:
            assert window.viewTabs.indexOf(window.find(step.tab)) >= 0, step.key


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_walking_every_step_forward_and_back(qtbot, language, request):
    from gpudemo.ui.base import i18n

    if language != "en":
        request.getfixturevalue("qapp")
        i18n.install(language)
        request.addfinalizer(lambda: i18n.install("en"))
    window = open_window(qtbot)
    steps = load()
    assert not window.lessonPanel.isVisible()
    window.lessonButton.click()
    assert window.lessonPanel.isVisible()
    code = window.findChild(QPlainTextEdit, "codeView")
    seen = []
    for number, step in enumerate(steps, 1):
        assert window.lessonPanel.stepLabel.text().count(str(number)) >= 1
        assert window.lessonPanel.titleLabel.text() == step.title[language]
        frames = window.lesson.highlighter.targets()
        assert [target.objectName() for target in frames] == list(step.widgets), step.key
        lines = code.toPlainText().splitlines()
        marked = window.codePanel.marked_lines()
        assert marked and all(any(piece in lines[n] for piece in step.code) for n in marked), step.key
        if step.tab:
            assert window.viewTabs.currentWidget().objectName() == step.tab
        seen.append(lesson_text(window))
        if number < len(steps):
            window.lessonPanel.nextButton.click()
    assert not window.lessonPanel.nextButton.isEnabled()
    for _ in range(len(steps), 1, -1):
        window.lessonPanel.backButton.click()
    assert window.lessonPanel.titleLabel.text() == steps[0].title[language]
    assert not window.lessonPanel.backButton.isEnabled()
    assert "cpu" in seen[0]  # the devices found here
    assert "{w0}" not in seen[2] and "{bytes}" not in seen[3] and "{move}" not in seen[3]
    if language == "zh_CN":
        assert "训练" in seen[5] and window.lessonPanel.nextButton.text() != "Next ▶"


def test_the_lessons_run_has_the_tutorials_numbers_and_predicts_about_8(qtbot):
    window = open_window(qtbot)
    window.lrInput.setText("0.05")  # the person's own settings, which the lesson sets aside
    window.epochsSpin.setValue(7)
    window.problemCombo.setCurrentIndex(window.problemCombo.findData("sine"))
    window.lessonButton.click()
    assert window.lrInput.text() == "0.1" and window.epochsSpin.value() == 100
    panel = window.lessonPanel
    for _ in range(7):  # to "predicting": it needs the run, which has not happened
        panel.nextButton.click()
    assert "needs the lesson's run" in panel.textLabel.text() and panel.actionButton.text() == "Train now"
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        panel.actionButton.click()
    run = window.session.current
    assert run.config.problem == "tutorial" and run.config.lr == 0.1 and run.config.epochs == 100
    qtbot.waitUntil(lambda: window.predictionTable.rowCount() == 1)  # it predicted by itself once trained
    answer = float(window.predictionTable.item(0, 1).text())
    assert answer == pytest.approx(8.0, abs=0.2)
    assert f"{answer:.4f}"[:4] in panel.textLabel.text() and "about 8" in panel.textLabel.text()
    panel.backButton.click()  # back to the CPU: the learned w and b
    text = panel.textLabel.text()
    assert "{w}" not in text and "w = 1.9" in text or "w = 2.0" in text
    panel.leaveButton.click()
    assert not panel.isVisible() and window.lesson.highlighter.targets() == []
    assert window.lrInput.text() == "0.05" and window.epochsSpin.value() == 7
    assert window.problemCombo.currentData() == "sine"


def test_closing_the_window_in_the_middle_of_the_lessons_run_is_clean(qtbot):
    window = open_window(qtbot)
    window.epochsSpin.setValue(123)
    window.lessonButton.click()
    for _ in range(5):
        window.lessonPanel.nextButton.click()
    window.epochsSpin.setValue(10_000_000)  # a long run, stopped by the close
    window.lesson.act()
    assert window.is_training()
    window.close()
    assert not window.is_training() and not window.lessonPanel.isVisible()
    assert window.epochsSpin.value() == 123  # put back before the settings are saved


def test_the_lesson_goes_on_in_the_other_language(qtbot, qapp):
    from gpudemo.ui.base import i18n

    window = open_window(qtbot)
    window.lessonButton.click()
    window.lessonPanel.nextButton.click()
    window.lessonPanel.nextButton.click()
    try:
        new = window.set_language("zh_CN")
        qtbot.addWidget(new, before_close_func=lambda w: w.close())
        assert new is not window and new.lessonPanel.isVisible()
        assert new.lessonPanel.titleLabel.text() == load()[2].title["zh_CN"]
        new.lessonPanel.leaveButton.click()
        assert new.lrInput.text() == "0.1"  # the person's own, which were the tutorial's here too
    finally:
        i18n.install("en")


def test_the_data_step_shows_the_three_points_before_any_run(qtbot):
    window = open_window(qtbot)
    window.lessonButton.click()
    window.lessonPanel.nextButton.click()
    points = window.trainingView.fit.points.getData()
    assert list(points[0]) == [1.0, 2.0, 3.0] and list(points[1]) == [2.0, 4.0, 6.0]
    assert window.trainingView.fitStack.currentWidget() is window.fitPlot
    window.lessonPanel.leaveButton.click()
    assert len(window.trainingView.fit.points.getData()[0]) == 0  # no run: nothing to show after the lesson


def test_the_last_steps_compare_at_a_million_samples_and_profile_a_step(qtbot):
    window = open_window(qtbot)
    window.actions.lesson.trigger()  # Help → Lesson
    steps = load()
    for _ in range(len(steps) - 2):  # to "making it worth a GPU"
        window.lessonPanel.nextButton.click()
    assert window.viewTabs.currentWidget() is window.compareView
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.lessonPanel.actionButton.click()
        assert not window.lessonPanel.actionButton.isEnabled()  # one job at a time
    assert window.samplesSpin.value() == 1_000_000 and window.problemCombo.currentData() == "line"
    assert window.compareTable.item(0, 0).text() == "cpu" and window.compareTable.item(0, 1).text() == "completed"
    assert window.lessonPanel.actionButton.isEnabled()
    window.lessonPanel.nextButton.click()
    assert window.viewTabs.currentWidget() is window.profileView
    with qtbot.waitSignal(window.runFinished, timeout=120_000):
        window.lessonPanel.actionButton.click()
    assert (
        window.profileTable.rowCount() > 3 and "inside PyTorch's operators" in window.profileView.timeline_note.text()
    )
    window.lessonPanel.leaveButton.click()
    assert window.problemCombo.currentData() == "tutorial" and window.samplesSpin.value() == 1000


def test_the_training_step_holds_its_run_after_one_epoch_so_pause_and_step_can_be_pressed(qtbot):
    window = open_window(qtbot)
    window.lessonButton.click()
    panel = window.lessonPanel
    for _ in range(5):  # to "Training", which invites Pause and Step one epoch (the run takes 0.06 s)
        panel.nextButton.click()
    assert window.lesson.steps[window.lesson.index].key == "train"
    with qtbot.waitSignal(window.job.pausedAt, timeout=60_000) as held:
        panel.actionButton.click()
    assert held.args == [1] and window.is_paused() and window.stepButton.isEnabled()
    assert window.statusLabel.text().startswith("Paused at epoch 1 of 100")
    with qtbot.waitSignal(window.job.pausedAt, timeout=10_000) as stepped:
        window.stepButton.click()
    assert stepped.args == [2] and window.session.current.count == 2
    with qtbot.waitSignal(window.runFinished, timeout=60_000):
        window.actions.pause.trigger()  # Resume: the other 98
    assert window.session.current.status == "completed" and window.session.current.count == 100


def test_the_gpu_step_says_where_its_answer_was_measured_when_only_the_cpu_is_here(qtbot):
    from tests.ui.windows import TWO_GPUS

    window = open_window(qtbot)
    window.lessonButton.click()
    for _ in range(8):
        window.lessonPanel.nextButton.click()
    assert window.lesson.steps[window.lesson.index].key == "gpu"
    text = window.lessonPanel.textLabel.text()
    assert "This machine has no GPU" in text and "NVIDIA H200 (4 December 2026" in text
    window.devices = TWO_GPUS  # where GPUs are listed, the comparison itself shows the answer
    window.lesson.render()
    assert "This machine has no GPU" not in window.lessonPanel.textLabel.text()
