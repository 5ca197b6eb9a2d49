"""What the window says of the job that goes: the status line above the tabs, and under them the
progress bar, the rate and what the finished run learned."""

from __future__ import annotations

import math

from PySide6.QtCore import QAbstractAnimation, QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar

from gpudemo.core.base import units as fmt
from gpudemo.core.base.messages import Message
from gpudemo.core.session.runs import Run
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import mode_of
from gpudemo.core.training import COMPLETED, DIVERGED, STOPPED, TrainingResult
from gpudemo.core.training.growth import LossWatch, growth_warning
from gpudemo.ui.base.i18n import epochs_text, say
from gpudemo.ui.base.spoken import announce
from gpudemo.ui.base.style import set_style_flag


class RunStatus(QObject):
    """The four widgets, made here and placed by the window: `statusLabel` and `progress_row`
    (`progressBar`, `rateLabel`), `resultLabel`."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.statusLabel = QLabel(self.ready(), objectName="statusLabel")
        self.statusLabel.setWordWrap(True)
        self.progressBar = QProgressBar(objectName="progressBar")
        self.progressBar.setFormat(self.tr("%v / %m epochs"))
        self.rateLabel = QLabel(objectName="rateLabel")
        # A fixed width, so that new text needs no new layout: its widest text in the language shown.
        widest = self.tr("{rate} epochs/s · ETA {eta}").format(rate=fmt.rate(888_888), eta=fmt.duration(35_999))
        self._rate_width = self.rateLabel.fontMetrics().horizontalAdvance(widest) + 16
        self.rateLabel.setFixedWidth(self._rate_width)
        self.resultLabel = QLabel(objectName="resultLabel")
        self.resultLabel.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._watched: Run | None = None  # the run whose losses `_watch` has seen
        self._watch = LossWatch()
        self.progress_row = QHBoxLayout()
        self.progress_row.addWidget(self.progressBar, 1)
        self.progress_row.addWidget(self.rateLabel)

    def ready(self) -> str:
        return self.tr("Ready: pick a device and press Start training.")

    def loading(self) -> str:
        return self.tr("Loading PyTorch (a second or two): press Start training now and the run begins once it has.")

    def say(self, text: str, error: bool = False) -> None:
        self.statusLabel.setText(text)
        set_style_flag(self.statusLabel, "error", error)

    def tell(self, text: str, error: bool = False) -> None:
        """Say `text` on the status line and to a screen reader at once (a run's start, hold and end)."""
        self.say(text, error)
        announce(self.statusLabel, text, urgent=error)

    def clear(self, progress_format: str | None = None) -> None:
        """A new job: no rate, no result; the bar counts in `progress_format` (Qt's %v, %m, %p)."""
        self.rateLabel.setText("")
        self.rateLabel.setWordWrap(False)
        self.rateLabel.setFixedWidth(self._rate_width)
        self.resultLabel.setText("")
        if progress_format is not None:
            self.progressBar.setFormat(progress_format)

    # --- a run ---

    def preparing(self, config: TrainingConfig, warm: bool) -> None:
        self.clear(self.tr("%v / %m epochs"))
        self._bar(0, maximum=0)  # busy until the loop begins
        if warm:
            self.tell(self.tr("Preparing the run on {device}…").format(device=config.device))
        else:
            self.tell(
                self.tr(
                    "Preparing the run on {device}: PyTorch loads its training code on the first run (a second or two)…"
                ).format(device=config.device)
            )

    def training(self, config: TrainingConfig, began: bool = False) -> None:
        if began:  # the clock starts now: no repaint inside the call
            self._bar(0, maximum=config.epochs)
        self.say(self.tr("Training on {device}…").format(device=config.device))

    def compiling(self, config: TrainingConfig, stopping: bool = False) -> None:
        """The step is compiled (or captured) before the clock: seconds in which no epoch runs."""
        if stopping:
            self.stopping_after_compile(config)
        else:
            self.say(say(mode_of(config).preparing(config.device)))

    def stopping_after_compile(self, config: TrainingConfig) -> None:
        self.say(self.tr("Stopping after {what}…").format(what=say(mode_of(config).interrupting())))

    def stopped_before_first_epoch(self) -> None:
        self._bar(0, maximum=1)
        self.tell(self.tr("Stopped before the first epoch: no run to keep."))

    def pausing(self) -> None:
        self.say(self.tr("Pausing before the next epoch…"))

    def paused(self, epochs: int, total: int) -> None:
        self.tell(
            self.tr(
                "Paused at epoch {epoch} of {total}: Step runs one more epoch, Resume goes on,"
                " Predict uses the model as it stands."
            ).format(epoch=f"{epochs:,}", total=f"{total:,}")
        )

    def counters(self, run: Run) -> None:
        """The bar and the rate as the run stands; a loss growing by orders of magnitude, said once as it does."""
        self._bar(run.count)
        self._watch_losses(run)
        if run.rate > 0:
            eta = run.eta
            self.rateLabel.setText(
                self.tr("{rate} epochs/s · ETA {eta}").format(
                    rate=fmt.rate(run.rate), eta=fmt.duration(eta) if math.isfinite(eta) else "?"
                )
            )

    def take_over(self, old: RunStatus, current: Run | None) -> None:
        """The bar where `old`'s stood, and the rate of the current run, in this window's language (a new
        language's window showed an empty bar beside the old rate)."""
        self._bar(old.progressBar.value(), old.progressBar.maximum())
        if current is not None and old.rateLabel.text():
            self.counters(current)

    def _watch_losses(self, run: Run) -> None:
        """Feed the run's new losses to its watch (each epoch once); say when the loss grows by GROWTH."""
        if self._watched is not run:
            self._watched, self._watch = run, LossWatch()
        if run.count <= self._watch.seen:
            return
        was_growing = self._watch.growing()
        self._watch.feed(run.history.head(run.count)[self._watch.seen :])
        warning = self._watch.warning(run.config.lr)
        if warning is not None and not was_growing:
            self.say(say(warning)[:1].upper() + say(warning)[1:] + ".", error=True)

    def metering(self, device: str) -> None:
        self.say(
            self.tr(
                "Metering the step's energy on {device}: 1 s of idle, then the step again for 4 s under the"
                " counter (Stop ends it)…"
            ).format(device=device)
        )

    def energy_text(self, energy) -> str:
        """A run's energy (core/measure/joules.RunEnergy) in a clause: joules per epoch, or why none."""
        if energy.figures is None:
            return self.tr("energy not metered: {reason}").format(reason=say(energy.reason))
        figures = energy.figures
        return self.tr(
            "{joules} J/epoch, {above} of it above the idle {watts} W ({source}: the step {calls}× over {seconds} s)"
        ).format(
            joules=f"{figures.joules_per_epoch:.3g}",
            above=f"{figures.above_idle_per_epoch:.3g}",
            watts=f"{figures.idle_watts:.3g}",
            source=figures.source,
            calls=f"{figures.calls:,}",
            seconds=f"{figures.seconds:.1f}",
        )

    def finished(self, result: TrainingResult, energy=None) -> None:
        """A run that ended by itself, by a stop or by diverging: what it did, and what it learned; and its
        energy, when it was metered (or why not)."""
        summary = self.tr("{epochs} on {device} in {seconds} ({rate} epochs/s)").format(
            epochs=epochs_text(result.epochs_run),
            device=result.config.device,
            seconds=fmt.duration(result.seconds),
            rate=fmt.rate(result.epochs_per_second),
        )
        self.show_result(result)
        if result.status == COMPLETED:
            self._bar(self.progressBar.maximum())
            text = self.tr("Completed: {summary}").format(summary=summary)
            text = text if energy is None else f"{text} · {self.energy_text(energy)}"
            growing = growth_warning(result.losses, result.config.lr)  # completed, but not minimised
            self.tell(text if growing is None else f"{text}. {say(growing)}", error=growing is not None)
        elif result.status == STOPPED:
            self.tell(
                self.tr("Stopped at epoch {epoch} of {total}: {summary}").format(
                    epoch=f"{result.epochs_run:,}", total=f"{result.config.epochs:,}", summary=summary
                )
            )
        elif result.status == DIVERGED:
            self.tell(
                self.tr(
                    "Diverged at epoch {epoch}: the loss became {loss}. Try a smaller learning rate than {lr}."
                ).format(epoch=f"{result.diverged_at:,}", loss=fmt.loss(result.final_loss), lr=f"{result.config.lr:g}"),
                error=True,
            )

    def _preparing(self, result: TrainingResult) -> str:
        """What a compiled or captured step took before the clock, said after the rate."""
        prepared = mode_of(result.config).prepared(result.compile_seconds, result.config)
        return " " + self.tr("({prepared}, not counted)").format(prepared=say(prepared)) if prepared else ""

    def show_result(self, result: TrainingResult) -> None:
        """The rate and the learned model of a finished run, under the plots."""
        busy = " " + self.tr("(other programs held the cores: this rate is too low)") if result.busy else ""
        text = (
            self.tr("{rate} epochs/s").format(rate=fmt.rate(result.epochs_per_second)) + busy + self._preparing(result)
        )
        # Once, at the end: as wide as the finished run's words (a compile's seconds, a busy mark), the bar gives
        # way; but no wider than half as much again as while it ran, the rest on a second line: a whole
        # "(compiling the step 4.2 s, not counted)" on one line widened the window past a 1024-px screen.
        widest = self._rate_width * 3 // 2
        needed = self.rateLabel.fontMetrics().horizontalAdvance(text) + 16
        self.rateLabel.setWordWrap(needed > widest)
        self.rateLabel.setFixedWidth(min(widest, max(self._rate_width, needed)))
        self.rateLabel.setText(text)
        self.rateLabel.setToolTip(
            self.tr(
                "Not in this figure: moving the model and the data to {device} took {moving}, and a warm-up step before"
                " the clock {warm} (a GPU's first step pays once for its context, libraries and kernels)."
            ).format(
                device=result.config.device,
                moving=fmt.short_time(result.to_device_seconds),
                warm=fmt.short_time(result.warm_up_seconds),
            )
            + (
                " "
                + self.tr(
                    "Other programs took the cores this run's threads needed, so the rate is too slow (torch's threads"
                    " wait for each other at every operator): close them and train again."
                )
                if result.busy
                else ""
            )
        )
        params = result.parameters
        if "weight" in params:
            bias = params["bias"]
            template = (
                self.tr("learned  y = {weight} · x − {bias}")
                if bias < 0
                else self.tr("learned  y = {weight} · x + {bias}")
            )  # a negative intercept as a subtraction, not "+ -0.0003"
            learned = template.format(weight=fmt.loss(params["weight"]), bias=fmt.loss(abs(bias)))
        else:
            learned = self.tr("learned  an MLP of {count} parameters").format(count=f"{params['parameters']:,.0f}")
        self.resultLabel.setText(
            self.tr("final loss {loss}   ·   {learned}").format(loss=fmt.loss(result.final_loss), learned=learned)
        )

    def failed(self, message: Message) -> None:
        self.tell(self.tr("Training failed: {message}").format(message=say(message)), error=True)

    # --- a measurement, and the end of any job ---

    def measuring(self, value: int, maximum: int) -> None:
        top = maximum if maximum >= 0 else self.progressBar.maximum()
        self._bar(min(value, top), maximum=maximum if maximum >= 0 else None)

    def job_ended(self, epochs: int | None) -> None:
        if self.progressBar.maximum() == 0:  # the job ended before it could say how far it got
            self._bar(self.progressBar.value(), maximum=epochs or 1)

    def _bar(self, value: int, maximum: int | None = None) -> None:
        """The bar at `value` (of 0..`maximum` when given), painted with the window's next frame. QProgressBar
        repaints inside setValue and setRange while PySide holds the GIL that the training thread waits for
        (py-spy: a quarter of the GUI thread's share of a run); with its updates off for the calls,
        re-enabling them asks for an ordinary update instead."""
        bar = self.progressBar
        busy = bar.maximum() == 0
        bar.setUpdatesEnabled(False)
        if maximum is not None:
            bar.setRange(0, maximum)
        bar.setValue(value)
        bar.setUpdatesEnabled(True)
        if busy and bar.maximum() > 0:
            _end_busy_animation(bar)


def _end_busy_animation(bar: QProgressBar) -> None:
    """End the busy bar's animation. Fusion stops it only where it paints a chunk, so a bar that left the busy
    state at 0 went on repainting itself, and the window behind it, 60 times a second until its value moved:
    with the plots drawn once a second, the GUI thread's time in a 3 s run fell from 112-145 ms to 33-51 ms
    without it. The animation is the bar's child; deleted, the style forgets it and starts a new one when
    the bar is busy again."""
    for animation in bar.findChildren(QAbstractAnimation):
        animation.stop()
        animation.deleteLater()
