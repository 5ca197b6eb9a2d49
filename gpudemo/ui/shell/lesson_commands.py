"""The guided lesson in the window: Help → Lesson walks through the tutorial one step at a time.

The steps come from the package's lesson file (core.lesson); this puts each on the window: the
tab it talks about, a frame around each widget it names, its lines marked in the Code panel, its
text (in the window's language, with the values of this machine and of the lesson's run filled
in) and its button. Opening the lesson keeps the person's own settings and sets the tutorial's;
leaving it (its button, the panel's close, or closing the window) puts theirs back.

A step that needs the lesson's run (w and b back on the CPU, the prediction) says so and its
button trains first; the prediction then follows by itself when the run is done.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Slot

from gpudemo.core.base import units as fmt
from gpudemo.core.lessons import lesson
from gpudemo.core.lessons.lesson import (
    COMPARE_LARGE,
    LARGE,
    NEEDS_RUN,
    PREDICT,
    PREDICT_AT,
    PROFILE,
    TRAIN,
    TUTORIAL,
)
from gpudemo.core.session.runs import Run
from gpudemo.core.training import COMPLETED
from gpudemo.ui.base import i18n
from gpudemo.ui.panels.lesson_panel import LessonPanel
from gpudemo.ui.shell.lesson_course import LessonCourse, form_values


class LessonCommands(LessonCourse):
    def __init__(self, window, panel: LessonPanel):
        super().__init__(window, panel, lesson.load())
        self._run: Run | None = None  # the run the lesson started
        self._predict_after_run = False
        self._initial: tuple[float, float] | None = None
        self._moves: dict[str, lesson.Move] = {}
        window.runFinished.connect(self._on_finished)

    @Slot()
    def open(self) -> None:
        """Start the lesson at its first step (or show it where it is); the other lesson ends if it runs."""
        if self.is_active():
            self.panel.show()
            self.panel.raise_()
            return
        w = self.window
        w.gpu_lesson.leave()
        self._keep_settings()
        w.trainingPanel.set_values(form_values(TUTORIAL))
        w.predictInput.setText(PREDICT_AT)
        self._show_panel()
        self.go(0)

    def _show_panel(self) -> None:
        """Tall enough for a step's text."""
        self._dock(self.window.height() // 3, with_code=True)

    def take_over(self, other: LessonCommands) -> None:
        """Go on with `other`'s lesson (the window rebuilt in another language): its step, its run, and
        the person's settings it keeps."""
        index = other.index
        if not self._hand_over(other):
            return
        self._run, self._predict_after_run = other._run, other._predict_after_run
        self._initial, self._moves = other._initial, other._moves
        self._show_panel()
        self.go(index)

    @Slot()
    def leave(self) -> None:
        """End the lesson: no frames or marks, and the person's own settings back."""
        if self._end():
            self.window.codePanel.mark_lesson(())
            self.window.trainingView.end_preview()

    def go(self, index: int) -> None:
        """Show step `index` (from 0) on the window."""
        self.index = index
        step = self.steps[index]
        w = self.window
        chosen = w.trainingView.chosen()
        if "fitPlot" in step.widgets and (chosen is None or chosen.config.problem != TUTORIAL.problem):
            from gpudemo.core.lessons import figures as lesson_figures  # a lesson opens once PyTorch has loaded

            w.trainingView.preview_data(lesson_figures.data_preview(TUTORIAL))  # the three points, before any run
        if self._beside:  # where there is room, the lines this step explains are in view
            w.codePanel.show()
        w.codePanel.mark(None)
        w.codePanel.mark_lesson(step.code)
        self._show_view_and_frames(step)
        self.render()

    def render(self) -> None:
        """The step's text and button as things stand (the run done or not, a job going or not)."""
        if not self.is_active():
            return
        step = self.steps[self.index]
        language = i18n.current()
        text = lesson.fill(step.text_in(language), self._values(step))
        action = self._action_text(step.action)
        if step.needs == NEEDS_RUN and not self._run_done():
            first = next((number for number, s in enumerate(self.steps, 1) if s.action == TRAIN), 1)
            text = (
                "<p><i>"
                + self.tr(
                    "This step needs the lesson's run, trained in step {step}: press Train now and it runs here."
                ).format(step=first)
                + "</i></p>"
                + text
            )
            action = self._action_text(TRAIN)
        elif step.no_gpu_in(language) and all(device.kind == "cpu" for device in self.window.devices):
            text += "<p><i>" + step.no_gpu_in(language) + "</i></p>"  # what the step would show, measured elsewhere
        self.panel.show_step(
            self.index + 1, len(self.steps), step.title_in(language), text, action, not self.window.is_busy()
        )

    def _action_text(self, action: str | None) -> str | None:
        return {
            TRAIN: self.tr("Train now"),
            PREDICT: self.tr("Predict x = 4"),
            COMPARE_LARGE: self.tr("Compare at 1,000,000"),
            PROFILE: self.tr("Profile a step"),
        }.get(action)

    def _run_done(self) -> bool:
        run = self._run
        return (
            run is not None
            and run.result is not None
            and run.result.status == COMPLETED
            and run in self.window.session.runs
        )

    def _values(self, step: lesson.Step) -> dict[str, str]:
        w = self.window
        device = w.devicePanel.current().id
        values = {"device": device, "devices": ", ".join(w.devices.ids)}
        from gpudemo.core.lessons import figures as lesson_figures  # a lesson opens once PyTorch has loaded

        text = step.text_in(lesson.ENGLISH)
        if "{w0}" in text or "{b0}" in text:
            if self._initial is None:
                self._initial = lesson_figures.initial_parameters(TUTORIAL)
            values.update(w0=f"{self._initial[0]:.4f}", b0=f"{self._initial[1]:.4f}")
        if "{move}" in text or "{bytes}" in text:
            if device not in self._moves:  # a few tiny copies: microseconds once the device is set up
                self._moves[device] = lesson_figures.time_move(dataclasses.replace(TUTORIAL, device=device))
            move = self._moves[device]
            values.update(
                bytes=f"{move.bytes:,}",
                move=fmt.short_time(move.seconds)
                if move.seconds >= 1e-3
                else self.tr("{us} µs").format(us=f"{move.seconds * 1e6:,.1f}"),
            )
        if self._run_done():
            result = self._run.result
            params = result.parameters
            values.update(
                w=f"{params.get('weight', float('nan')):.4f}",
                b=f"{params.get('bias', float('nan')):.4f}",
                loss=fmt.loss(result.final_loss),
            )
            if self._run.model is not None:
                from gpudemo.core.training.prediction import predict

                values["prediction"] = f"{predict(self._run.model, [float(PREDICT_AT)])[0]:.4f}"
        return values

    @Slot()
    def act(self) -> None:
        """The step's button: train, predict, compare at a million samples or profile."""
        if not self.is_active() or self.window.is_busy():
            return
        step = self.steps[self.index]
        w = self.window
        if step.needs == NEEDS_RUN and not self._run_done():
            self._predict_after_run = step.action == PREDICT
            self._train()
        elif step.action == TRAIN:
            self._train()
        elif step.action == PREDICT:
            self._predict()
        elif step.action == COMPARE_LARGE:
            w.trainingPanel.set_values(form_values(LARGE))
            w.run_commands.start_compare()
        elif step.action == PROFILE:
            w.run_commands.start_profile()
        self.render()

    def _train(self) -> None:
        """The tutorial's run. At the training step it holds after its first epoch: the run takes 0.06 s, too
        short for the Pause and Step one epoch the step invites; elsewhere (a step that needs a run) it runs
        through."""
        w = self.window
        w.trainingPanel.set_values(form_values(TUTORIAL))
        if self.steps[self.index].action == TRAIN:
            w.run_commands.start_training_held(1)
        else:
            w.run_commands.start_training()
        if w.is_training():
            self._run = w.session.current

    def _predict(self) -> None:
        w = self.window
        if self._run is not None:
            w.runsTable.select(self._run)
        w.predictInput.setText(PREDICT_AT)
        w.predictionPanel.predict()

    @Slot()
    def _on_finished(self) -> None:
        if not self.is_active():
            return
        step = self.steps[self.index]
        if self._predict_after_run and self._run_done() and step.action == PREDICT:
            self._predict_after_run = False
            self._predict()
        self.window.codePanel.mark(None)  # the run marked its phases: the step's own lines again
        self.window.codePanel.mark_lesson(step.code)
        self.render()
