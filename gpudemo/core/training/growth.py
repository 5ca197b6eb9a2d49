"""A loss that grows by orders of magnitude, said while the run goes: divergence is declared only when the
loss stops being a finite number, and a learning rate too large for the data can take a loss from 10 to
1e20 and be reported "completed" (the tutorial's own three points as a CSV, fitted by the default MLP at
lr 0.1). A `LossWatch` is fed each batch of losses as it arrives and says when the latest is GROWTH times
the lowest so far: that loss is not being minimised.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpudemo.core.base.messages import QT_TRANSLATE_NOOP, Message, message

GROWTH = 1e3  # three orders of magnitude above the lowest loss so far


@dataclass
class LossWatch:
    lowest: float = float("inf")
    lowest_epoch: int = 0
    seen: int = 0  # epochs fed so far
    latest: float = float("nan")

    def feed(self, losses: np.ndarray) -> None:
        """The next epochs' losses, in order (a NaN or an infinity is divergence, which the run says itself)."""
        losses = np.asarray(losses, dtype=np.float64)
        if not len(losses):
            return
        finite = np.where(np.isfinite(losses), losses, np.inf)
        at = int(finite.argmin())
        if finite[at] < self.lowest:
            self.lowest, self.lowest_epoch = float(finite[at]), self.seen + at + 1
        self.seen += len(losses)
        self.latest = float(losses[-1])

    def growing(self) -> bool:
        return np.isfinite(self.latest) and self.lowest > 0 and self.latest >= GROWTH * self.lowest

    def warning(self, lr: float) -> Message | None:
        """What to tell while the loss grows, else None."""
        if not self.growing():
            return None
        return message(
            QT_TRANSLATE_NOOP(
                "core",
                "the loss is growing: {latest} at epoch {epoch}, {times} times its lowest ({lowest} at epoch"
                " {low_epoch}); the learning rate {lr} is too large for this data: try a smaller one",
            ),
            latest=f"{self.latest:.3g}",
            epoch=f"{self.seen:,}",
            times=f"{self.latest / self.lowest:.0e}".replace("e+0", "e").replace("e+", "e"),
            lowest=f"{self.lowest:.3g}",
            low_epoch=f"{self.lowest_epoch:,}",
            lr=f"{lr:g}",
        )


def growth_warning(losses: np.ndarray, lr: float) -> Message | None:
    """A whole run's losses: what `LossWatch.warning` says at their end."""
    watch = LossWatch()
    watch.feed(losses)
    return watch.warning(lr)
