"""The second lesson, "Make the GPU win": at each step the learner guesses, then one of the tabs' own
measurements runs on this machine (on the worker thread, stoppable), then the step explains, with the
guess and the measurement side by side; the last step tables them all.

The steps are resources/lesson/gpu_win.json; what each measurement says is read by core/lessons/guesses.py.
The guesses are kept in the preferences (a second pass shows the first), the table exports as CSV.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

from PySide6.QtCore import Slot

from gpudemo.core.base.files import write_atomically
from gpudemo.core.lessons import borrowed, guesses, lesson
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.step.modes import fastest_for
from gpudemo.ui.base import i18n
from gpudemo.ui.base.i18n import say
from gpudemo.ui.base.places import ask_open, ask_save
from gpudemo.ui.panels.guess_panel import GuessPanel
from gpudemo.ui.shell.lesson_course import LessonCourse
from gpudemo.ui.shell.lesson_measures import (
    DOUBTFUL,
    MEASURES,
    NO_GPU,
    NO_WIN,
    STOPPED_NOTE,
    UNSEEN,
    Here,
    matmul_size,
)

NAME = "gpu_win"
STORE = "lessons/gpu_win/"  # the preferences' group of remembered guesses
BORROWED = "lessons/borrowed"  # the preferences' key of the measurements loaded from a notebook's result file


class GuessLesson(LessonCourse):
    def __init__(self, window, panel: GuessPanel):
        super().__init__(window, panel, lesson.load(name=NAME))
        self.outcomes: dict[str, guesses.Outcome] = {}  # this pass's, by step
        # The step measuring: its key, the guess, the results so far and how many it needs.
        self._pending: tuple[str, float, list, int] | None = None
        self._chain: list[Callable[[], None]] = []  # measurements still to start for the pending step
        self._remembered = self._read_remembered()
        self.borrowed: borrowed.Borrowed | None = self._read_borrowed()  # File > Load measurements
        panel.exportRequested.connect(self._ask_export)
        window.measurements.resultReady.connect(self._on_result)
        window.runFinished.connect(self._on_finished)
        window.actions.stop.triggered.connect(self._on_stop)
        self._stopped = False  # the person stopped the step's measurement: no next one, nothing measured

    # --- the lesson's course ------------------------------------------------------------------

    @Slot()
    def open(self) -> None:
        """Start at the first step (or show the lesson where it is); the first lesson ends if it runs."""
        if self.is_active():
            self.panel.show()
            self.panel.raise_()
            return
        self.window.lesson.leave()
        self._keep_settings()
        self._dock(self.window.height() // 2)  # room for a step's explanation, and at the end its table
        self.go(0)

    def take_over(self, other: GuessLesson) -> None:
        """Go on with `other`'s lesson (the window rebuilt in another language): its step, its guesses and
        measurements, and the person's settings it keeps."""
        index = other.index
        self.borrowed = other.borrowed
        if not self._hand_over(other):
            return
        self.outcomes = dict(other.outcomes)
        self._dock(self.window.height() // 2)
        self.go(index)

    @Slot()
    def leave(self) -> None:
        """End the lesson: a measurement it started is stopped, the person's own settings come back."""
        if self.is_active() and self._pending is not None:
            self._pending, self._chain = None, []
            self.window.run_commands.stop()
        self._end()

    def go(self, index: int) -> None:
        self.index = index
        step = self.steps[index]
        self._show_view_and_frames(step)
        outcome = self.outcomes.get(step.key)
        remembered = self._remembered.get(step.key)
        last = ""
        if remembered is not None and step.guess is not None:
            last = self.tr("Your guess last time: {guess}").format(guess=self._shown(step.guess, remembered))
        self.panel.show_guess(step.guess, outcome.guess if outcome else remembered, last)
        self.render()

    def render(self) -> None:
        """The step's text (and, once measured, its explanation) and its button as things stand."""
        if not self.is_active():
            return
        step = self.steps[self.index]
        language = i18n.current()
        values = self._values(step)
        question = lesson.fill(step.text_in(language), values)
        outcome = self.outcomes.get(step.key)
        news = ""  # what the measurement brought: on top, where the eye is when Measure was pressed, the question under
        if self._pending is not None and self._pending[0] == step.key:
            news = "<p><i>" + self.tr("Measuring on this machine… (Stop ends it)") + "</i></p>"
        elif outcome is not None and outcome.note == STOPPED_NOTE:  # nothing to explain: say so, no units
            stopped = self.tr(
                "You guessed {guess}. Stopped before the measurement ended: nothing measured; press Measure again."
            )
            news = "<p>" + stopped.format(guess=self._shown(step.guess, outcome.guess)) + "</p>"
        elif outcome is not None:
            values.update(self._outcome_values(step, outcome))
            news = "<p>" + lesson.fill(step.explain_in(language), values) + "</p>"
        text = f"{news}<hr>{question}" if news else question
        action = None
        if step.measure is not None:
            action = self.tr("Measure again") if outcome is not None else self.tr("Measure")
        busy = self.window.is_busy()
        self.panel.show_step(self.index + 1, len(self.steps), step.title_in(language), text, action, not busy)
        if news:
            self.panel.scroll.verticalScrollBar().setValue(0)  # the news at the top of the panel, in sight
        self.panel.show_table(self._rows() if step.measure is None else None)

    def _values(self, step: lesson.Step) -> dict[str, str]:
        w = self.window
        from gpudemo.core.distributed.launcher import max_workers  # the lessons open once PyTorch has loaded

        device = w.devicePanel.current().id
        cuda = device.startswith("cuda")
        return {
            "device": device,
            "devices": ", ".join(w.devices.ids),
            "size": f"{(MEASURES[step.measure].size if step.measure else matmul_size)(device):,}",
            "mode": fastest_for(device),
            "mode_what": self.tr("captured in a CUDA graph") if cuda else self.tr("the whole step under torch.compile"),
            "backend": "nccl" if cuda and max_workers("nccl") >= 2 else "gloo",
        }

    def _outcome_values(self, step: lesson.Step, outcome: guesses.Outcome) -> dict[str, str]:
        measured = self.tr("nothing") if outcome.measured is None else self._said(step.guess, outcome.measured)
        return {
            "guess": self._said(step.guess, outcome.guess),
            "measured": measured,
            "off": say(outcome.off),
            "note": self.note_of(step, outcome),
            "bound": {
                guesses.OVERHEAD: self.tr("overhead"),
                guesses.MEMORY: self.tr("memory"),
                guesses.COMPUTE: self.tr("compute"),
            }.get(outcome.extra.get("bound"), "-"),
            "share": outcome.extra.get("share", "-"),
        }

    def _said(self, spec: lesson.GuessSpec | None, value: float) -> str:
        """A guess or a measurement in the explanation's sentence, with its unit (none for a size)."""
        shown = self._shown(spec, value)
        if spec is not None and spec.kind == lesson.PERCENT:
            return self.tr("{value} %").format(value=shown)
        if spec is not None and spec.kind == lesson.RATIO:
            return self.tr("{value}×").format(value=shown)
        return shown

    @staticmethod
    def _shown(spec: lesson.GuessSpec | None, value: float) -> str:
        if spec is not None and spec.kind == lesson.CHOICE:
            return f"{value:,.0f}"
        if spec is not None and spec.kind == lesson.PERCENT:
            return f"{value:.0f}"
        return f"{value:,.3g}"

    # --- guess, then measure ------------------------------------------------------------------

    @Slot()
    def act(self) -> None:
        """Measure: the guess first (refused with the reason when it will not do), then the measurement."""
        if not self.is_active() or self.window.is_busy():
            return
        step = self.steps[self.index]
        if step.measure is None:
            return
        try:
            guess = lesson.parse_guess(step.guess, self.panel.guess_text())
        except InvalidSetting as refused:
            self.panel.show_error(say(refused))
            return
        self.panel.show_error("")
        self._remember(step.key, guess)
        starts = self._starts(step.measure)
        self._pending, self._chain, self._stopped = (step.key, guess, [], len(starts)), starts[1:], False
        if not self._start(step, starts[0]):
            self._pending, self._chain = None, []
        self.render()

    def _start(self, step: lesson.Step, start: Callable[[], None]) -> bool:
        view = self.window.find(step.tab) if step.tab else self.window.trainingView
        return self.window.run_commands.start_measurement(view, start)

    def _here(self) -> Here:
        w = self.window
        return Here(w, w.devicePanel.current().id, list(w.devices.ids))

    def _starts(self, measure: str) -> list[Callable[[], None]]:
        """The measurements that answer `measure`, in order, each with the lesson's sizes (seconds each)."""
        return MEASURES[measure].starts(self._here())

    @Slot()
    def _on_stop(self) -> None:
        if self._pending is not None:
            self._stopped = True

    @Slot(object)
    def _on_result(self, result) -> None:
        if self._pending is not None:
            self._pending[2].append(result)

    @Slot()
    def _on_finished(self) -> None:
        """A job ended: the step's next measurement, or (all done, or one stopped) its outcome."""
        if self._pending is None:
            self.render()
            return
        key, guess, results, expected = self._pending
        step = next(step for step in self.steps if step.key == key)
        done = len(results) == expected - len(self._chain)  # the job that ended gave its result
        if done and self._chain and not self._stopped and self._start(step, self._chain.pop(0)):
            return
        self._pending, self._chain = None, []
        whole = len(results) == expected and not self._stopped
        self.outcomes[key] = self._outcome(step, guess, results if whole else [])
        self.render()

    def _outcome(self, step: lesson.Step, guess: float, results: list) -> guesses.Outcome:
        """What the measurement said, against the guess (the notes are kept as keys, said in the language
        shown: see note_of)."""
        language = i18n.current()
        if results:
            measured, extra, note = MEASURES[step.measure].read(results, self._here())
        else:
            measured, extra, note = None, {}, STOPPED_NOTE
        question = step.title_in(language)
        off = guesses.off_by(step.guess, guess, measured)
        return guesses.Outcome(step.key, question, guess, measured, off, note, extra)

    def note_of(self, step: lesson.Step, outcome: guesses.Outcome) -> str:
        """An outcome's note in the language shown now (it was measured, perhaps, in another); where this machine
        has no GPU and a notebook's result file was loaded, what that GPU measured instead of the quote."""
        figure = self.borrowed.figures.get(step.key) if self.borrowed is not None else None
        if outcome.note == NO_GPU and figure is not None:
            return self.tr("Measured on {device} ({date}) by the lesson's notebook: {figure}.").format(
                device=self.borrowed.device, date=self.borrowed.date, figure=self._said(step.guess, figure)
            )
        return {
            NO_GPU: step.no_gpu_in(i18n.current()),
            STOPPED_NOTE: self.tr("stopped before it ended: nothing measured"),
            NO_WIN: self.tr("no GPU here beat the CPU at any size measured"),
            UNSEEN: self.tr(
                "on the Apple GPU (MPS) torch.profiler sees only the CPU encoding Metal's commands, not the GPU's"
                " time: how busy it was cannot be measured this way"
            ),
            DOUBTFUL: self.tr(
                "Mind the figure: a step this long is far more than fixed costs, yet twice the samples took barely"
                " longer, so another program probably held the cores while one of the two was timed; the bound"
                " given is the roofline's. Close other programs and measure again."
            ),
        }.get(outcome.note, outcome.note)

    def _shown_now(self, step: lesson.Step, outcome: guesses.Outcome) -> guesses.Outcome:
        """`outcome` with its question and note in the language shown now: the table and the CSV follow a switch."""
        return dataclasses.replace(outcome, question=step.title_in(i18n.current()), note=self.note_of(step, outcome))

    # --- the table, and what is kept ------------------------------------------------------------

    def _rows(self) -> list[tuple[str, str, str, str, str]]:
        rows = []
        for step in self.steps:
            outcome = self.outcomes.get(step.key)
            if outcome is None or step.guess is None:
                continue
            measured = "-" if outcome.measured is None else self._shown(step.guess, outcome.measured)
            shown = self._shown(step.guess, outcome.guess)
            now = self._shown_now(step, outcome)
            rows.append((now.question, shown, measured, say(outcome.off), now.note))
        return rows

    def export(self, path: str) -> bool:
        """The table as CSV at `path` (all or nothing); says so in the status line."""
        outcomes = [self._shown_now(step, self.outcomes[step.key]) for step in self.steps if step.key in self.outcomes]
        done = self.tr("Exported {count} guesses to {path}.").format(count=len(outcomes), path=path)
        return self._write(path, guesses.to_csv(outcomes), done)

    def _write(self, path: str, text: str, done: str) -> bool:
        """`text` at `path`, all or nothing; `done` (or why not) in the status line."""
        try:
            note = write_atomically(path, lambda out: out.write(text))
        except OSError as error:
            self.window.runStatus.say(
                self.tr("Could not write {path}: {reason}").format(path=path, reason=error.strerror), error=True
            )
            return False
        self.window.runStatus.say(done if note is None else f"{done} {say(note)}")
        return True

    @Slot()
    def _ask_export(self) -> None:
        path = ask_save(
            self.window, self.tr("Export your guesses"), "gpudemo_guesses.csv", self.tr("CSV files (*.csv)")
        )
        if path:
            self.export(path)

    # --- the measurements a notebook took where a GPU was ---------------------------------------------

    @Slot()
    def export_notebook(self, path: str | None = None) -> bool:
        """The lesson's measurements as a notebook (core/lessons/borrowed.py), to run on a borrowed GPU."""
        if not path:
            path = ask_save(
                self.window,
                self.tr("Export the lesson's measurements as a notebook"),
                "gpudemo_measurements.ipynb",
                self.tr("Jupyter notebooks (*.ipynb)"),
            )
        if not path:
            return False
        done = self.tr(
            "Wrote {path}: run it where a GPU is, then load its gpudemo_measurements.json with File > Load"
            " measurements."
        ).format(path=path)
        return self._write(path, borrowed.measurements_notebook(), done)

    @Slot()
    def load_measurements(self, path: str | None = None) -> bool:
        """A notebook's result file, checked: the second lesson quotes its figures, and they are kept."""
        if not path:
            path = ask_open(self.window, self.tr("Load measurements"), self.tr("Measurements (*.json);;All files (*)"))
        if not path:
            return False
        try:
            loaded = borrowed.read_result_file(path)
        except borrowed.ResultRefused as refused:
            self.window.runStatus.say(
                self.tr("Not loaded: {path}: {reason}.").format(path=path, reason=say(refused)), error=True
            )
            return False
        self.borrowed = loaded
        store = self._store()
        if store is not None:
            store.setValue(BORROWED, json.dumps(loaded.to_json()))
        self.window.runStatus.say(
            self.tr("Loaded the measurements of {device} ({date}): the second lesson shows them.").format(
                device=loaded.device, date=loaded.date
            )
        )
        self.render()
        return True

    def _read_borrowed(self) -> borrowed.Borrowed | None:
        store = self._store()
        text = store.value(BORROWED) if store is not None else None
        try:
            return borrowed.read_result(str(text)) if text else None
        except borrowed.ResultRefused:  # edited by hand, or of an older gpudemo: not kept
            return None

    def _store(self):
        preferences = self.window._preferences
        return preferences.store if preferences is not None else None

    def _read_remembered(self) -> dict[str, float]:
        store = self._store()
        if store is None:
            return {}
        texts = {key: store.value(STORE + key) for key in (step.key for step in self.steps)}
        return guesses.guesses_from_texts({key: text for key, text in texts.items() if text is not None})

    def _remember(self, key: str, guess: float) -> None:
        store = self._store()
        if store is not None:
            for name, text in guesses.guesses_to_texts({key: guess}).items():
                store.setValue(STORE + name, text)
